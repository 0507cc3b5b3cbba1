import { count, eq, ilike, or } from "drizzle-orm";
import type { AuditEvent } from "../../../src/resources/auditEvents";
import type { Executor } from "../../audit";
import { auditEvents } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";

type AuditRow = typeof auditEvents.$inferSelect;

const toEvent = (row: AuditRow): AuditEvent => ({
  id: row.id,
  operator: row.operatorCode,
  actorUid: row.actorUid,
  actorRole: row.actorRole,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  before: row.before,
  after: row.after,
  reason: row.reason,
  requestId: row.requestId,
  createdAt: row.createdAt.toISOString(),
});

/** The operator's append-only audit trail, read by its staff. */
export const auditEventsModule: DomainModule<AuditRow> = {
  source: {
    rows: (db: Executor) => db.select().from(auditEvents).$dynamic(),
    count: (db: Executor) => db.select({ total: count() }).from(auditEvents).$dynamic(),
    id: auditEvents.id,
    table: auditEvents,
    columns: {
      createdAt: auditEvents.createdAt,
      action: auditEvents.action,
      actorUid: auditEvents.actorUid,
      actorRole: auditEvents.actorRole,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
    },
    scope: (principal) => eq(auditEvents.operatorCode, principal.operator),
    search: (q) => or(ilike(auditEvents.action, `%${escapeLike(q)}%`), ilike(auditEvents.targetId, `%${escapeLike(q)}%`), ilike(auditEvents.reason, `%${escapeLike(q)}%`)),
    toRecord: toEvent,
    ownerUids: () => [],
  },
};
