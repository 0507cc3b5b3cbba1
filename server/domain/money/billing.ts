import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import type { Db } from "../../db/client";
import {
  accountCredits,
  accounts,
  invoiceCharges,
  invoices,
  ledgerEntries,
  lines,
  notifications,
  operators,
  orders,
  plans,
  type InvoiceItem,
} from "../../db/schema";
import { conflict } from "../../errors";
import { words } from "../../i18n/words";
import { taxOf } from "../../db/seed/seedMoney";
import type { ActionHandler } from "../../engine/types";
import type { InvoiceRow } from "../invoices/records";
import { postLedgerEntry } from "./ledger";
import { paymentWaitingFor } from "../invoicePayments/settle";
import { planFeeFor } from "../plans/priceChange";
import { eachInParallel } from "../../lib/eachInParallel";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addMonths = (date: Date, months: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));

/** The billing settings of an operator (operators.settings), with their defaults. */
export function billingSettingsOf(settings: Record<string, unknown> | null | undefined) {
  const int = (value: unknown, fallback: number) =>
    Number.isInteger(value) && (value as number) >= 0 ? (value as number) : fallback;
  return {
    taxRateBps: int(settings?.taxRateBps, 0),
    billDueDays: int(settings?.billDueDays, 14),
    overdueGraceDays: int(settings?.overdueGraceDays, 10),
  };
}

/** The cycle a bill issued on `asOf` closes, for an account whose cycle day is `cycleDay`: it started a month before the last cycle day. */
export function lastClosedCycle(cycleDay: number, asOf: Date) {
  const today = new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate()));
  let issued = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), cycleDay));
  if (issued > today) issued = addMonths(issued, -1);
  return { issued, periodStart: addMonths(issued, -1), periodEnd: new Date(issued.getTime() - DAY_MS) };
}

export interface IssuedBill {
  invoiceId: string;
  accountId: string;
  ownerUid: string | null;
  operatorCode: string;
}

/**
 * Closes the last cycle of every postpaid account of the operator (or of `accountIds`) that has no bill
 * for it yet: posts each line's plan fee for the period (once: keyed by line and period), collects
 * every unbilled charge (plan fees, add-ons, proration, overage), taxes them at the operator's rate,
 * and issues the bill with its due date; the holder is notified. Each account in a transaction of its
 * own, its row locked; the bill's unique (account, period start) makes a second close a no-op, so
 * the daily job, `npm run cycle:close` and a retry after a crash all bill a cycle once.
 */
