import type { EngineServices } from "../engine/services";
import type { JobDefinition } from "../jobs/jobQueue";

/**
 * Every background job of the domain, bound to the app's services: the cron sweeps that carry out
 * what is due (scheduled orders, expiries, billing cycles) and the one-off jobs domain code sends.
 * A job's work is idempotent: a sweep that runs twice, or after a crash, does each thing once.
 */
export function domainJobs(_services: EngineServices): JobDefinition<any>[] {
  return [];
}
