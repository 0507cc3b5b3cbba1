import { and, asc, eq, gt, gte, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rowsOf";
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
} from "../../db/schema";
import { taxOf } from "../../db/seed/seedMoney";
import { eachPageInParallel } from "../../lib/eachInParallel";
import { inAccountRange, type AccountRange } from "../billingRuns/accountRanges";
import { planFeeFor } from "../plans/priceChange";
import { billingSettingsOf, itemOf, lastClosedCycle, type IssuedBill } from "./billing";
import { postLedgerEntries, type BatchLedgerEntry } from "./ledgerBatch";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Accounts closed in one transaction (issue 30: a few statements per page, not per account). */
export const ACCOUNTS_PER_PAGE = 500;

type Operator = { code: string; currency: string; settings: ReturnType<typeof billingSettingsOf> };
type Candidate = { id: string; ownerUid: string | null; cycleDay: number; live: number; lastEnded: number | null };
type Cycle = ReturnType<typeof lastClosedCycle>;

/**
 * Closes the last cycle of every postpaid account of the operator (or of `accountIds`) that has no bill
 * for it yet: posts each line's plan fee for the period (once: keyed by line and period), collects
 * every unbilled charge (plan fees, add-ons, proration, overage), taxes them at the operator's rate,
 * and issues the bill with its due date; the holder is notified. Accounts go by pages of
 * ACCOUNTS_PER_PAGE in id order, each page one transaction with its account rows locked
 * (`pagesAtOnce` pages at once); the bill's unique (account, period start) makes a second close a
 * no-op, so the daily job, `npm run cycle:close` and a retry after a crash all bill a cycle once.
 */
export async function closeCycles(
  db: Db,
  options: {
    operatorCode: string;
    asOf?: Date;
    accountIds?: string[];
    /** Only the accounts of this slice of ids (a part of the daily job, billingJobs.ts). */
    accounts?: AccountRange;
    pagesAtOnce?: number;
    accountsPerPage?: number;
  },
): Promise<{ issued: IssuedBill[]; skipped: number }> {
  const asOf = options.asOf ?? new Date();
  const [row] = await db.select().from(operators).where(eq(operators.code, options.operatorCode));
  if (!row) throw new Error(`No operator ${options.operatorCode}`);
  const operator: Operator = { code: row.code, currency: row.currency, settings: billingSettingsOf(row.settings) };
  // Accounts with a line not terminated, or one cancelled lately (its last cycle, or its final
  // prorated charge, is still billed; issue 28). A line still pending is not billed (plan fees below).
  const recentlyEnded = new Date(asOf.getTime() - 62 * DAY_MS);
  const nextPage = (last: Candidate | undefined) =>
    db
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
        and(
          eq(lines.accountId, accounts.id),
          or(ne(lines.status, "terminated"), gte(lines.terminatedAt, recentlyEnded)),
        ),
      )
      .where(
        and(
          eq(accounts.operatorCode, operator.code),
          eq(accounts.type, "postpaid"),
          ne(accounts.status, "closed"),
          options.accountIds ? inArray(accounts.id, options.accountIds) : undefined,
          inAccountRange(accounts.id, options.accounts),
          last ? gt(accounts.id, last.id) : undefined,
        ),
      )
      .groupBy(accounts.id, accounts.ownerUid)
      .orderBy(asc(accounts.id))
      .limit(options.accountsPerPage ?? ACCOUNTS_PER_PAGE);

  const issued: IssuedBill[] = [];
  let skipped = 0;
  await eachPageInParallel(nextPage, options.pagesAtOnce ?? 1, async (page) => {
    // Only cancelled lines left: bill the cycle they ended in, and none after it.
    const due = page
      .map((account) => ({ account, cycle: lastClosedCycle(account.cycleDay, asOf) }))
      .filter(
        ({ account, cycle }) =>
          account.live || (account.lastEnded && Number(account.lastEnded) * 1000 >= cycle.periodStart.getTime()),
      );
    const bills = due.length ? await db.transaction((tx) => closePage(tx, operator, due, asOf)) : [];
    issued.push(...bills);
    skipped += page.length - bills.length;
  });
  // In the accounts' order, whichever page finished first.
  issued.sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
  return { issued, skipped };
}

