import type { EngineServices } from "../engine/services";
import type { JobDefinition } from "../jobs/jobQueue";
import { billingJobs } from "./money/billingJobs";
import { bulkJobDefinitions } from "./bulkJobs/runner";
import { runDuePlanChanges, SCHEDULED_PLAN_CHANGES_JOB } from "./plans/scheduledChanges";
import { ADD_ON_EXPIRY_JOB, runAddOnExpiries } from "./addOns/expiries";
import { deliverOutbox, OUTBOX_DELIVERY_JOB } from "./outbox/deliver";
import { autoTopUpJobs } from "./autoTopUps/run";
import { portInJobs } from "./porting/send";
import { runDueCancellations, SCHEDULED_CANCELLATIONS_JOB } from "./lines/scheduledCancellations";
import { DECLARED_SCHEDULES_JOB, runDeclaredSchedules } from "../generic/declaredSchedules";
import { maintainUsagePartitions } from "./usage/partitions";

/**
 * Every background job of the domain, bound to the app's services: the cron sweeps that carry out
 * what is due (scheduled orders, expiries, billing cycles) and the one-off jobs domain code sends.
 * A job's work is idempotent: a sweep that runs twice, or after a crash, does each thing once.
 */
export function domainJobs(services: EngineServices): JobDefinition<object>[] {
  return [
    ...billingJobs(services),
    ...bulkJobDefinitions(services),
    // Auto top-ups queued by debits (server/domain/autoTopUps): charged through the top-ups path, outside any transaction.
    ...autoTopUpJobs(services),
    // Port-ins queued for the number portability exchange (server/domain/porting): sent, retried while it is down.
    ...portInJobs(services),
    // Next-cycle plan changes: the orders table holds the schedule; every minute the due ones run.
    // Add-ons whose validity ran out: renewed (charged again) or expired; the purchases table is the schedule.
    {
      name: ADD_ON_EXPIRY_JOB,
      cron: "* * * * *",
      run: async () => void (await runAddOnExpiries(services.db, services.events)),
    },
    // Emails and SMS (usage alerts) written by transactions that committed: sent (locally: logged) every minute.
    { name: OUTBOX_DELIVERY_JOB, cron: "* * * * *", run: async () => void (await deliverOutbox(services.db)) },
    {
      name: SCHEDULED_PLAN_CHANGES_JOB,
      cron: "* * * * *",
      run: async () => void (await runDuePlanChanges(services.db, services.events)),
    },
    // Lines cancelled "at cycle end" (issue 28): their terminate orders carry the schedule.
    {
      name: SCHEDULED_CANCELLATIONS_JOB,
      cron: "* * * * *",
      run: async () => void (await runDueCancellations(services.db, services.events)),
    },
    // Declared schedules (issue 29: a travel policy expires after its end day): hourly, so a day's
    // change lands within the hour after midnight UTC, and a missed run is caught up by the next.
    {
      name: DECLARED_SCHEDULES_JOB,
      cron: "7 * * * *",
      run: async () => void (await runDeclaredSchedules(services.db, services.events)),
    },
    // usage_records' and usage_daily's months (issue 30): the next ones made, those past the
    // retention dropped (raw records once billed); after the billing day (00:10), which bills the cycles a drop waits for.
    {
      name: "usage.partitions",
      cron: "20 0 * * *",
      async run() {
        const done = await maintainUsagePartitions(services.db, {
          retentionMonths: services.usageRetentionMonths,
          dailyRetentionMonths: services.usageDailyRetentionMonths,
        });
        const changed = [done.created, done.dropped, done.keptUnbilled, done.daily.created, done.daily.dropped];
        if (changed.some((months) => months.length)) console.info("usage months", done);
      },
    },
  ];
}
