import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import { accounts, autoTopUps, autoTopUpSettings, lines, operators } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import { publishAfterCommit } from "../../live/eventBus";
import { runAddOnExpiries } from "../addOns/purchases";
import { queueAutoTopUpIfLow } from "../autoTopUps/queue";
import { runAutoTopUp } from "../autoTopUps/run";
import { closeCycles, markOverdueBills } from "../money/billing";
import { eachInParallel } from "../../lib/eachInParallel";
import { nextCycleStart, cycleStartSql } from "../usage/cycles";
import {
  addDays,
  balanceOf,
  cycleDueOn,
  endGrace,
  enterGrace,
  graceCycleOf,
  lockRenewalLines,
  notifyHolder,
  paidCycleOf,
  REMINDER_DAYS,
  renewalPriceOf,
  renewIfCovered,
  type RenewalEffects,
  type RenewalLine,
} from "../renewals/renew";

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
 * How many accounts the day works on at once: each is its own transaction on its own pooled
 * connection, locking only its account and lines, so they never wait on each other (issue 30).
 */
export const ACCOUNTS_AT_ONCE = 4;

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
 * Each account in a transaction of its own with its row and lines locked, so the daily job, an
 * admin's run and a retry after a crash do each thing once, and the counters say what this call did.
 */
export async function runBillingDay(
  services: Services,
  options: { operatorCode: string; asOf: string; now?: Date; log?: Log },
): Promise<BillingRunResult> {
  const { db } = services;
  const { operatorCode, asOf } = options;
  const log = options.log ?? consoleLog;
  const now = options.now ?? new Date();
  const [operator] = await db.select({ code: operators.code }).from(operators).where(eq(operators.code, operatorCode));
  if (!operator) throw new Error(`No operator ${operatorCode}`);
  const result: BillingRunResult = { renewed: 0, enteredGrace: 0, suspended: 0, billsIssued: 0, overdue: 0 };
  const announce = async (events: Omit<ResourceEvent, "at">[]) => {
    for (const event of events)
      await publishAfterCommit(services.events, log, { ...event, at: new Date().toISOString() });
  };

  // Prepaid lines with something to do: active ones whose paid cycle is older than the cycle of
  // `asOf` + REMINDER_DAYS (renewal due, or a reminder), and every line in grace.
  const horizon = addDays(asOf, REMINDER_DAYS);
  const paid = sql`coalesce(${lines.renewedCycleStart}, ${cycleStartSql(sql`${lines.createdAt}`, sql`${lines.cycleDay}`)})`;
  const candidates = await db
    .select({ id: lines.id, accountId: lines.accountId, status: lines.status })
    .from(lines)
    .innerJoin(accounts, eq(accounts.id, lines.accountId))
    .where(
      and(
        eq(lines.operatorCode, operatorCode),
        eq(accounts.type, "prepaid"),
        sql`(${lines.status} = 'grace' or (${lines.status} = 'active' and ${paid} < ${cycleStartSql(sql`(${horizon}::timestamp at time zone 'UTC')`, sql`${lines.cycleDay}`)}))`,
      ),
    )
    .orderBy(asc(lines.accountId), asc(lines.msisdn));
  const accountIds = [...new Set(candidates.map((c) => c.accountId))];

  // 1. Auto top-up first, where it is on and the renewals due would leave the balance under its threshold.
  if (services.payments && accountIds.length)
    await autoTopUpsBeforeRenewals(services, operatorCode, accountIds, asOf, log);

  // 2 and 3. Renewals, grace, grace endings, reminders: one transaction per account, a few accounts at once.
  await eachInParallel(accountIds, ACCOUNTS_AT_ONCE, async (accountId) => {
    const effects: RenewalEffects = { events: [] };
    const counted = await db.transaction(async (tx) => {
      const counts = { renewed: 0, enteredGrace: 0, suspended: 0 };
      // The account row first, then its lines: the order a credit takes them (postLedgerEntry, then renewAfterCredit).
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
      for (const line of await lockRenewalLines(tx, { accountId, statuses: ["active", "grace"] })) {
        if (line.operatorCode !== operatorCode) continue;
        if (line.status === "active") {
          const due = cycleDueOn(line, asOf);
          if (due) {
            const done = await renewIfCovered(tx, line, due, effects, { reason: "cycle day" });
            if (done.renewed) counts.renewed++;
            else {
              await enterGrace(tx, line, due, asOf, done.missing, effects);
              counts.enteredGrace++;
            }
          }
          if (line.status === "active") await remindIfShort(tx, line, asOf, effects);
        } else if (line.status === "grace") {
          const done = await renewIfCovered(tx, line, graceCycleOf(line), effects, {
            reason: "the balance covered the plan's renewal",
          });
          if (done.renewed) counts.renewed++;
          else if (line.graceEndsOn! <= asOf) {
            await endGrace(tx, line, done.missing, effects);
            counts.suspended++;
          }
        }
      }
      return counts;
    });
    result.renewed += counted.renewed;
    result.enteredGrace += counted.enteredGrace;
    result.suspended += counted.suspended;
    await announce(effects.events);
  });

  // 4. Postpaid: the cycle closes (bills), then bills past their due date become overdue.
  const asOfInstant = new Date(`${asOf}T12:00:00Z`);
  const { issued } = await closeCycles(db, { operatorCode, asOf: asOfInstant, accountsAtOnce: ACCOUNTS_AT_ONCE });
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
  const overdue = await markOverdueBills(db, { asOf: asOfInstant, operatorCode });
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
  if (services.events) await runAddOnExpiries(db, services.events, addOnsUntil, { operatorCode });
  else await runAddOnExpiries(db, { publish: () => Promise.resolve() }, addOnsUntil, { operatorCode });

  return result;
}

const nextDay = (day: string) => addDays(day, 1);

/**
 * Tells the holder once per line and cycle, within REMINDER_DAYS of the renewal, when the balance
 * will not cover it (the line's own price against the balance now).
 */
async function remindIfShort(
  tx: Parameters<Parameters<Services["db"]["transaction"]>[0]>[0],
  line: RenewalLine,
  asOf: string,
  effects: RenewalEffects,
) {
  const next = nextCycleStart(paidCycleOf(line));
  if (addDays(next, -REMINDER_DAYS) > asOf || next <= asOf || line.renewalRemindedFor === next) return;
  const price = renewalPriceOf(line, next);
  const balance = await balanceOf(tx, line.accountId);
  if (balance >= price) return;
  await tx.update(lines).set({ renewalRemindedFor: next }).where(eq(lines.id, line.id));
  line.renewalRemindedFor = next;
  await notifyHolder(
    tx,
    line,
    "line.renewal_due_soon",
    { amount: price, balance, missing: price - balance, date: next },
    effects,
  );
}

/**
 * Auto top-up runs before the renewals: for each account with it switched on, when the renewals due
 * as of `asOf` would leave the balance under the threshold, one auto top-up is queued (the monthly cap
 * and "one at a time" hold, queue.ts) and carried out now through the top-ups path; a card that does
 * not answer in time leaves the renewal to grace, and its late success renews through renewAfterCredit.
 */
async function autoTopUpsBeforeRenewals(
  services: Services,
  operatorCode: string,
  accountIds: string[],
  asOf: string,
  log: Log,
) {
  const { db } = services;
  const enabled = await db
    .select({ accountId: autoTopUpSettings.accountId })
    .from(autoTopUpSettings)
    .where(
      and(
        inArray(autoTopUpSettings.accountId, accountIds),
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
