import { and, count, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import { autoTopUps, autoTopUpSettings, operators, topUps } from "../../db/schema";

/**
 * The calendar month, `YYYY-MM`, an auto top-up counts toward: the month on the operator's clock
 * (its `timezone`), not UTC's, so "N times a month" resets at the operator's midnight.
 */
export function monthOf(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit" }).formatToParts(at);
  const part = (type: "year" | "month") => parts.find((p) => p.type === type)!.value;
  return `${part("year")}-${part("month")}`;
}

/**
 * Called by postLedgerEntry after a prepaid debit, in the debit's transaction and under its lock of
 * the account row: when the balance it left is below the account's enabled threshold, it queues one
 * auto top-up (a row the `auto-top-ups.run` job carries out after the commit; the gateway is never
 * called inside a transaction). Nothing is queued while another auto top-up of the account is
 * still queued or awaiting the gateway (two racing debits: one top-up), nor past the month's cap:
 * the lock serialises the count, and the unique `seq` within the cap is the database's own guard.
 * Answers the queued row's id, or null.
 */
export async function queueAutoTopUpIfLow(
  tx: Executor,
  account: { operatorCode: string; accountId: string; currency: string; balanceAfter: number },
  now = new Date(),
): Promise<string | null> {
  const [found] = await tx
    .select({ setting: autoTopUpSettings, timeZone: operators.timezone })
    .from(autoTopUpSettings)
    .innerJoin(operators, eq(operators.code, autoTopUpSettings.operatorCode))
    .where(eq(autoTopUpSettings.accountId, account.accountId));
  const setting = found?.setting;
  if (!setting?.enabled || setting.currency !== account.currency || account.balanceAfter >= setting.thresholdAmount)
    return null;

  const [outstanding] = await tx
    .select({ id: autoTopUps.id })
    .from(autoTopUps)
    .leftJoin(topUps, eq(topUps.id, autoTopUps.topUpId))
    .where(
      and(
        eq(autoTopUps.accountId, account.accountId),
        or(eq(autoTopUps.status, "queued"), and(eq(autoTopUps.status, "submitted"), eq(topUps.status, "created"))),
      ),
    )
    .limit(1);
  if (outstanding) return null;

  const month = monthOf(now, found!.timeZone);
  const [used] = await tx
    .select({ n: count(), last: sql<number>`coalesce(max(${autoTopUps.seq}), 0)::int` })
    .from(autoTopUps)
    .where(
      and(
        eq(autoTopUps.accountId, account.accountId),
        eq(autoTopUps.month, month),
        inArray(autoTopUps.status, ["queued", "submitted", "skipped"]),
      ),
    );
  if (Number(used!.n) >= setting.maxPerMonth || Number(used!.last) >= setting.maxPerMonth) return null;

  const [row] = await tx
    .insert(autoTopUps)
    .values({
      operatorCode: account.operatorCode,
      accountId: account.accountId,
      month,
      seq: Number(used!.last) + 1,
      maxPerMonth: setting.maxPerMonth,
      amount: setting.amount,
      currency: setting.currency,
    })
    .returning({ id: autoTopUps.id });
  return row!.id;
}
