import { operators } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import type { JobDefinition } from "../../jobs/jobQueue";
import { publishAfterCommit } from "../../live/eventBus";
import { closeCycles, markOverdueBills, type IssuedBill } from "./billing";
import { runAutopay } from "../invoicePayments/autopay";
import { suspendForNonPayment } from "../invoicePayments/nonPayment";
import type { ResourceEvent } from "../../../src/resources/events";

async function publish(services: EngineServices, events: Omit<ResourceEvent, "at">[]) {
  const log = { error: (obj: unknown, msg?: string) => console.error(msg ?? "live event not sent", obj) };
  for (const event of events) await publishAfterCommit(services.events, log, { ...event, at: new Date().toISOString() });
}

/** Live events for bills a job wrote (the holders' and staff's lists refresh). */
async function announce(services: EngineServices, bills: IssuedBill[], type: "created" | "updated") {
  const log = { error: (obj: unknown, msg?: string) => console.error(msg ?? "live event not sent", obj) };
  for (const bill of bills) {
    await publishAfterCommit(services.events, log, { operator: bill.operatorCode, resource: "invoices", type, ids: [bill.invoiceId], ownerUids: bill.ownerUid ? [bill.ownerUid] : [], at: new Date().toISOString() });
  }
}

/**
 * Billing runs every day shortly after midnight UTC: each account's cycle closes on its cycle day
 * (a day missed while no backend ran is caught up: the last cycle without a bill is billed), then
 * bills past their due date become overdue.
 */
export function billingJobs(services: EngineServices): JobDefinition[] {
  return [
    {
      name: "billing.close-cycles",
      cron: "10 0 * * *",
      async run() {
        const all = await services.db.select({ code: operators.code }).from(operators);
        for (const operator of all) await announce(services, (await closeCycles(services.db, { operatorCode: operator.code })).issued, "created");
      },
    },
    {
      name: "billing.mark-overdue",
      cron: "20 0 * * *",
      async run() {
        await announce(services, await markOverdueBills(services.db), "updated");
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
        await publish(services, (await runAutopay(services.db, services.payments, { billPaymentGateway: services.billPaymentGateway ?? "" })).events);
      },
    },
  ];
}
