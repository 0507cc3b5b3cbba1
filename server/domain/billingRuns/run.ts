import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import { accounts, autoTopUps, autoTopUpSettings, lines, operators } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import { publishAfterCommit } from "../../live/eventBus";
import { runAddOnExpiries } from "../addOns/expiries";
import { queueAutoTopUpIfLow } from "../autoTopUps/queue";
import { runAutoTopUp } from "../autoTopUps/run";
import { markOverdueBills } from "../money/billing";
import { ACCOUNTS_PER_PAGE, closeCycles } from "../money/cycleClose";
import { eachPageInParallel } from "../../lib/eachInParallel";
import { cycleStartSql } from "../usage/cycles";
import {
  addDays,
  cycleDueOn,
  graceCycleOf,
  lockAccountBalances,
  lockRenewalLines,
  REMINDER_DAYS,
  renewalPriceOf,
  type RenewalLine,
} from "../renewals/renew";
import { RenewalWork } from "../renewals/renewalWork";
import { inAccountRange, type AccountRange } from "./accountRanges";

/** What one billing day changed: each counter counts only what this run did (a rerun answers zeros). */
export interface BillingRunResult {
  renewed: number;
  enteredGrace: number;
  suspended: number;
  billsIssued: number;
  overdue: number;
}

type Services = Pick<EngineServices, "db"> & Partial<Pick<EngineServices, "payments" | "featureFlags" | "events">>;
type Log = { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
const consoleLog: Log = { error: (obj, msg) => console.error(msg, obj), warn: (obj, msg) => console.warn(msg, obj) };

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The day works on pages of ACCOUNTS_PER_PAGE accounts (issue 30): each page is one transaction that
 * locks only its own accounts and their lines, decides every step in memory and writes them in a few
 * statements; a few pages at once, each on its own pooled connection. A page committed is done: a run
 * after a crash finds only the accounts still due (their paid cycles and bills say so).
 */
export { ACCOUNTS_PER_PAGE };
/** Pages worked at once (on PGlite, one connection: they queue). */
export const PAGES_AT_ONCE = 4;

/**
 * The carrier's day (issue 24), for one operator as of `asOf` (YYYY-MM-DD, UTC), in this order:
 *
 * 1. auto top-ups first, for prepaid accounts whose due renewals would leave the balance under their
 *    threshold (charged through the top-ups path, outside any transaction);
 * 2. prepaid renewals due: each active prepaid line whose cycle starting on or before `asOf` is not
 *    paid renews from the balance (`renewal` entry keyed per line and cycle), or enters `grace` for
 *    GRACE_DAYS when the balance is short; holders whose balance will not cover a renewal within
 *    REMINDER_DAYS are told once per line and cycle;
 * 3. grace endings: a line in grace the balance now covers renews, one whose grace ended is
 *    suspended (non_payment);
 * 4. postpaid cycle close (closeCycles) and overdue marking (markOverdueBills), as the bills have it;
 * 5. add-ons due as of that day renew (auto-renew) or expire, after the plans.
 *
 * Each page of accounts in a transaction of its own with its rows and lines locked, so the daily
 * job, an admin's run and a retry after a crash do each thing once, and the counters say what this
 * call did.
 */
export async function runBillingDay(
  services: Services,
  options: {
    operatorCode: string;
    asOf: string;
    now?: Date;
    log?: Log;
    accountsPerPage?: number;
    /** Pages worked at once (PAGES_AT_ONCE unless told). */
    pagesAtOnce?: number;
    /** Only the accounts whose ids are in this slice: a part of the day, as the job queue shares it out (billingJobs.ts). */
    accounts?: AccountRange;
  },
): Promise<BillingRunResult> {
  const { db } = services;
  const { operatorCode, asOf } = options;
  const log = options.log ?? consoleLog;
  const accountsPerPage = options.accountsPerPage ?? ACCOUNTS_PER_PAGE;
  const pagesAtOnce = options.pagesAtOnce ?? PAGES_AT_ONCE;
  const range = options.accounts;
  const now = options.now ?? new Date();
  const [operator] = await db.select({ code: operators.code }).from(operators).where(eq(operators.code, operatorCode));
  if (!operator) throw new Error(`No operator ${operatorCode}`);
  const result: BillingRunResult = { renewed: 0, enteredGrace: 0, suspended: 0, billsIssued: 0, overdue: 0 };
  const announce = async (events: Omit<ResourceEvent, "at">[]) => {
    for (const event of events)
      await publishAfterCommit(services.events, log, { ...event, at: new Date().toISOString() });
  };

  // Prepaid accounts with something to do, a page at a time by id: those with an active line whose
  // paid cycle is older than the cycle of `asOf` + REMINDER_DAYS (renewal due, or a reminder), or a
  // line in grace.
  const horizon = addDays(asOf, REMINDER_DAYS);
  const paid = sql`coalesce(${lines.renewedCycleStart}, ${cycleStartSql(sql`${lines.createdAt}`, sql`${lines.cycleDay}`)})`;
  const nextAccounts = async (last: string | undefined) =>
    (
      await db
        .selectDistinct({ id: lines.accountId })
        .from(lines)
        .innerJoin(accounts, eq(accounts.id, lines.accountId))
        .where(
          and(
            eq(lines.operatorCode, operatorCode),
            eq(accounts.type, "prepaid"),
            last ? gt(lines.accountId, last) : undefined,
            inAccountRange(lines.accountId, range),
            sql`(${lines.status} = 'grace' or (${lines.status} = 'active' and ${paid} < ${cycleStartSql(sql`(${horizon}::timestamp at time zone 'UTC')`, sql`${lines.cycleDay}`)}))`,
          ),
        )
        .orderBy(asc(lines.accountId))
        .limit(accountsPerPage)
    ).map((row) => row.id);

  await eachPageInParallel(nextAccounts, pagesAtOnce, async (accountIds) => {
    // 1. Auto top-up first, where it is on and the renewals due would leave the balance under its threshold.
    if (services.payments) await autoTopUpsBeforeRenewals(services, operatorCode, accountIds, asOf, log);
    // 2 and 3. Renewals, grace, grace endings, reminders: the page's accounts in one transaction.
    const work = await db.transaction(async (tx) => {
      // The account rows first, then their lines: the order a credit takes them (postLedgerEntry, then renewAfterCredit).
      const work = new RenewalWork(await lockAccountBalances(tx, accountIds));
      for (const line of await lockRenewalLines(tx, { accountIds: [...accountIds], statuses: ["active", "grace"] })) {
        if (line.operatorCode !== operatorCode) continue;
        if (line.status === "active") {
          const due = cycleDueOn(line, asOf);
          if (due) {
            const done = work.renew(line, due, { reason: "cycle day" });
            if (!done.renewed) work.enterGrace(line, due, asOf, done.missing);
          }
          if (line.status === "active") work.remindIfShort(line, asOf);
        } else if (line.status === "grace") {
          const done = work.renew(line, graceCycleOf(line), { reason: "the balance covered the plan's renewal" });
          if (!done.renewed && line.graceEndsOn! <= asOf) work.endGrace(line, done.missing);
        }
      }
      await work.flush(tx);
      return work;
    });
    result.renewed += work.counts.renewed;
    result.enteredGrace += work.counts.enteredGrace;
    result.suspended += work.counts.suspended;
    await announce(work.events);
  });

  // 4. Postpaid: the cycle closes (bills), then bills past their due date become overdue.
  const asOfInstant = new Date(`${asOf}T12:00:00Z`);
  const { issued } = await closeCycles(db, {
    operatorCode,
    asOf: asOfInstant,
    pagesAtOnce,
    accountsPerPage,
    accounts: range,
  });
  result.billsIssued = issued.length;
  await announce(
    issued.map((bill) => ({
      operator: bill.operatorCode,
      resource: "invoices",
      type: "created",
      ids: [bill.invoiceId],
      ownerUids: bill.ownerUid ? [bill.ownerUid] : [],
    })),
  );
  const overdue = await markOverdueBills(db, { asOf: asOfInstant, operatorCode, accounts: range });
  result.overdue = overdue.length;
  await announce(
    overdue.map((bill) => ({
      operator: bill.operatorCode,
      resource: "invoices",
      type: "updated",
      ids: [bill.invoiceId],
      ownerUids: bill.ownerUid ? [bill.ownerUid] : [],
    })),
  );

  // 5. Add-ons due by then renew (after their line's plan) or expire: today's run up to now, another day's up to its end.
  const addOnsUntil = asOf === today() ? now : new Date(Date.parse(`${nextDay(asOf)}T00:00:00Z`) - 1);
  const events = services.events ?? { publish: () => Promise.resolve() };
  await runAddOnExpiries(db, events, addOnsUntil, { operatorCode, accounts: range });

  return result;
}

const nextDay = (day: string) => addDays(day, 1);

/**
 * Auto top-up runs before the renewals: for each account with it switched on, when the renewals due
 * as of `asOf` would leave the balance under the threshold, one auto top-up is queued (the monthly cap
 * and "one at a time" hold, queue.ts) and carried out now through the top-ups path; a card that does
 * not answer in time leaves the renewal to grace, and its late success renews through renewAfterCredit.
 */
async function autoTopUpsBeforeRenewals(
  services: Services,
  operatorCode: string,
  accountIds: readonly string[],
  asOf: string,
  log: Log,
) {
  const { db } = services;
  const enabled = await db
    .select({ accountId: autoTopUpSettings.accountId })
    .from(autoTopUpSettings)
    .where(
      and(
        inArray(autoTopUpSettings.accountId, [...accountIds]),
        eq(autoTopUpSettings.enabled, true),
        eq(autoTopUpSettings.operatorCode, operatorCode),
      ),
    );
  for (const { accountId } of enabled) {
    try {
      await db.transaction(async (tx) => {
        const [account] = await tx
          .select({ balance: accounts.balanceAmount })
          .from(accounts)
          .where(eq(accounts.id, accountId))
          .for("update");
        const due = (await lockRenewalLines(tx, { accountId, statuses: ["active"] }))
          .map((line) => ({ line, cycle: cycleDueOn(line, asOf) }))
          .filter((d): d is { line: RenewalLine; cycle: string } => d.cycle !== null);
        if (!due.length) return;
        const price = due.reduce((sum, d) => sum + renewalPriceOf(d.line, d.cycle), 0);
        await queueAutoTopUpIfLow(tx, {
          operatorCode,
          accountId,
          currency: due[0]!.line.currency,
          balanceAfter: account!.balance - price,
        });
      });
      const queued = await db
        .select({ id: autoTopUps.id })
        .from(autoTopUps)
        .where(and(eq(autoTopUps.accountId, accountId), eq(autoTopUps.status, "queued")))
        .orderBy(asc(autoTopUps.createdAt));
      for (const { id } of queued)
        await runAutoTopUp(
          { db, payments: services.payments, featureFlags: services.featureFlags, events: services.events },
          id,
          log,
        );
    } catch (error) {
      log.error(
        { err: error, accountId },
        "auto top-up before renewal failed; the renewal goes on with the balance as it is",
      );
    }
  }
}
