import type { Executor } from "../../audit";
import { invoiceCharges, invoices, ledgerEntries } from "../schema";
import type { AccountSeed, OperatorSeed } from "./demoData";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addMonths = (date: Date, months: number) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));

/** Tax in minor units, half up: 825 bps of 6500 is 536.25 → 536. */
export const taxOf = (subtotal: number, rateBps: number) => Math.floor((subtotal * rateBps + 5_000) / 10_000);

/**
 * The money history of a newly created demo account, in the seed's transaction: prepaid top-ups and
 * charges (the ledger's trigger keeps the balance), postpaid bills of past cycles with their plan
 * charges billed. Runs once per account (the seed creates each account once).
 */
export async function seedAccountMoney(tx: Executor, seed: OperatorSeed, account: AccountSeed, accountId: string, plan: { name: string; priceAmount: number }, now = new Date()) {
  for (const entry of account.ledger ?? []) {
    await tx.insert(ledgerEntries).values({
      operatorCode: seed.code,
      accountId,
      kind: entry.kind,
      amount: entry.amount,
      currency: seed.currency,
      reason: entry.reason,
      actorUid: null,
      actorRole: "system",
      createdAt: new Date(now.getTime() - entry.daysAgo * DAY_MS),
    });
  }
  if (!account.invoices?.length) return;
  const cycleDay = account.lines[0]!.cycleDay;
  const taxRateBps = seed.settings?.taxRateBps ?? 0;
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  // The last cycle day at least 3 days back, so its bill can already be overdue.
  let lastIssue = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), cycleDay));
  while (lastIssue.getTime() > today.getTime() - 3 * DAY_MS) lastIssue = addMonths(lastIssue, -1);

  for (const bill of account.invoices) {
    const issued = addMonths(lastIssue, -bill.cyclesAgo);
    const periodStart = addMonths(issued, -1);
    const periodEnd = new Date(issued.getTime() - DAY_MS);
    const overdue = bill.status === "overdue";
    // An overdue demo bill fell due two days ago: inside the grace period, so the line is still active.
    const dueOn = overdue ? new Date(today.getTime() - 2 * DAY_MS) : new Date(issued.getTime() + (seed.settings?.billDueDays ?? 14) * DAY_MS);
    const [charge] = await tx
      .insert(ledgerEntries)
      .values({
        operatorCode: seed.code,
        accountId,
        kind: "charge",
        amount: plan.priceAmount,
        currency: seed.currency,
        reason: `${plan.name}: monthly plan`,
        actorUid: null,
        actorRole: "system",
        createdAt: periodStart,
      })
      .returning({ id: ledgerEntries.id });
    const tax = taxOf(plan.priceAmount, taxRateBps);
    const [invoice] = await tx
      .insert(invoices)
      .values({
        operatorCode: seed.code,
        accountId,
        number: `${seed.code}-${isoDay(issued).replaceAll("-", "")}-${accountId.slice(0, 8).toUpperCase()}`,
        periodStart: isoDay(periodStart),
        periodEnd: isoDay(periodEnd),
        currency: seed.currency,
        items: [{ label: "invoices.items.planFee", description: `${plan.name}: monthly plan`, amount: plan.priceAmount, ledgerEntryId: charge!.id }],
        subtotalAmount: plan.priceAmount,
        taxAmount: tax,
        totalAmount: plan.priceAmount + tax,
        taxRateBps,
        status: bill.status,
        issuedAt: issued,
        dueOn: isoDay(dueOn),
        paidAt: overdue ? null : new Date(issued.getTime() + 5 * DAY_MS),
        createdAt: issued,
        updatedAt: issued,
      })
      .returning({ id: invoices.id });
    await tx.insert(invoiceCharges).values({ ledgerEntryId: charge!.id, invoiceId: invoice!.id });
  }
}
