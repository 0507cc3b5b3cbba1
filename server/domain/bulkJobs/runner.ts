import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Principal } from "#resources/access";
import type { Role } from "#resources/define";
import { recordAudit, type Executor } from "../../audit";
import type { ResourceEvent } from "#resources/events";
import { accounts, bulkJobItems, bulkJobs, lines } from "../../db/schema";
import { createEffects } from "../../engine/effects";
import { selectRecords } from "../../engine/recordQuery";
import type { EngineServices } from "../../engine/services";
import type { ActionContext } from "../../engine/types";
import type { JobDefinition } from "../../jobs/jobQueue";
import { publishAfterCommit } from "../../live/eventBus";
import { restoreLine, suspendLine } from "../lines/handlers";
import { linesModule, toLine } from "../lines/module";
import { publishLineCountChanged } from "../lines/lineCountEvents";
import type { ImportRow } from "#resources/bulkJobs";
import { createImportedLine } from "./importLines";

export const BULK_JOB_RUN = "bulk-jobs.run";
export const BULK_JOB_SWEEP = "bulk-jobs.sweep";

const silentLog = { error: () => undefined };

/** What each kind does to one line: the state it needs, the action name audited, and the domain handler. */
const KINDS = {
  "suspend-lines": { from: "active", action: "suspend", handler: suspendLine },
  "restore-lines": { from: "suspended", action: "restore", handler: restoreLine },
} as const;

type Outcome = "succeeded" | "failed" | "stop";

/**
 * One item in one transaction: the item and its line locked, the line's state checked, the same
 * domain handler as the single action (its order and the holder's notice), the audit row with the
 * job's reason, the item marked and the job's counters moved. A finished item is skipped, so a job
 * resumed after a crash, or run by two workers, changes each line once.
 */
async function runItem(services: EngineServices, jobId: string): Promise<Outcome> {
  const done = await services.db.transaction(async (tx) => {
    const [job] = await tx.select().from(bulkJobs).where(eq(bulkJobs.id, jobId)).for("update");
    if (!job || job.status === "cancelled" || job.status === "completed")
      return { outcome: "stop" as const, pending: [] };
    const [item] = await tx
      .select()
      .from(bulkJobItems)
      .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.status, "pending")))
      .orderBy(asc(bulkJobItems.position))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!item) {
      await tx.update(bulkJobs).set({ status: "completed", updatedAt: new Date() }).where(eq(bulkJobs.id, jobId));
      return { outcome: "stop" as const, pending: [] };
    }
    if (job.kind === "import-lines") {
      const created = await createImportedLine(tx, job.operatorCode, item.data as ImportRow, job.createdBy);
      const error = "error" in created ? created.error : null;
      const principal: Principal = { uid: job.createdBy, role: job.createdByRole as Role, operator: job.operatorCode };
      const { effects, pending } = createEffects(tx, principal, `bulk-job:${jobId}:${item.position}`);
      if (!("error" in created)) {
        const [line] = await selectRecords(linesModule.source, tx).where(eq(lines.id, created.id)).limit(1);
        // The new line, and the counts of the account's lines, reach the pages open on them.
        const [account] = await tx
          .select({ id: accounts.id, ownerUid: accounts.ownerUid })
          .from(accounts)
          .where(eq(accounts.id, (item.data as ImportRow).accountId));
        effects.publish({
          resource: "lines",
          type: "created",
          ids: [created.id],
          ownerUids: linesModule.source.ownerUids(line!),
        });
        if (account) publishLineCountChanged(effects, account);
        await recordAudit(tx, {
          operator: job.operatorCode,
          actorUid: job.createdBy,
          actorRole: job.createdByRole,
          action: "lines.import",
          targetType: "lines",
          targetId: created.id,
          before: null,
          after: toLine(line!),
          reason: job.reason,
          requestId: `bulk-job:${jobId}:${item.position}`,
        });
      }
      return finishItem(tx, job, item.position, error, pending);
    }
    const kind = KINDS[job.kind as keyof typeof KINDS];
    const principal: Principal = { uid: job.createdBy, role: job.createdByRole as Role, operator: job.operatorCode };
    const requestId = `bulk-job:${jobId}:${item.position}`;
    const { effects, pending } = createEffects(tx, principal, requestId);
    const [row] = await selectRecords(linesModule.source, tx)
      .where(and(eq(lines.id, item.targetId), eq(lines.operatorCode, job.operatorCode)))
      .limit(1)
      .for("update", { of: lines });
    let error: string | null = null;
    if (!row) error = "no such line";
    else if (row.status !== kind.from) error = `only while status is ${kind.from} (it is ${String(row.status)})`;
    else {
      const before = toLine(row);
      const input =
        job.kind === "suspend-lines" ? { suspendReason: (job.params.suspendReason as string) ?? "request" } : {};
      const ctx: ActionContext = {
        tx,
        principal,
        requestId,
        effects,
        services,
        row,
        record: before,
        input,
        reason: job.reason,
      };
      await kind.handler.run(ctx as never);
      const [updated] = await selectRecords(linesModule.source, tx).where(eq(lines.id, item.targetId)).limit(1);
      const after = toLine(updated!);
      await recordAudit(tx, {
        operator: job.operatorCode,
        actorUid: job.createdBy,
        actorRole: job.createdByRole,
        action: `lines.${kind.action}`,
        targetType: "lines",
        targetId: item.targetId,
        before,
        after,
        reason: job.reason,
        requestId,
      });
      pending.push({
        operator: job.operatorCode,
        resource: "lines",
        type: "updated",
        ids: [item.targetId],
        ownerUids: linesModule.source.ownerUids(updated!),
        at: new Date().toISOString(),
      });
    }
    return finishItem(tx, job, item.position, error, pending);
  });
  for (const event of done.pending) await publishAfterCommit(services.events, silentLog, event);
  return done.outcome;
}

