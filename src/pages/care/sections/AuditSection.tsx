import type { AuditEvent } from "../../../resources/auditEvents";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { PagedSection } from "./PagedSection";
import { useAccountLineIds } from "./useAccountLineIds";

/** Every audited write on the account and its lines, newest first: who (by role), what, why. */
export function AuditSection({ subscriber }: { subscriber: Subscriber }) {
  const lines = useAccountLineIds(subscriber);
  return (
    <PagedSection<AuditEvent>
      enabled={lines.ready}
      source={{ resource: "audit-events", filters: [{ field: "targetId", operator: "in", value: [subscriber.id, ...lines.ids] }], sorters: [{ field: "createdAt", order: "desc" }] }}
      columns={[
        { title: t("fields.createdAt"), dataIndex: "createdAt", render: (at: string) => formatDateTime(at) },
        { title: t("fields.action"), dataIndex: "action" },
        { title: t("fields.role"), dataIndex: "actorRole", render: (role: string | null) => (role ? t(`roles.${role}`) : "—") },
        { title: t("fields.actor"), dataIndex: "actorUid" },
        { title: t("fields.reason"), dataIndex: "reason", render: (reason: string | null) => reason ?? "—" },
      ]}
    />
  );
}
