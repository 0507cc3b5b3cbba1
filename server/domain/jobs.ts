import type { EngineServices } from "../engine/services";
import type { JobDefinition } from "../jobs/jobQueue";
import { billingJobs } from "./money/billingJobs";
import { bulkJobDefinitions } from "./bulkJobs/runner";
import { runDuePlanChanges, SCHEDULED_PLAN_CHANGES_JOB } from "./plans/scheduledChanges";

/**
 * Every background job of the domain, bound to the app's services: the cron sweeps that carry out
 * what is due (scheduled orders, expiries, billing cycles) and the one-off jobs domain code sends.
 * A job's work is idempotent: a sweep that runs twice, or after a crash, does each thing once.
 */
export function domainJobs(services: EngineServices): JobDefinition<any>[] {
  return [
    ...billingJobs(services),
    ...bulkJobDefinitions(services),
    // Next-cycle plan changes: the orders table holds the schedule; every minute the due ones run.
    { name: SCHEDULED_PLAN_CHANGES_JOB, cron: "* * * * *", run: async () => void (await runDuePlanChanges(services.db, services.events)) },
  ];
}