export async function closeCycles(
  db: Db,
  options: { operatorCode: string; asOf?: Date; accountIds?: string[]; accountsAtOnce?: number },
): Promise<{ issued: IssuedBill[]; skipped: number }> {
  const asOf = options.asOf ?? new Date();
  const [operator] = await db.select().from(operators).where(eq(operators.code, options.operatorCode));
  if (!operator) throw new Error(`No operator ${options.operatorCode}`);
  const settings = billingSettingsOf(operator.settings);
  // Accounts with a line not terminated, or one cancelled lately (its last cycle, or its final
  // prorated charge, is still billed; issue 28). A line still pending is not billed (postPlanFees).
  const recentlyEnded = new Date(asOf.getTime() - 62 * 86_400_000);
  const candidates = await db
    .select({
      id: accounts.id,
      ownerUid: accounts.ownerUid,
      cycleDay: sql<number>`min(${lines.cycleDay})::int`,
      live: sql<number>`(count(*) filter (where ${lines.status} <> 'terminated'))::int`,
      lastEnded: sql<number | null>`extract(epoch from max(${lines.terminatedAt}))::float8`,
    })
    .from(accounts)
    .innerJoin(
      lines,
      and(eq(lines.accountId, accounts.id), or(ne(lines.status, "terminated"), gte(lines.terminatedAt, recentlyEnded))),
    )
    .where(
      and(
        eq(accounts.operatorCode, operator.code),
        eq(accounts.type, "postpaid"),
        ne(accounts.status, "closed"),
        options.accountIds ? inArray(accounts.id, options.accountIds) : undefined,
      ),
    )
    .groupBy(accounts.id, accounts.ownerUid)
    .orderBy(asc(accounts.id));

  const issued: IssuedBill[] = [];
  let skipped = 0;
  // Accounts are independent transactions: the daily job closes a few at once (accountsAtOnce).
  await eachInParallel(candidates, options.accountsAtOnce ?? 1, async (account) => {
    const cycle = lastClosedCycle(account.cycleDay, asOf);
    // Only cancelled lines left: bill the cycle they ended in, and none after it.
    if (!account.live && !(account.lastEnded && Number(account.lastEnded) * 1000 >= cycle.periodStart.getTime())) {
      skipped++;
      return;
    }
    const bill = await db.transaction(async (tx) => {
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, account.id)).for("update");
      const [existing] = await tx
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.accountId, account.id), eq(invoices.periodStart, isoDay(cycle.periodStart))));
      if (existing) return null;
      await postPlanFees(
        tx,
        operator.code,
        operator.currency,
        account.id,
        isoDay(cycle.periodStart),
        isoDay(cycle.periodEnd),
      );
      return issueBill(tx, {
        operatorCode: operator.code,
        currency: operator.currency,
        accountId: account.id,
        ownerUid: account.ownerUid,
        cycle,
        settings,
        asOf,
      });
    });
    if (bill) issued.push(bill);
    else skipped++;
  });
  // In the accounts' order, whichever finished first.
  issued.sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
  return { issued, skipped };
}

/**
 * The plan a line was on when `periodStart` began (00:00 UTC): the plan the first change of plan that
 * took effect after it left (a change now takes effect when made, a next-cycle change at its cycle
 * start), else the line's plan today. A period's fee is the plan it started on, like a prepaid
 * renewal: a change made now during the period is settled by its own proration (credit for the old
 * plan's unused days, charge for the new plan's), so the period is billed old × used days + new ×
 * remaining days, whether the change went up or down.
 */
export async function planAtPeriodStart(
  tx: Executor,
  line: { id: string; planId: string },
  periodStart: string,
): Promise<string> {
  const start = Date.parse(`${periodStart}T00:00:00Z`);
  const changes = await tx
    .select({
      effective: orders.effective,
      scheduledFor: orders.scheduledFor,
      createdAt: orders.createdAt,
      details: orders.details,
    })
    .from(orders)
    .where(and(eq(orders.lineId, line.id), eq(orders.type, "change_plan"), eq(orders.state, "completed")));
  let first: { at: number; fromPlanId: string } | null = null;
  for (const change of changes) {
    const at = (
      change.effective === "next_cycle" && change.scheduledFor ? change.scheduledFor : change.createdAt
    ).getTime();
    const fromPlanId = change.details.fromPlanId;
    if (at <= start || typeof fromPlanId !== "string") continue;
    if (!first || at < first.at) first = { at, fromPlanId };
  }
  return first?.fromPlanId ?? line.planId;
}

