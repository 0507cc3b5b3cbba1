import type { Db } from "./db/client";
import { auditEvents } from "./db/schema";

/** The database or an open transaction: an audited write and its audit row share one transaction. */
export type Executor = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface AuditEntry {
  operator: string;
  actorUid: string | null;
  actorRole: string | null;
  /** Dotted verb, e.g. "staff.invite", "identity.claim". */
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
  requestId?: string | null;
}

/** Appends one audit event (design.md §5: append-only; the table refuses UPDATE and DELETE). */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await recordAudits(db, [entry]);
}

/** Appends many audit events in one statement (a batch job's changes, each its own event). */
export async function recordAudits(db: Executor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(auditEvents).values(
    entries.map((entry) => ({
      operatorCode: entry.operator,
      actorUid: entry.actorUid,
      actorRole: entry.actorRole,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      reason: entry.reason ?? null,
      requestId: entry.requestId ?? null,
    })),
  );
}
