import { and, eq } from "drizzle-orm";
import type { Executor } from "../../audit";
import { lines } from "../../db/schema";
import { postLedgerEntry } from "../money/ledger";
import { prorate, quotePlanChange } from "../plans/proration";
import { cycleStartOf } from "../usage/cycles";

/** The part of a plan's price from today to the end of the line's cycle: what a line activated today first pays. */
export function firstChargeQuote(price: number, cycleDay: number, now = new Date()) {
  const quote = quotePlanChange(0, price, cycleDay, now);
  return {
    amount: quote.charge,
    days: quote.remainingDays,
    cycleDays: quote.cycleDays,
    cycleStart: quote.cycleStart,
    cycleEnd: quote.cycleEnd,
  };
}

/**
 * A line starts to be billed when it is activated (issue 28), never while pending. The cycle it is
 * activated in is charged prorated, from today to its cycle end, through the ledger: prepaid, from
 * the balance as a renewal (422 with the shortfall when it is short), and that cycle counts as
 * renewed; postpaid, an unbilled charge of the next bill (whose close skips a line activated during
 * the period it bills, billing.ts). Keyed by the line: posted once whatever retries.
 */
export async function activateAndCharge(
  tx: Executor,
  line: {
    id: string;
    operatorCode: string;
    accountId: string;
    accountType: "prepaid" | "postpaid";
    msisdn: string;
    cycleDay: number;
    plan: { name: string; priceAmount: number; currency: string };
  },
  actor: { uid: string | null; role: string },
  now = new Date(),
): Promise<{ amount: number; currency: string }> {
  const quote = firstChargeQuote(line.plan.priceAmount, line.cycleDay, now);
  if (quote.amount > 0) {
    await postLedgerEntry(tx, {
      operatorCode: line.operatorCode,
      accountId: line.accountId,
      kind: line.accountType === "prepaid" ? "renewal" : "charge",
      amount: quote.amount,
      currency: line.plan.currency,
      reason: `${line.plan.name}, first ${quote.days} of ${quote.cycleDays} days (${line.msisdn})`,
      actorUid: actor.uid,
      actorRole: actor.role,
      idempotencyKey: `first-charge:${line.id}`,
      reference: { type: "line", id: line.id },
    });
  }
  await tx
    .update(lines)
    .set({
      status: "active",
      activatedAt: now,
      renewedCycleStart: line.accountType === "prepaid" ? cycleStartOf(now, line.cycleDay) : null,
      updatedAt: now,
    })
    .where(and(eq(lines.id, line.id)));
  return { amount: quote.amount, currency: line.plan.currency };
}

/**
 * What ending a line settles for its plan (issue 28 item 4). `now`: the line stops today.
 * Prepaid paid its cycle ahead: the days after today come back to the balance (none when the cycle was
 * not paid: in grace, or not yet renewed). Postpaid is billed after the cycle: the days used so far
 * are charged, as the close of a cycle skips a terminated line; a line activated this cycle paid its
 * remaining days at activation, so it is credited the days after today instead.
 * `cycle-end`: the line ends as its new cycle starts: nothing for the plan, except a prepaid renewal
 * taken for that new cycle, given back.
 */
export function finalSettlement(
  line: {
    accountType: "prepaid" | "postpaid";
    status: string;
    cycleDay: number;
    renewedCycleStart: string | null;
    createdAt: Date;
    activatedAt: Date | null;
    priceAmount: number;
  },
  mode: "now" | "cycle-end",
  now = new Date(),
): { kind: "charge" | "credit" | "none"; amount: number; days: number; cycleDays: number } {
  const quote = quotePlanChange(0, line.priceAmount, line.cycleDay, now);
  const none = { kind: "none" as const, amount: 0, days: 0, cycleDays: quote.cycleDays };
  if (line.status === "pending" || line.status === "terminated") return none;
  const unusedDays = mode === "now" ? quote.remainingDays - 1 : quote.remainingDays;
  if (line.accountType === "prepaid") {
    const paid = line.renewedCycleStart ?? cycleStartOf(line.createdAt, line.cycleDay);
    if (line.status === "grace" || paid < quote.cycleStart || unusedDays <= 0) return none;
    const amount = prorate(line.priceAmount, unusedDays, quote.cycleDays);
    return amount > 0 ? { kind: "credit", amount, days: unusedDays, cycleDays: quote.cycleDays } : none;
  }
  if (mode === "cycle-end") return none;
  const activatedThisCycle =
    line.activatedAt !== null && line.activatedAt.getTime() >= Date.parse(`${quote.cycleStart}T00:00:00Z`);
  if (activatedThisCycle) {
    const amount = prorate(line.priceAmount, unusedDays, quote.cycleDays);
    return amount > 0 ? { kind: "credit", amount, days: unusedDays, cycleDays: quote.cycleDays } : none;
  }
  const usedDays = quote.cycleDays - quote.remainingDays + 1;
  const amount = prorate(line.priceAmount, usedDays, quote.cycleDays);
  return amount > 0 ? { kind: "charge", amount, days: usedDays, cycleDays: quote.cycleDays } : none;
}
