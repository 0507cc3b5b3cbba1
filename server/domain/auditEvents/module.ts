import { getTableColumns, ilike, or } from "drizzle-orm";
import type { AuditEvent } from "#resources/auditEvents";
import { auditEvents } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";
import { actorEmailSql, actorNameSql, targetTitleSql } from "./names";

type AuditRow = typeof auditEvents.$inferSelect & {
  actorName: string | null;
  actorEmail: string | null;
  targetTitle: string | null;
};

/** The row with the people and the record it names, so the viewer reads "Morgan Admin" and "(202) 555-0101", not ids (issue 23). */
const selection = {
  ...getTableColumns(auditEvents),
  actorName: actorNameSql,
  actorEmail: actorEmailSql,
  targetTitle: targetTitleSql,
};

const toEvent = (row: AuditRow): AuditEvent => ({
  id: row.id,
  operator: row.operatorCode,
  actorUid: row.actorUid,
  actorRole: row.actorRole,
  actorName: row.actorName,
  actorEmail: row.actorEmail,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  targetTitle: row.targetTitle,
  before: row.before,
  after: row.after,
  reason: row.reason,
  requestId: row.requestId,
  createdAt: new Date(row.createdAt).toISOString(),
});

/** The operator's append-only audit trail, read by its staff. */
export const auditEventsModule: DomainModule<AuditRow> = {
  source: tableSource({
    table: auditEvents,
    selection,
    columns: {
      createdAt: auditEvents.createdAt,
      action: auditEvents.action,
      actorUid: auditEvents.actorUid,
      actorRole: auditEvents.actorRole,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
    },
    search: (q) =>
      or(
        ilike(auditEvents.action, `%${escapeLike(q)}%`),
        ilike(auditEvents.targetId, `%${escapeLike(q)}%`),
        ilike(auditEvents.reason, `%${escapeLike(q)}%`),
      ),
    toRecord: toEvent,
  }),
};
