import type { AuditEvent } from "../../../resources/auditEvents";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { actionText, actorText, targetText } from "../../../components/auditWords";
import { PagedSection } from "./PagedSection";
import { useAccountLineIds } from "./useAccountLineIds";

/** Every audited write on the account and its lines, newest first: who (by name), what, to which record, why. */
export function AuditSection({ subscriber }: { subscriber: Subscriber }) {
  const lines = useAccountLineIds(subscriber);
  return (
    <PagedSection<AuditEvent>
      enabled={lines.ready}
      source={{
        resource: "audit-events",
        filters: [{ field: "targetId", operator: "in", value: [subscriber.id, ...lines.ids] }],
        sorters: [{ field: "createdAt", order: "desc" }],
      }}
      columns={[
        { title: t("fields.createdAt"), dataIndex: "createdAt", render: (at: string) => formatDateTime(at) },
        {
          title: t("audit.who"),
          key: "who",
          render: (_: unknown, e: AuditEvent) =>
            `${actorText(e)}${e.actorUid && e.actorRole ? ` (${t(`roles.${e.actorRole}`, undefined, e.actorRole)})` : ""}`,
        },
        { title: t("audit.what"), dataIndex: "action", render: (action: string) => actionText(action) },
        { title: t("audit.record"), key: "record", render: (_: unknown, e: AuditEvent) => targetText(e) },
        { title: t("fields.reason"), dataIndex: "reason", render: (reason: string | null) => reason ?? "—" },
      ]}
    />
  );
}
