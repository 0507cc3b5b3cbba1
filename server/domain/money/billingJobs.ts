import { operators } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import type { JobDefinition } from "../../jobs/jobQueue";
import { publishAfterCommit } from "../../live/eventBus";
import { runBillingDay } from "../billingRuns/run";
import { runAutopay } from "../invoicePayments/autopay";
import { suspendForNonPayment } from "../invoicePayments/nonPayment";
import type { ResourceEvent } from "#resources/events";

async function publish(services: EngineServices, events: Omit<ResourceEvent, "at">[]) {
  const log = { error: (obj: unknown, msg?: string) => console.error(msg ?? "live event not sent", obj) };
  for (const event of events)
    await publishAfterCommit(services.events, log, { ...event, at: new Date().toISOString() });
}

/**
 * The carrier's day runs every day shortly after midnight UTC (`billing.run-day`), for each operator:
 * the same code as `POST /billing-runs` and `npm run cycle:close` (server/domain/billingRuns/run.ts):
 * prepaid renewals due (auto top-up first), grace endings, each postpaid account's cycle close on its
 * cycle day (a day missed while no backend ran is caught up), bills past due become overdue, add-on
 * renewals. Idempotent: a second run of the day, or the admin's run of it, changes nothing.
 */
export function billingJobs(services: EngineServices): JobDefinition[] {
  return [
    {
      name: "billing.run-day",
      cron: "10 0 * * *",
      async run() {
        const asOf = new Date().toISOString().slice(0, 10);
        const all = await services.db.select({ code: operators.code }).from(operators);
        // One operator's failure does not hold the others' day back; the job fails (and is retried: the run is idempotent).
        const failed: unknown[] = [];
        for (const operator of all) {
          try {
            await runBillingDay(services, { operatorCode: operator.code, asOf });
          } catch (error) {
            console.error(`billing day of ${operator.code} failed`, error);
            failed.push(error);
          }
        }
        if (failed.length) throw failed[0];
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
