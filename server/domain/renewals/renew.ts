import { and, eq, inArray } from "drizzle-orm";
import type { NotificationKind } from "#resources/notifications";
import type { ResourceEvent } from "#resources/events";
import { recordAudit, type Executor } from "../../audit";
import { accounts, lines, notifications, operators, plans } from "../../db/schema";
import { postLedgerEntry } from "../money/ledger";
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

/** The prepaid lines of an account (or the given lines), locked, with their plan and holder. */
export async function lockRenewalLines(
  tx: Executor,
  where: { accountId?: string; lineIds?: string[]; statuses?: string[] },
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

/** The account's balance, read under the caller's lock of its lines (postLedgerEntry locks the account row). */
export async function balanceOf(tx: Executor, accountId: string): Promise<number> {
  const [account] = await tx
    .select({ balance: accounts.balanceAmount })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for("update");
  return account?.balance ?? 0;
}

/** Everything a renewal step wrote that the caller announces after its commit. */
export interface RenewalEffects {
  events: Omit<ResourceEvent, "at">[];
}

export async function notifyHolder(
  tx: Executor,
  line: RenewalLine,
  kind: NotificationKind,
  params: Record<string, string | number>,
  effects: RenewalEffects,
) {
  if (!line.ownerUid) return;
  const [row] = await tx
    .insert(notifications)
    .values({
      operatorCode: line.operatorCode,
      recipientUid: line.ownerUid,
      kind,
      params: { msisdn: line.msisdn, planName: line.planName, currency: line.currency, ...params },
      link: `/lines/show/${line.id}`,
    })
    .returning({ id: notifications.id });
  effects.events.push({
    operator: line.operatorCode,
    resource: "notifications",
    type: "created",
    ids: [row!.id],
    ownerUids: [line.ownerUid],
  });
}

const lineEvents = (line: RenewalLine, effects: RenewalEffects) => {
  const ownerUids = line.ownerUid ? [line.ownerUid] : [];
  effects.events.push({ operator: line.operatorCode, resource: "lines", type: "updated", ids: [line.id], ownerUids });
  effects.events.push({ operator: line.operatorCode, resource: "meters", type: "updated", ids: [line.id], ownerUids });
  effects.events.push({
    operator: line.operatorCode,
    resource: "ledger-entries",
    type: "created",
    ids: [line.accountId],
    ownerUids,
  });
};

/**
 * Renews the line's plan for the cycle starting on `cycleStart` from the balance, when the balance
 * covers the price: a `renewal` entry (keyed per line and cycle), the line active again (out of grace,
 * or restored from a non_payment suspension), and its paid cycle moved on. Answers what is missing
 * when the balance is short (nothing is written then). The caller holds the line's lock.
 */
export async function renewIfCovered(
  tx: Executor,
  line: RenewalLine,
  cycleStart: string,
  effects: RenewalEffects,
  how: { reason: string },
): Promise<{ renewed: true; price: number } | { renewed: false; price: number; missing: number }> {
  const price = renewalPriceOf(line, cycleStart);
  const balance = await balanceOf(tx, line.accountId);
  if (price > balance) return { renewed: false, price, missing: price - balance };
  if (price > 0) {
    await postLedgerEntry(tx, {
      operatorCode: line.operatorCode,
      accountId: line.accountId,
      kind: "renewal",
      amount: price,
      currency: line.currency,
      reason: `${line.planName}, cycle from ${cycleStart} (${line.msisdn})`,
      actorUid: null,
      actorRole: "system",
      idempotencyKey: `renewal:${line.id}:${cycleStart}`,
      reference: { type: "line", id: line.id },
    });
  }
  const before = { status: line.status, suspendReason: line.suspendReason, graceEndsOn: line.graceEndsOn };
  await tx
    .update(lines)
    .set({
      status: "active",
      suspendReason: null,
      graceEndsOn: null,
      renewedCycleStart: cycleStart,
      updatedAt: new Date(),
    })
    .where(eq(lines.id, line.id));
  if (line.status !== "active") {
    await recordAudit(tx, {
      operator: line.operatorCode,
      actorUid: null,
      actorRole: "system",
      action: line.status === "suspended" ? "lines.restore" : "lines.renew",
      targetType: "lines",
      targetId: line.id,
      before,
      after: { status: "active", suspendReason: null, graceEndsOn: null },
      reason: how.reason,
      requestId: null,
    });
  }
  line.status = "active";
  line.suspendReason = null;
  line.graceEndsOn = null;
  line.renewedCycleStart = cycleStart;
  await notifyHolder(tx, line, "line.renewed", { amount: price, date: cycleStart }, effects);
  lineEvents(line, effects);
  return { renewed: true, price };
}

/** The line enters grace: its renewal for `cycleStart` waits for a top-up until `graceEndsOn`. */
export async function enterGrace(
  tx: Executor,
  line: RenewalLine,
  cycleStart: string,
  asOf: string,
  missing: number,
  effects: RenewalEffects,
) {
  const graceEndsOn = addDays(asOf, GRACE_DAYS);
  await tx.update(lines).set({ status: "grace", graceEndsOn, updatedAt: new Date() }).where(eq(lines.id, line.id));
  await recordAudit(tx, {
    operator: line.operatorCode,
    actorUid: null,
    actorRole: "system",
    action: "lines.grace",
    targetType: "lines",
    targetId: line.id,
    before: { status: line.status, graceEndsOn: null },
    after: { status: "grace", graceEndsOn },
    reason: `the balance is short by ${missing} (minor units) of the renewal of the cycle from ${cycleStart}`,
    requestId: null,
  });
  line.status = "grace";
  line.graceEndsOn = graceEndsOn;
  await notifyHolder(
    tx,
    line,
    "line.grace_entered",
    { amount: renewalPriceOf(line, cycleStart), missing, date: graceEndsOn },
    effects,
  );
  lineEvents(line, effects);
}

/** Grace ran out unpaid: the line is suspended for non_payment until a credit covers its renewal. */
export async function endGrace(tx: Executor, line: RenewalLine, missing: number, effects: RenewalEffects) {
  await tx
    .update(lines)
    .set({ status: "suspended", suspendReason: "non_payment", graceEndsOn: null, updatedAt: new Date() })
    .where(eq(lines.id, line.id));
  await recordAudit(tx, {
    operator: line.operatorCode,
    actorUid: null,
    actorRole: "system",
    action: "lines.suspend",
    targetType: "lines",
    targetId: line.id,
    before: { status: "grace", suspendReason: null, graceEndsOn: line.graceEndsOn },
    after: { status: "suspended", suspendReason: "non_payment", graceEndsOn: null },
    reason: `prepaid renewal unpaid at the end of the grace period (${line.graceEndsOn})`,
    requestId: null,
  });
  line.status = "suspended";
  line.suspendReason = "non_payment";
  line.graceEndsOn = null;
  await notifyHolder(tx, line, "line.suspended_grace_ended", { missing }, effects);
  lineEvents(line, effects);
}
