import { and, asc, desc, eq, lt } from "drizzle-orm";
import type { Executor } from "../../audit";
import { invoiceCharges, invoices, ledgerEntries, lines, type InvoiceItem } from "../schema";
import type { AccountSeed, OperatorSeed } from "./demoData";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addMonths = (date: Date, months: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));

/** Tax in minor units, half up: 825 bps of 6500 is 536.25 → 536. */
export const taxOf = (subtotal: number, rateBps: number) => Math.floor((subtotal * rateBps + 5_000) / 10_000);

/**
 * The money history of a newly created demo account, in the seed's transaction: prepaid top-ups and
 * charges (the ledger's trigger keeps the balance), postpaid bills of past cycles with their plan
 * charges billed. Runs once per account (the seed creates each account once).
 */
export async function seedAccountMoney(
  tx: Executor,
  seed: OperatorSeed,
  account: AccountSeed,
  accountId: string,
  plan: { name: string; priceAmount: number },
  now = new Date(),
) {
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
    const dueOn = overdue
      ? new Date(today.getTime() - 2 * DAY_MS)
      : new Date(issued.getTime() + (seed.settings?.billDueDays ?? 14) * DAY_MS);
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
    const items: InvoiceItem[] = [
      { label: "plan", description: `${plan.name}: monthly plan`, amount: plan.priceAmount, ledgerEntryId: charge!.id },
    ];
    if (bill.overage) {
      // As the rating posts it (contract): a postpaid charge referenced "overage", "<lineId>:<usageType>:<zone>".
      const [line] = await tx
        .select({ id: lines.id })
        .from(lines)
        .where(eq(lines.accountId, accountId))
        .orderBy(asc(lines.msisdn))
        .limit(1);
      const [overage] = await tx
        .insert(ledgerEntries)
        .values({
          operatorCode: seed.code,
          accountId,
          kind: "charge",
          amount: bill.overage.amount,
          currency: seed.currency,
          reason: bill.overage.reason,
          actorUid: null,
          actorRole: "system",
          referenceType: "overage",
          referenceId: `${line!.id}:${bill.overage.usageType}:${bill.overage.roamingZone}`,
          createdAt: new Date(periodEnd.getTime() - DAY_MS),
        })
        .returning({ id: ledgerEntries.id });
      items.push({
        label: "overage",
        description: bill.overage.reason,
        amount: bill.overage.amount,
        usageType: bill.overage.usageType,
        roamingZone: bill.overage.roamingZone,
        ledgerEntryId: overage!.id,
      });
    }
    const subtotal = items.reduce((sum, item) => sum + item.amount, 0);
    const tax = taxOf(subtotal, taxRateBps);
    const [previous] = await tx
      .select({ total: invoices.totalAmount })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), lt(invoices.periodStart, isoDay(periodStart))))
      .orderBy(desc(invoices.periodStart))
      .limit(1);
    const [invoice] = await tx
      .insert(invoices)
      .values({
        operatorCode: seed.code,
        accountId,
        number: `${seed.code}-${isoDay(issued).replaceAll("-", "")}-${accountId.slice(0, 8).toUpperCase()}`,
        periodStart: isoDay(periodStart),
        periodEnd: isoDay(periodEnd),
        currency: seed.currency,
        items,
        subtotalAmount: subtotal,
        taxAmount: tax,
        totalAmount: subtotal + tax,
        paidAmount: overdue ? 0 : subtotal + tax,
        previousTotalAmount: previous?.total ?? null,
        taxRateBps,
        status: bill.status,
        issuedAt: issued,
        dueOn: isoDay(dueOn),
        paidAt: overdue ? null : new Date(issued.getTime() + 5 * DAY_MS),
        createdAt: issued,
        updatedAt: issued,
      })
      .returning({ id: invoices.id });
    await tx
      .insert(invoiceCharges)
      .values(items.map((item) => ({ ledgerEntryId: item.ledgerEntryId!, invoiceId: invoice!.id })));
  }
}