/** One page of accounts: their rows locked, the plan fees posted, the bills issued, in a few statements. */
async function closePage(
  tx: Executor,
  operator: Operator,
  due: { account: Candidate; cycle: Cycle }[],
  asOf: Date,
): Promise<IssuedBill[]> {
  const autopay = new Map(
    (
      await tx
        .select({ id: accounts.id, methodId: accounts.autopayPaymentMethodId })
        .from(accounts)
        .where(
          inArray(
            accounts.id,
            due.map((d) => d.account.id),
          ),
        )
        .orderBy(asc(accounts.id))
        .for("update")
    ).map((a) => [a.id, a.methodId]),
  );
  const periodOf = (d: { cycle: Cycle }) => isoDay(d.cycle.periodStart);
  const pairs = (list: typeof due) =>
    sql`unnest(${sql.param(list.map((d) => d.account.id))}::uuid[], ${sql.param(list.map(periodOf))}::text[])`;
  // Read under the lock: a bill for the period already issued (by another run) leaves the account alone.
  const billed = new Set(
    rowsOf<{ account_id: string }>(
      await tx.execute(sql`select i.account_id from invoices i join ${pairs(due)} as p(account_id, period_start)
        on i.account_id = p.account_id and i.period_start = p.period_start`),
    ).map((r) => r.account_id),
  );
  const open = due.filter((d) => !billed.has(d.account.id));
  if (open.length === 0) return [];
  await postPlanFees(tx, operator, open);
  const charges = await unbilledCharges(
    tx,
    open.map((d) => d.account.id),
  );
  const credits = await tx
    .select()
    .from(accountCredits)
    .where(
      and(
        inArray(
          accountCredits.accountId,
          open.map((d) => d.account.id),
        ),
        isNull(accountCredits.appliedInvoiceId),
        isNull(accountCredits.cancelledAt),
      ),
    )
    .orderBy(asc(accountCredits.createdAt))
    .for("update");
  const previous = new Map(
    rowsOf<{ account_id: string; total_amount: number }>(
      await tx.execute(sql`select distinct on (i.account_id) i.account_id, i.total_amount
        from invoices i join ${pairs(open)} as p(account_id, period_start)
          on i.account_id = p.account_id and i.period_start < p.period_start
        order by i.account_id, i.period_start desc`),
    ).map((r) => [r.account_id, Number(r.total_amount)]),
  );

  const issuedAt = new Date();
  const bills = open.flatMap(({ account, cycle }) => {
    const bill = billOf(
      charges.get(account.id) ?? [],
      credits.filter((c) => c.accountId === account.id),
      operator.settings.taxRateBps,
    );
    if (!bill) return [];
    const issuedOn = isoDay(cycle.issued);
    return [
      {
        account,
        bill,
        row: {
          operatorCode: operator.code,
          accountId: account.id,
          // Unique at any size (0043): the operator, the day of issue, the sequence's next value.
          number: sql<string>`${`${operator.code}-${issuedOn.replaceAll("-", "")}-`} || lpad(nextval('invoice_number_seq')::text, 9, '0')`,
          periodStart: isoDay(cycle.periodStart),
          periodEnd: isoDay(cycle.periodEnd),
          currency: operator.currency,
          items: bill.items,
          subtotalAmount: bill.subtotal,
          taxAmount: bill.tax,
          creditAmount: bill.credit,
          totalAmount: bill.total,
          previousTotalAmount: previous.get(account.id) ?? null,
          taxRateBps: operator.settings.taxRateBps,
          // A credit that covers it all leaves nothing to pay: the bill is paid as issued.
          status: bill.total === 0 ? ("paid" as const) : ("issued" as const),
          paidAt: bill.total === 0 ? issuedAt : null,
          issuedAt,
          // Autopay: the bill is paid on issue by the autopay job (server/domain/invoicePayments/autopay.ts).
          autopayNextAt: autopay.get(account.id) && bill.total > 0 ? issuedAt : null,
          // A bill issued late (a cycle caught up after a day without backend) still gets its full time to pay.
          dueOn: isoDay(
            new Date(
              Math.max(cycle.issued.getTime(), Date.parse(`${isoDay(asOf)}T00:00:00Z`)) +
                operator.settings.billDueDays * DAY_MS,
            ),
          ),
        },
      },
    ];
  });
  if (bills.length === 0) return [];
  const inserted = await tx
    .insert(invoices)
    .values(bills.map((b) => b.row))
    .returning({ id: invoices.id, accountId: invoices.accountId, dueOn: invoices.dueOn, number: invoices.number });
  const invoiceOf = new Map(inserted.map((i) => [i.accountId, i]));
  await tx
    .insert(invoiceCharges)
    .values(
      bills.flatMap((b) =>
        b.bill.items.map((item) => ({ ledgerEntryId: item.ledgerEntryId, invoiceId: invoiceOf.get(b.account.id)!.id })),
      ),
    );
  const applied = bills.flatMap((b) =>
    b.bill.creditsUsed.map((id) => ({ id, invoiceId: invoiceOf.get(b.account.id)!.id })),
  );
  if (applied.length) {
    await tx.execute(sql`update account_credits set applied_invoice_id = v.invoice_id
      from unnest(${sql.param(applied.map((a) => a.id))}::uuid[], ${sql.param(applied.map((a) => a.invoiceId))}::uuid[]) as v(id, invoice_id)
      where account_credits.id = v.id`);
  }
  // The part of its credits a bill could not use carries over to the next one.
  const carried = bills.filter((b) => b.bill.creditLeft > 0);
  if (carried.length) {
    await tx.insert(accountCredits).values(
      carried.map((b) => ({
        operatorCode: operator.code,
        accountId: b.account.id,
        amount: b.bill.creditLeft,
        currency: operator.currency,
        reason: `Credit left after bill ${invoiceOf.get(b.account.id)!.number}`,
        sourceInvoiceId: invoiceOf.get(b.account.id)!.id,
      })),
    );
  }
  const told = bills.filter((b) => b.account.ownerUid);
  if (told.length) {
    await tx.insert(notifications).values(
      told.map((b) => ({
        operatorCode: operator.code,
        recipientUid: b.account.ownerUid!,
        kind: "bill.issued" as const,
        params: { total: b.bill.total, currency: operator.currency, dueOn: invoiceOf.get(b.account.id)!.dueOn },
        link: `/invoices/show/${invoiceOf.get(b.account.id)!.id}`,
      })),
    );
  }
  return bills.map((b) => ({
    invoiceId: invoiceOf.get(b.account.id)!.id,
    accountId: b.account.id,
    ownerUid: b.account.ownerUid,
    operatorCode: operator.code,
  }));
}