/** Each line's plan fee for the period (the plan it started the period on), as a charge posted once (the ledger's key: line and period). */
async function postPlanFees(
  tx: Executor,
  operatorCode: string,
  currency: string,
  accountId: string,
  periodStart: string,
  periodEnd: string,
) {
  const billed = await tx
    .select({ lineId: lines.id, msisdn: lines.msisdn, cycleDay: lines.cycleDay, planId: lines.planId })
    .from(lines)
    .where(
      and(
        eq(lines.accountId, accountId),
        // Billing starts at activation (issue 28): never a pending line, and not the period a line was
        // activated in (its first, prorated charge paid it); a line cancelled after the period ended
        // still owes it (one cancelled during it paid its days used when it was cancelled).
        ne(lines.status, "pending"),
        or(
          ne(lines.status, "terminated"),
          gte(lines.terminatedAt, new Date(Date.parse(`${periodEnd}T00:00:00Z`) + DAY_MS)),
        ),
        or(isNull(lines.activatedAt), lte(lines.activatedAt, new Date(`${periodStart}T00:00:00Z`))),
      ),
    );
  for (const line of billed) {
    if (!line.planId) continue;
    const planId = await planAtPeriodStart(tx, { id: line.lineId, planId: line.planId }, periodStart);
    const [plan] = await tx
      .select({
        planName: plans.name,
        priceAmount: plans.priceAmount,
        pendingPriceAmount: plans.pendingPriceAmount,
        priceChangedAt: plans.priceChangedAt,
      })
      .from(plans)
      .where(eq(plans.id, planId));
    if (!plan) continue;
    // A price change reaches a line from its next cycle start after the change (plans/priceChange.ts).
    const price = planFeeFor(plan, line.cycleDay, periodStart);
    if (price <= 0) continue;
    await postLedgerEntry(tx, {
      operatorCode,
      accountId,
      kind: "charge",
      amount: price,
      currency,
      reason: `${plan.planName}, ${periodStart} to ${periodEnd} (${line.msisdn})`,
      actorUid: null,
      actorRole: "system",
      idempotencyKey: `plan-fee:${line.lineId}:${periodStart}`,
      reference: { type: "line", id: line.lineId },
    });
  }
}

/**
 * What a bill's line is, from the reference of the ledger charge it bills: a line's plan fee
 * ("line"), an add-on bought or renewed (an add_on order, "add_on_purchase"), a plan change's
 * proration (a change_plan order), usage beyond the allowance ("overage", id
 * "<lineId>:<usageType>:<roamingZone or home>", posted by the rating), else other.
 */
export function itemOf(charge: {
  amount: number;
  reason: string;
  referenceType: string | null;
  referenceId: string | null;
  orderType: string | null;
}): Omit<InvoiceItem, "ledgerEntryId"> {
  const base = { description: charge.reason, amount: charge.amount };
  switch (charge.referenceType) {
    case "line":
      return { label: "plan", ...base };
    case "add_on_purchase":
      return { label: "add_on", ...base };
    case "order":
      return {
        label: charge.orderType === "add_on" ? "add_on" : charge.orderType === "change_plan" ? "proration" : "other",
        ...base,
      };
    case "overage": {
      const [, usageType, roamingZone] = (charge.referenceId ?? "").split(":");
      return { label: "overage", ...base, usageType: usageType || "data", roamingZone: roamingZone || "home" };
    }
    default:
      return { label: "other", ...base };
  }
}

