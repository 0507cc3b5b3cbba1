import { and, eq, sql } from "drizzle-orm";
import type { BulkJob } from "#resources/bulkJobs";
import { bulkJobItems, bulkJobs } from "../../db/schema";
import type { ActionHandler, DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";
import { bulkJobRoutes } from "./routes";

const selection = {
  id: bulkJobs.id,
  operatorCode: bulkJobs.operatorCode,
  kind: bulkJobs.kind,
  status: bulkJobs.status,
  reason: bulkJobs.reason,
  total: bulkJobs.total,
  done: bulkJobs.done,
  failed: bulkJobs.failed,
  createdBy: bulkJobs.createdBy,
  createdAt: bulkJobs.createdAt,
  updatedAt: bulkJobs.updatedAt,
  // Spelled out: drizzle leaves columns of a one-table select unqualified. Each item carries the number
  // and SIM of its line (an import row: the ones it names), so the page reads numbers, not ids; the
  // line is found by primary key only when the target is a uuid ("row 3" is an import row).
  items: sql<
    BulkJob["items"] | null
  >`(select jsonb_agg(jsonb_build_object('position', i.position, 'targetId', i.target_id, 'status', i.status, 'error', i.error,
      'msisdn', coalesce(l.msisdn, i.data->>'msisdn'), 'iccid', coalesce(l.iccid, i.data->>'iccid')) order by i.position)
    from bulk_job_items i
    left join lines l on l.id = (case when i.target_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then i.target_id::uuid end) and l.operator_code = bulk_jobs.operator_code
    where i.job_id = bulk_jobs.id)`,
};

export type BulkJobRow = Omit<typeof bulkJobs.$inferSelect, "params" | "createdByRole"> & {
  items: BulkJob["items"] | null;
};

export const toBulkJob = (row: BulkJobRow): BulkJob => ({
  id: row.id,
  kind: row.kind as BulkJob["kind"],
  status: row.status as BulkJob["status"],
  reason: row.reason,
  total: row.total,
  done: row.done,
  failed: row.failed,
  createdBy: row.createdBy,
  items: row.items ?? [],
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
});

/** Stops a queued or running job: the items not reached yet are cancelled; those done stay done. */
export const cancelBulkJob: ActionHandler<BulkJobRow> = {
  async run(ctx) {
    await ctx.tx
      .update(bulkJobs)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(eq(bulkJobs.id, ctx.row.id));
    await ctx.tx
      .update(bulkJobItems)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(and(eq(bulkJobItems.jobId, ctx.row.id), eq(bulkJobItems.status, "pending")));
  },
};

/** The operator's bulk jobs, for its staff; created by the module's own route (it queues the background work). */
export const bulkJobsModule: DomainModule<BulkJobRow> = {
  source: tableSource({
    table: bulkJobs,
    selection,
    columns: { createdAt: bulkJobs.createdAt, status: bulkJobs.status, kind: bulkJobs.kind },
    toRecord: toBulkJob,
  }),
  extraRoutes: bulkJobRoutes,
};