type Charge = Awaited<ReturnType<typeof unbilledCharges>> extends Map<string, (infer C)[]> ? C : never;

/**
 * What a bill is made of: the unbilled charges, less the plan-change credits it can take (oldest
 * first, never below zero: one the bill cannot take waits for the next), taxed; then the account's
 * overpayments of earlier bills (oldest first) come off it after tax, what exceeds it stays a credit.
 * Null when there is nothing to bill.
 */
export function billOf(
  pending: readonly Charge[],
  credits: readonly { id: string; amount: number }[],
  taxRateBps: number,
) {
  const charges = pending.filter((entry) => entry.kind === "charge");
  if (charges.length === 0) return null;
  let room = charges.reduce((sum, charge) => sum + charge.amount, 0);
  const unbilled = pending.flatMap((entry) => {
    if (entry.kind === "charge") return [entry];
    if (entry.amount > room) return [];
    room -= entry.amount;
    return [{ ...entry, amount: -entry.amount }];
  });
  const subtotal = unbilled.reduce((sum, item) => sum + item.amount, 0);
  const tax = taxOf(subtotal, taxRateBps);
  const creditHeld = credits.reduce((sum, c) => sum + c.amount, 0);
  const credit = Math.min(creditHeld, subtotal + tax);
  return {
    items: unbilled.map((charge) => ({ ...itemOf(charge), ledgerEntryId: charge.id })),
    subtotal,
    tax,
    credit,
    total: subtotal + tax - credit,
    creditsUsed: credits.map((c) => c.id),
    creditLeft: creditHeld - credit,
  };
}

/**
 * Every charge of the accounts that no bill has collected yet, and the credits of plan changes made
 * now (a downgrade's unused days of the dearer plan: an `adjustment` referencing its change_plan
 * order), by account, oldest first.
 */
