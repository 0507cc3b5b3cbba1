import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Money } from "../../../src/resources/common";
import type { Executor } from "../../audit";
import { accounts, lines, notifications } from "../../db/schema";
import { PRICED_LINE_STATUSES, newPriceStartsOn, type PlanRow } from "./priceChange";

/** Cycle days run 1–28 (the lines table's check). */
const CYCLE_DAYS = 28;

/**
 * Tells the holder of every line a price change reaches (the preview's lines: the operator's active
 * and suspended lines on the plan) the new price and the day *their line* starts paying it (its next
 * cycle start, newPriceStartsOn), in the caller's transaction: one `INSERT … SELECT` whatever the
 * number of lines, never a query per line (a plan may have 100k lines). The per-line day is looked up
 * in a 28-entry array computed by the same function the billing uses, so notice and bill agree.
 *
 * One notice per line (a holder with two lines on the plan gets two, each naming its number). A line
 * whose account nobody signs in for has no inbox and gets none. Email/SMS: the notification
 * preferences only cover usage alerts, so a price change goes to the inbox only.
 *
 * Returns the distinct recipients (for the live event).
 */
export async function notifyPriceChange(tx: Executor, operatorCode: string, plan: Pick<PlanRow, "id" | "name">, price: Money, changedAt: Date): Promise<string[]> {
  const startsOn = Array.from({ length: CYCLE_DAYS }, (_, i) => newPriceStartsOn(i + 1, changedAt));
  const startsOnByDay = sql`(array[${sql.join(
    startsOn.map((day) => sql`${day}::text`),
    sql`, `,
  )}])[${lines.cycleDay}]`;
  const inserted = await tx
    .insert(notifications)
    .select(
      tx
        .select({
          id: sql<string>`gen_random_uuid()`.as("id"),
          operatorCode: lines.operatorCode,
          recipientUid: sql<string>`${accounts.ownerUid}`.as("recipient_uid"),
          kind: sql<"plan.price_changed">`${"plan.price_changed"}::text`.as("kind"),
          params: sql<Record<string, string | number>>`jsonb_build_object(
            'planName', ${plan.name}::text,
            'msisdn', ${lines.msisdn},
            'amount', ${price.amount}::integer,
            'currency', ${price.currency}::text,
            'date', ${startsOnByDay})`.as("params"),
          link: sql<string>`'/lines/show/' || ${lines.id}::text`.as("link"),
          readAt: sql<Date | null>`null::timestamptz`.as("read_at"),
          createdAt: sql<Date>`now()`.as("created_at"),
          updatedAt: sql<Date>`now()`.as("updated_at"),
        })
        .from(lines)
        .innerJoin(accounts, eq(accounts.id, lines.accountId))
        .where(
          and(
            eq(lines.operatorCode, operatorCode),
            eq(lines.planId, plan.id),
            inArray(lines.status, [...PRICED_LINE_STATUSES]),
            eq(accounts.operatorCode, operatorCode),
            isNotNull(accounts.ownerUid),
          ),
        ),
    )
    .returning({ recipientUid: notifications.recipientUid });
  return [...new Set(inserted.map((row) => row.recipientUid))];
}