async function issueBill(
  tx: Executor,
  bill: {
    operatorCode: string;
    currency: string;
    accountId: string;
    ownerUid: string | null;
    cycle: ReturnType<typeof lastClosedCycle>;
    settings: ReturnType<typeof billingSettingsOf>;
    asOf: Date;
  },
): Promise<IssuedBill | null> {
  // Every charge of the account that no bill has collected yet, and the credits of plan changes made
  // now (a downgrade's unused days of the dearer plan: an `adjustment` referencing its change_plan order).
  const pending = await tx
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      amount: ledgerEntries.amount,
      reason: ledgerEntries.reason,
      referenceType: ledgerEntries.referenceType,
      referenceId: ledgerEntries.referenceId,
      orderType: orders.type,
    })
    .from(ledgerEntries)
    .leftJoin(invoiceCharges, eq(invoiceCharges.ledgerEntryId, ledgerEntries.id))
    .leftJoin(
      orders,
      and(eq(ledgerEntries.referenceType, "order"), sql`${orders.id}::text = ${ledgerEntries.referenceId}`),
    )
    .where(
      and(
        eq(ledgerEntries.accountId, bill.accountId),
        or(
          eq(ledgerEntries.kind, "charge"),
          and(
            eq(ledgerEntries.kind, "adjustment"),
            eq(ledgerEntries.referenceType, "order"),
            eq(orders.type, "change_plan"),
          ),
        ),
        isNull(invoiceCharges.ledgerEntryId),
      ),
    )
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
  const charges = pending.filter((entry) => entry.kind === "charge");
  if (charges.length === 0) return null;
  // Credits come off the charges, oldest first, never below zero: one the bill cannot take waits for the next.
  let room = charges.reduce((sum, charge) => sum + charge.amount, 0);
  const unbilled = pending.flatMap((entry) => {
    if (entry.kind === "charge") return [entry];
    if (entry.amount > room) return [];
    room -= entry.amount;
    return [{ ...entry, amount: -entry.amount }];
  });
  const subtotal = unbilled.reduce((sum, item) => sum + item.amount, 0);
  const tax = taxOf(subtotal, bill.settings.taxRateBps);
  const issuedOn = isoDay(bill.cycle.issued);
  // Overpayments of earlier bills (oldest first) come off this one, after tax; what exceeds it stays a credit.
  const credits = await tx
    .select()
    .from(accountCredits)
    .where(
      and(
        eq(accountCredits.accountId, bill.accountId),
        isNull(accountCredits.appliedInvoiceId),
        isNull(accountCredits.cancelledAt),
      ),
    )
    .orderBy(asc(accountCredits.createdAt))
    .for("update");
  const creditHeld = credits.reduce((sum, c) => sum + c.amount, 0);
  const credit = Math.min(creditHeld, subtotal + tax);
  const total = subtotal + tax - credit;
  const [previous] = await tx
    .select({ total: invoices.totalAmount })
    .from(invoices)
    .where(and(eq(invoices.accountId, bill.accountId), lt(invoices.periodStart, isoDay(bill.cycle.periodStart))))
    .orderBy(desc(invoices.periodStart))
    .limit(1);
  const issuedAt = new Date();
  // Autopay: the bill is paid on issue by the autopay job (server/domain/invoicePayments/autopay.ts).
  const [autopay] = await tx
    .select({ methodId: accounts.autopayPaymentMethodId })
    .from(accounts)
    .where(eq(accounts.id, bill.accountId));
  const [invoice] = await tx
    .insert(invoices)
    .values({
      operatorCode: bill.operatorCode,
      accountId: bill.accountId,
      number: `${bill.operatorCode}-${issuedOn.replaceAll("-", "")}-${bill.accountId.slice(0, 8).toUpperCase()}`,
      periodStart: isoDay(bill.cycle.periodStart),
      periodEnd: isoDay(bill.cycle.periodEnd),
      currency: bill.currency,
      items: unbilled.map((charge) => ({ ...itemOf(charge), ledgerEntryId: charge.id })),
      subtotalAmount: subtotal,
      taxAmount: tax,
      creditAmount: credit,
      totalAmount: total,
      previousTotalAmount: previous?.total ?? null,
      taxRateBps: bill.settings.taxRateBps,
      // A credit that covers it all leaves nothing to pay: the bill is paid as issued.
      status: total === 0 ? "paid" : "issued",
      paidAt: total === 0 ? issuedAt : null,
      issuedAt,
      autopayNextAt: autopay?.methodId && total > 0 ? new Date() : null,
      // A bill issued late (a cycle caught up after a day without backend) still gets its full time to pay.
      dueOn: isoDay(
        new Date(
          Math.max(bill.cycle.issued.getTime(), Date.parse(`${isoDay(bill.asOf)}T00:00:00Z`)) +
            bill.settings.billDueDays * DAY_MS,
        ),
      ),
    })
    .returning({ id: invoices.id, dueOn: invoices.dueOn, number: invoices.number });
  await tx
    .insert(invoiceCharges)
    .values(unbilled.map((charge) => ({ ledgerEntryId: charge.id, invoiceId: invoice!.id })));
  if (credits.length) {
    await tx
      .update(accountCredits)
      .set({ appliedInvoiceId: invoice!.id })
      .where(
        inArray(
          accountCredits.id,
          credits.map((c) => c.id),
        ),
      );
    if (creditHeld > credit) {
      // The part this bill could not use carries over to the next one.
      await tx.insert(accountCredits).values({
        operatorCode: bill.operatorCode,
        accountId: bill.accountId,
        amount: creditHeld - credit,
        currency: bill.currency,
        reason: `Credit left after bill ${invoice!.number}`,
        sourceInvoiceId: invoice!.id,
      });
    }
  }
  if (bill.ownerUid) {
    await tx.insert(notifications).values({
      operatorCode: bill.operatorCode,
      recipientUid: bill.ownerUid,
      kind: "bill.issued",
      params: { total, currency: bill.currency, dueOn: invoice!.dueOn },
      link: `/invoices/show/${invoice!.id}`,
    });
  }
  return {
    invoiceId: invoice!.id,
    accountId: bill.accountId,
    ownerUid: bill.ownerUid,
    operatorCode: bill.operatorCode,
  };
}

