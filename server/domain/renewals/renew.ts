import { and, asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../audit";
import { accounts, lines, operators, plans } from "../../db/schema";
import { planFeeFor } from "../plans/priceChange";
import { cycleStartOf, nextCycleStart } from "../usage/cycles";

// Prepaid renewals (issue 24): on its cycle day a prepaid line's plan renews from the account's
// balance, as a `renewal` ledger entry keyed `renewal:<line>:<cycle start>` (the ledger's unique key:
// one charge per line and cycle whatever runs it, twice, after a crash or in a race). A balance short
// of the price puts the line in `grace` for GRACE_DAYS; a credit that covers it renews at once
// (renewAfterCredit.ts); the end of grace suspends it (non_payment) until a credit covers it.

/** Days a prepaid line stays in grace after its balance could not renew it. */
export const GRACE_DAYS = 7;
/** Days before a renewal that the holder is told when the balance will not cover it. */
export const REMINDER_DAYS = 3;

const DAY_MS = 86_400_000;
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** What a renewal needs to know of a line, its plan and its account. */
export const renewalSelection = {
  id: lines.id,
  operatorCode: lines.operatorCode,
  accountId: lines.accountId,
  msisdn: lines.msisdn,
  status: lines.status,
  suspendReason: lines.suspendReason,
  cycleDay: lines.cycleDay,
  renewedCycleStart: lines.renewedCycleStart,
  graceEndsOn: lines.graceEndsOn,
  renewalRemindedFor: lines.renewalRemindedFor,
  createdAt: lines.createdAt,
  planName: plans.name,
  priceAmount: plans.priceAmount,
  pendingPriceAmount: plans.pendingPriceAmount,
  priceChangedAt: plans.priceChangedAt,
  currency: operators.currency,
  ownerUid: accounts.ownerUid,
};
export type RenewalLine = {
  id: string;
  operatorCode: string;
  accountId: string;
  msisdn: string;
  status: string;
  suspendReason: string | null;
  cycleDay: number;
  renewedCycleStart: string | null;
  graceEndsOn: string | null;
  renewalRemindedFor: string | null;
  createdAt: Date;
  planName: string;
  priceAmount: number;
  pendingPriceAmount: number | null;
  priceChangedAt: Date | null;
  currency: string;
  ownerUid: string | null;
};

/** The prepaid lines of an account (or of the given accounts, or the given lines), locked, with their plan and holder, by number. */
export async function lockRenewalLines(
  tx: Executor,
  where: { accountId?: string; accountIds?: string[]; lineIds?: string[]; statuses?: string[] },
): Promise<RenewalLine[]> {
  return await tx
    .select(renewalSelection)
    .from(lines)
    .innerJoin(accounts, eq(accounts.id, lines.accountId))
    .innerJoin(plans, eq(plans.id, lines.planId))
    .innerJoin(operators, eq(operators.code, lines.operatorCode))
    .where(
      and(
        eq(accounts.type, "prepaid"),
        where.accountId ? eq(lines.accountId, where.accountId) : undefined,
        where.accountIds ? inArray(lines.accountId, where.accountIds) : undefined,
        where.lineIds ? inArray(lines.id, where.lineIds) : undefined,
        where.statuses ? inArray(lines.status, where.statuses as never[]) : undefined,
      ),
    )
    .orderBy(lines.msisdn)
    .for("update", { of: lines });
}

/** The start of the last cycle paid for: recorded by the last renewal, else the cycle the line was created in (its activation paid it). */
export const paidCycleOf = (line: Pick<RenewalLine, "renewedCycleStart" | "createdAt" | "cycleDay">) =>
  line.renewedCycleStart ?? cycleStartOf(line.createdAt, line.cycleDay);

/**
 * The cycle a line renews on `day` (YYYY-MM-DD): the one `day` falls in, when it is not paid yet;
 * null otherwise. Only the cycle of the day: a cycle the line spent suspended, or a day the job did
 * not run and then some, is never charged after the fact (the line had no service, or the run catches
 * up the current cycle, which is the one the line uses).
 */
export function cycleDueOn(
  line: Pick<RenewalLine, "renewedCycleStart" | "createdAt" | "cycleDay">,
  day: string,
): string | null {
  const cycle = cycleStartOf(new Date(`${day}T00:00:00Z`), line.cycleDay);
  return cycle > paidCycleOf(line) ? cycle : null;
}

/** The cycle a line in grace waits to renew: the one it entered grace in (GRACE_DAYS before its grace ends). */
export const graceCycleOf = (line: Pick<RenewalLine, "graceEndsOn" | "cycleDay">) =>
  cycleStartOf(new Date(`${addDays(line.graceEndsOn!, -GRACE_DAYS)}T00:00:00Z`), line.cycleDay);

/**
 * The cycle a credit renews: for a line in grace, the cycle it waits for; for a line suspended after
 * its grace, the cycle it is in now (a suspended line owes no month it could not use), never one
 * already paid.
 */
export function cycleToRenewOnCredit(line: RenewalLine, now: Date): string {
  if (line.status === "grace") return graceCycleOf(line);
  const current = cycleStartOf(now, line.cycleDay);
  const next = nextCycleStart(paidCycleOf(line));
  return current > next ? current : next;
}

/** The plan's price for the cycle starting on `cycleStart` (a price change reaches it from its next cycle start). */
export const renewalPriceOf = (line: RenewalLine, cycleStart: string) => planFeeFor(line, line.cycleDay, cycleStart);

/**
 * The balances of the given accounts, their rows locked in id order (the order every batch takes
 * them, so two never wait on each other in a circle), before any of their lines.
 */
export async function lockAccountBalances(tx: Executor, accountIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx
    .select({ id: accounts.id, balance: accounts.balanceAmount })
    .from(accounts)
    .where(inArray(accounts.id, [...accountIds]))
    .orderBy(asc(accounts.id))
    .for("update");
  return new Map(rows.map((row) => [row.id, row.balance]));
}

/** The account's balance, read under the caller's lock of its lines (postLedgerEntry locks the account row). */
export async function balanceOf(tx: Executor, accountId: string): Promise<number> {
  const [account] = await tx
    .select({ balance: accounts.balanceAmount })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for("update");
  return account?.balance ?? 0;
}