async function unbilledCharges(tx: Executor, accountIds: string[]) {
  const rows = await tx
    .select({
      id: ledgerEntries.id,
      accountId: ledgerEntries.accountId,
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
        inArray(ledgerEntries.accountId, accountIds),
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
  const byAccount = new Map<string, typeof rows>();
  for (const row of rows)
    (byAccount.get(row.accountId) ?? byAccount.set(row.accountId, []).get(row.accountId)!).push(row);
  return byAccount;
}

/**
 * Each line's plan fee for its account's period (the plan it started the period on), as charges
 * posted once (the ledger's key: line and period). Billing starts at activation (issue 28): never a
 * pending line, and not the period a line was activated in (its first, prorated charge paid it); a
 * line cancelled after the period ended still owes it (one cancelled during it paid its days used
 * when it was cancelled).
 */
async function postPlanFees(tx: Executor, operator: Operator, open: { account: Candidate; cycle: Cycle }[]) {
  const periodOf = new Map(open.map((d) => [d.account.id, d.cycle]));
  const billed = (
    await tx
      .select({
        lineId: lines.id,
        accountId: lines.accountId,
        msisdn: lines.msisdn,
        cycleDay: lines.cycleDay,
        planId: lines.planId,
        status: lines.status,
        terminatedAt: lines.terminatedAt,
        activatedAt: lines.activatedAt,
      })
      .from(lines)
      .where(and(inArray(lines.accountId, [...periodOf.keys()]), ne(lines.status, "pending")))
  ).filter((line) => {
    const cycle = periodOf.get(line.accountId)!;
    const afterPeriod = cycle.periodEnd.getTime() + DAY_MS;
    return (
      line.planId &&
      (line.status !== "terminated" || (line.terminatedAt !== null && line.terminatedAt.getTime() >= afterPeriod)) &&
      (line.activatedAt === null || line.activatedAt.getTime() <= cycle.periodStart.getTime())
    );
  });
  if (billed.length === 0) return;
  const changes = await tx
    .select({
      lineId: orders.lineId,
      effective: orders.effective,
      scheduledFor: orders.scheduledFor,
      createdAt: orders.createdAt,
      details: orders.details,
    })
    .from(orders)
    .where(
      and(
        inArray(
          orders.lineId,
          billed.map((l) => l.lineId),
        ),
        eq(orders.type, "change_plan"),
        eq(orders.state, "completed"),
      ),
    );
  const changesOf = new Map<string, typeof changes>();
  for (const change of changes)
    (changesOf.get(change.lineId!) ?? changesOf.set(change.lineId!, []).get(change.lineId!)!).push(change);
  const planOfLine = new Map(
    billed.map((line) => [
      line.lineId,
      planAtPeriodStart(
        changesOf.get(line.lineId) ?? [],
        line.planId,
        isoDay(periodOf.get(line.accountId)!.periodStart),
      ),
    ]),
  );
  const planRows = new Map(
    (
      await tx
        .select({
          id: plans.id,
          planName: plans.name,
          priceAmount: plans.priceAmount,
          pendingPriceAmount: plans.pendingPriceAmount,
          priceChangedAt: plans.priceChangedAt,
        })
        .from(plans)
        .where(inArray(plans.id, [...new Set(planOfLine.values())]))
    ).map((p) => [p.id, p]),
  );
  const fees: BatchLedgerEntry[] = billed.flatMap((line) => {
    const plan = planRows.get(planOfLine.get(line.lineId)!);
    if (!plan) return [];
    const cycle = periodOf.get(line.accountId)!;
    const periodStart = isoDay(cycle.periodStart);
    // A price change reaches a line from its next cycle start after the change (plans/priceChange.ts).
    const price = planFeeFor(plan, line.cycleDay, periodStart);
    if (price <= 0) return [];
    return [
      {
        accountId: line.accountId,
        kind: "charge",
        amount: price,
        currency: operator.currency,
        reason: `${plan.planName}, ${periodStart} to ${isoDay(cycle.periodEnd)} (${line.msisdn})`,
        idempotencyKey: `plan-fee:${line.lineId}:${periodStart}`,
        referenceType: "line",
        referenceId: line.lineId,
      },
    ];
  });
  await postLedgerEntries(tx, operator.code, fees);
}

/**
 * The plan a line was on when `periodStart` began (00:00 UTC), from its completed plan changes: the
 * plan the first change that took effect after it left (a change now takes effect when made, a
 * next-cycle change at its cycle start), else the line's plan today. A period's fee is the plan it
 * started on, like a prepaid renewal: a change made now during the period is settled by its own
 * proration (credit for the old plan's unused days, charge for the new plan's), so the period is
 * billed old × used days + new × remaining days, whether the change went up or down.
 */
export function planAtPeriodStart(
  changes: readonly {
    effective: string | null;
    scheduledFor: Date | null;
    createdAt: Date;
    details: Record<string, unknown>;
  }[],
  planId: string,
  periodStart: string,
): string {
  const start = Date.parse(`${periodStart}T00:00:00Z`);
  let first: { at: number; fromPlanId: string } | null = null;
  for (const change of changes) {
    const at = (
      change.effective === "next_cycle" && change.scheduledFor ? change.scheduledFor : change.createdAt
    ).getTime();
    const fromPlanId = change.details.fromPlanId;
    if (at <= start || typeof fromPlanId !== "string") continue;
    if (!first || at < first.at) first = { at, fromPlanId };
  }
  return first?.fromPlanId ?? planId;
}