/** Marks the item, moves the job's counters, and tells the job's page. */
async function finishItem(
  tx: Executor,
  job: { id: string; operatorCode: string },
  position: number,
  error: string | null,
  pending: ResourceEvent[],
) {
  const jobId = job.id;
  const outcome = error ? ("failed" as const) : ("succeeded" as const);
  await tx
    .update(bulkJobItems)
    .set({ status: outcome, error, updatedAt: new Date() })
    .where(and(eq(bulkJobItems.jobId, jobId), eq(bulkJobItems.position, position)));
  await tx
    .update(bulkJobs)
    .set({
      status: "running",
      done: sql`${bulkJobs.done} + 1`,
      failed: error ? sql`${bulkJobs.failed} + 1` : bulkJobs.failed,
      updatedAt: new Date(),
    })
    .where(eq(bulkJobs.id, jobId));
  pending.push({
    operator: job.operatorCode,
    resource: "bulk-jobs",
    type: "updated",
    ids: [jobId],
    ownerUids: [],
    at: new Date().toISOString(),
  });
  return { outcome, pending };
}

/** Works a job's pending items until none is left, it is cancelled, or `limit` items were done (tests stop there, as a crash would). */
export async function runBulkJob(
  services: EngineServices,
  jobId: string,
  options: { limit?: number } = {},
): Promise<number> {
  let worked = 0;
  while (options.limit === undefined || worked < options.limit) {
    const outcome = await runItem(services, jobId);
    if (outcome === "stop") break;
    worked++;
  }
  return worked;
}

/** Every job left queued or running (a restart interrupted it, or its message was lost): resumed where it stopped. */
export async function resumeBulkJobs(services: EngineServices): Promise<number> {
  const open = await services.db
    .select({ id: bulkJobs.id })
    .from(bulkJobs)
    .where(inArray(bulkJobs.status, ["queued", "running"]));
  for (const job of open) await runBulkJob(services, job.id);
  return open.length;
}

/** The pg-boss jobs: one run per created job, and a sweep every minute that resumes interrupted ones. */
export function bulkJobDefinitions(services: EngineServices): JobDefinition<object>[] {
  return [
    { name: BULK_JOB_RUN, run: async (data: { jobId: string }) => void (await runBulkJob(services, data.jobId)) },
    { name: BULK_JOB_SWEEP, cron: "* * * * *", run: async () => void (await resumeBulkJobs(services)) },
  ];
}
