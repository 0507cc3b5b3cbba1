import { useGetIdentity, useList } from "@refinedev/core";
import { Card, Timeline, Typography } from "antd";
import type { ResourceDefinition } from "../resources/define";
import { can } from "../resources/access";
import { auditEventsResource, type AuditEvent } from "../resources/auditEvents";
import type { SessionUser } from "../providers/session";
import { translate as t } from "../i18n";
import { fieldText } from "./fieldText";
import { formatDateTime } from "./format";

/** The fields an audited write changed, as "Label: before → after". */
function changes(resource: ResourceDefinition, event: AuditEvent): string[] {
  if (!event.before || !event.after) return [];
  return Object.keys(resource.fields)
    .filter((field) => JSON.stringify(event.before![field]) !== JSON.stringify(event.after![field]))
    .map((field) => {
      const spec = resource.fields[field];
      const show = (record: Record<string, unknown>) => fieldText(field, spec, record) || "—";
      return `${t(spec?.label ?? field)}: ${show(event.before!)} → ${show(event.after!)}`;
    });
}

/** "device-claims.approve" → the declared action's label ("Approve"); create/edit/delete → "Created"… */
function actionLabel(resource: ResourceDefinition, action: string): string {
  const name = action.slice(action.lastIndexOf(".") + 1);
  const declared = resource.actions?.[name];
  return declared ? t(declared.label) : t(`history.actions.${name}`, undefined, name);
}

/**
 * The audit trail of one record, for staff: who did what and when, with the reason and what changed.
 * Subscribers do not see it (the audit trail is staff-only, and the API would refuse them).
 */
export function RecordHistory({ resource, id }: { resource: ResourceDefinition; id: string }) {
  const { data: user } = useGetIdentity<SessionUser>();
  const allowed = Boolean(resource.audit && user && can(user, auditEventsResource, "list"));
  const { result, query } = useList<AuditEvent>({
    resource: auditEventsResource.name,
    filters: [{ field: "targetId", operator: "eq", value: id }],
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { pageSize: 50 },
    queryOptions: { enabled: allowed },
  });
  if (!allowed) return null;
  const events = result?.data ?? [];
  return (
    <Card size="small" title={t("history.title")} style={{ marginTop: 16 }} loading={query.isLoading}>
      {events.length === 0 ? (
        <Typography.Text type="secondary">{t("history.empty")}</Typography.Text>
      ) : (
        <Timeline
          items={events.map((event) => ({
            key: event.id,
            children: (
              <div>
                <Typography.Text strong>{actionLabel(resource, event.action)}</Typography.Text>{" "}
                <Typography.Text type="secondary">
                  {t("history.by", {
                    role: t(`roles.${event.actorRole}`, undefined, event.actorRole ?? "?"),
                    time: formatDateTime(event.createdAt),
                  })}
                </Typography.Text>
                {event.reason && <div>{t("history.reason", { reason: event.reason })}</div>}
                {changes(resource, event).map((line) => (
                  <div key={line} style={{ fontSize: 13 }}>
                    {line}
                  </div>
                ))}
              </div>
            ),
          }))}
        />
      )}
    </Card>
  );
}
