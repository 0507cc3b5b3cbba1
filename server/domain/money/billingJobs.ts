import { operators } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import type { JobDefinition } from "../../jobs/jobQueue";
import { publishAfterCommit } from "../../live/eventBus";
import { runBillingDay } from "../billingRuns/run";
import { accountRanges } from "../billingRuns/accountRanges";
import { runAutopay } from "../invoicePayments/autopay";
import { suspendForNonPayment } from "../invoicePayments/nonPayment";
import type { ResourceEvent } from "#resources/events";

async function publish(services: EngineServices, events: Omit<ResourceEvent, "at">[]) {
  const log = { error: (obj: unknown, msg?: string) => console.error(msg ?? "live event not sent", obj) };
  for (const event of events)
    await publishAfterCommit(services.events, log, { ...event, at: new Date().toISOString() });
}

/** The daily job's parts: each a slice of the account ids (accountRanges.ts), run as a job of its own. */
export const BILLING_DAY_PARTS = 16;
export const BILLING_DAY_JOB = "billing.run-day";
export const BILLING_DAY_PART_JOB = "billing.run-day-part";

/** A part of an operator's day: the accounts of one slice of ids. */
export type BillingDayPart = {
  operatorCode: string;
  asOf: string;
  part: number;
  parts: number;
};

/**
 * The carrier's day runs every day shortly after midnight UTC (`billing.run-day`), for each operator:
 * the same code as `POST /billing-runs` and `npm run cycle:close` (server/domain/billingRuns/run.ts):
 * prepaid renewals due (auto top-up first), grace endings, each postpaid account's cycle close on its
 * cycle day (a day missed while no backend ran is caught up), bills past due become overdue, add-on
 * renewals. Idempotent: a second run of the day, or the admin's run of it, changes nothing.
 *
 * Through the job queue in parallel (issue 30): the day job only shares the day out, as
 * BILLING_DAY_PARTS jobs `billing.run-day-part`, one per slice of account ids, and every backend
 * runs two of them at once. A part runs the whole day (in its order) for its accounts only, so a
 * line's add-ons still renew after its plan. A part that fails or whose backend dies is retried on
 * its own, and finds only its accounts still due; the parts done stay done. Each part keeps its
 * counters as its job's output.
 */
export function billingJobs(services: EngineServices): JobDefinition[] {
  return [
    {
      name: BILLING_DAY_JOB,
      cron: "10 0 * * *",
      /** `asOf`: another day than today (the daily-job bench; the cron sends nothing). */
      async run(data: { asOf?: string }) {
        const asOf = data.asOf ?? new Date().toISOString().slice(0, 10);
        const all = await services.db.select({ code: operators.code }).from(operators);
        // One operator's failure does not hold the others' day back; the job fails (and is retried: the run is idempotent).
        const failed: unknown[] = [];
        for (const operator of all) {
          if (!services.jobs) {
            // No queue on this instance (a script, a test): the day runs here, in one go.
            await runBillingDay(services, { operatorCode: operator.code, asOf }).catch((error: unknown) => {
              console.error(`billing day of ${operator.code} failed`, error);
              failed.push(error);
            });
            continue;
          }
          // Sent again (the day job retried after a failure), a part finds nothing left to do.
          for (let part = 0; part < BILLING_DAY_PARTS; part++)
            await services.jobs.send(BILLING_DAY_PART_JOB, {
              operatorCode: operator.code,
              asOf,
              part,
              parts: BILLING_DAY_PARTS,
            } satisfies BillingDayPart);
        }
        if (failed.length) throw failed[0];
      },
    },
    {
      name: BILLING_DAY_PART_JOB,
      workers: 2,
      // A part at 10M accounts is ~130 s on this machine (docs/scale.md); a lost one is retried after this.
      expireInSeconds: 3600,
      async run(data: BillingDayPart) {
        const range = accountRanges(data.parts)[data.part];
        if (!range) throw new Error(`No part ${data.part} of ${data.parts}`);
        // Two parts at once on each backend, two pages at once in each: the pool's share of the old four.
        return runBillingDay(services, {
          operatorCode: data.operatorCode,
          asOf: data.asOf,
          accounts: range,
          pagesAtOnce: 2,
        });
      },
    },
    {
      // Overdue past the operator's grace days: the account's active lines are suspended (non_payment).
      name: "payments.suspend-non-payment",
      cron: "30 0 * * *",
      async run() {
        await publish(services, (await suspendForNonPayment(services.db)).events);
      },
    },
    {
      // Autopay: new bills, and retries of failed payments on the backoff, are charged as they fall due.
      name: "payments.autopay",
      cron: "* * * * *",
      async run() {
        await publish(
          services,
          (await runAutopay(services.db, services.payments, { billPaymentGateway: services.billPaymentGateway ?? "" }))
            .events,
        );
      },
    },
  ];
}