/** Bills still issued after their due date become overdue (the holder is told); only `operatorCode`'s when given. Returns those changed. */
export async function markOverdueBills(
  db: Db,
  options: { asOf?: Date; operatorCode?: string } = {},
): Promise<IssuedBill[]> {
  const today = isoDay(options.asOf ?? new Date());
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(invoices)
      .set({ status: "overdue", updatedAt: new Date() })
      .where(
        and(
          eq(invoices.status, "issued"),
          lt(invoices.dueOn, today),
          options.operatorCode ? eq(invoices.operatorCode, options.operatorCode) : undefined,
        ),
      )
      .returning({
        invoiceId: invoices.id,
        accountId: invoices.accountId,
        operatorCode: invoices.operatorCode,
        total: invoices.totalAmount,
        currency: invoices.currency,
      });
    if (changed.length === 0) return [];
    const owners = new Map(
      (
        await tx
          .select({ id: accounts.id, ownerUid: accounts.ownerUid })
          .from(accounts)
          .where(inArray(accounts.id, [...new Set(changed.map((c) => c.accountId))]))
      ).map((a) => [a.id, a.ownerUid]),
    );
    const notices = changed.filter((c) => owners.get(c.accountId));
    if (notices.length) {
      await tx.insert(notifications).values(
        notices.map((c) => ({
          operatorCode: c.operatorCode,
          recipientUid: owners.get(c.accountId)!,
          kind: "bill.overdue" as const,
          params: { total: c.total, currency: c.currency },
          link: `/invoices/show/${c.invoiceId}`,
        })),
      );
    }
    return changed.map((c) => ({
      invoiceId: c.invoiceId,
      accountId: c.accountId,
      operatorCode: c.operatorCode,
      ownerUid: owners.get(c.accountId) ?? null,
    }));
  });
}

/**
 * An admin voids a bill with a reason: it is no longer owed (its charges stay collected by it, so
 * they are never billed again). Not while a card payment of it waits for the gateway: that charge
 * may still be captured, and it would pay a bill that no longer exists (409 until it settles).
 */
export const voidInvoice: ActionHandler<InvoiceRow> = {
  async run(ctx) {
    // The bill's row is locked by the action, and paying locks it too: no payment starts meanwhile.
    if (await paymentWaitingFor(ctx.tx, ctx.row.invoice.id))
      throw conflict(words("invoices.voidWhilePaying"), [
        { path: "status", message: words("invoices.paymentInProgress") },
      ]);
    await ctx.tx
      .update(invoices)
      .set({ status: "void", voidReason: ctx.reason!, updatedAt: new Date() })
      .where(eq(invoices.id, ctx.row.invoice.id));
    if (ctx.row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "bill.voided",
        params: {
          total: ctx.row.invoice.totalAmount,
          currency: ctx.row.invoice.currency,
          number: ctx.row.invoice.number,
          byRole: ctx.principal.role,
        },
        link: `/invoices/show/${ctx.row.invoice.id}`,
      });
    }
  },
};
