import { and, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Money } from "#resources/common";
import { accounts, lines, notifications, plans } from "../../db/schema";
import { conflict, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import type { Executor } from "../../audit";
import type { ActionHandler, Quote } from "../../engine/types";
import { cycleStartOf, nextCycleStart } from "../usage/cycles";

export type PlanRow = typeof plans.$inferSelect;
type PriceParts = Pick<PlanRow, "priceAmount" | "pendingPriceAmount" | "priceChangedAt">;

/** The lines a price change reaches: those that pay the plan (active and suspended), never pending or terminated ones. */
export const PRICED_LINE_STATUSES = ["active", "suspended"] as const;

/**
 * The first day (YYYY-MM-DD) a line with this cycle day pays a price changed at `changedAt`: the
 * start of its next cycle. The cycle it is in when the price changes keeps the old price.
 */
export const newPriceStartsOn = (cycleDay: number, changedAt: Date): string =>
  nextCycleStart(cycleStartOf(changedAt, cycleDay));

/** The monthly fee of a plan for a line's billing period starting on `periodStart`. */
export function planFeeFor(plan: PriceParts, cycleDay: number, periodStart: string): number {
  if (plan.pendingPriceAmount === null || !plan.priceChangedAt) return plan.priceAmount;
  return periodStart >= newPriceStartsOn(cycleDay, plan.priceChangedAt) ? plan.pendingPriceAmount : plan.priceAmount;
}

/** The day every line, whatever its cycle day (1–28), pays the new price. */
export function lastLineStartsOn(changedAt: Date): string {
  let last = "";
  for (let day = 1; day <= 28; day++) {
    const start = newPriceStartsOn(day, changedAt);
    if (start > last) last = start;
  }
  return last;
}

/**
 * When a pending price has become simply the plan's price: a month after the last line started
 * paying it, so every bill of a period at the old price (billed in arrears) has been issued.
 */
export const priceChangeSettlesOn = (changedAt: Date): string => nextCycleStart(lastLineStartsOn(changedAt));

/** How many lines of the operator are on the plan and pay it, by status. */
export async function linesPayingPlan(
  db: Executor,
  operatorCode: string,
  planId: string,
): Promise<{ active: number; suspended: number }> {
  const rows = await db
    .select({ status: lines.status, n: count() })
    .from(lines)
    .where(
      and(
        eq(lines.operatorCode, operatorCode),
        eq(lines.planId, planId),
        inArray(lines.status, [...PRICED_LINE_STATUSES]),
      ),
    )
    .groupBy(lines.status);
  const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { active: of("active"), suspended: of("suspended") };
}

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
export async function notifyPriceChange(
  tx: Executor,
  operatorCode: string,
  plan: Pick<PlanRow, "id" | "name">,
  price: Money,
  changedAt: Date,
): Promise<string[]> {
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

export type ChangePriceInput = { price: Money };

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The checks of a price change, each at its field, and what the plan's price is today. */
function checkPriceChange(plan: PlanRow, price: Money, now: Date) {
  if (price.currency !== plan.currency)
    throw unprocessable(words("catalog.pricedIn", { currency: plan.currency }), [
      { path: "price.currency", message: words("catalog.mustBeCurrency", { currency: plan.currency }) },
    ]);
  // A pending change that has settled is the plan's price now.
  const settled =
    plan.pendingPriceAmount !== null &&
    plan.priceChangedAt !== null &&
    isoDay(now) >= priceChangeSettlesOn(plan.priceChangedAt);
  const current = settled ? plan.pendingPriceAmount! : plan.priceAmount;
  if (plan.pendingPriceAmount !== null && plan.priceChangedAt && !settled) {
    throw conflict(
      // The amount as digits (minor units), not formatted: the sentence says so.
      words("plans.priceChangePending", {
        amount: String(plan.pendingPriceAmount),
        until: priceChangeSettlesOn(plan.priceChangedAt),
      }),
      [{ path: "price", message: words("plans.priceChangePendingField") }],
    );
  }
  if (price.amount === current)
    throw unprocessable(words("plans.samePrice"), [{ path: "price.amount", message: words("plans.samePriceField") }]);
  return { current };
}

/**
 * What changing the plan's price to `price` would do, changing nothing: how many of the operator's
 * lines it reaches (active and suspended) and from when. The action's preview and
 * `GET /plans/{id}/price-change-preview` both answer it.
 */
export async function priceChangeQuote(
  db: Executor,
  operatorCode: string,
  plan: PlanRow,
  price: Money,
  now = new Date(),
): Promise<Quote> {
  const { current } = checkPriceChange(plan, price, now);
  const { active, suspended } = await linesPayingPlan(db, operatorCode, plan.id);
  return {
    summary: "resources.plans.quote.changePrice",
    params: {
      plan: plan.name,
      lines: active + suspended,
      active,
      suspended,
      from: isoDay(now),
      until: lastLineStartsOn(now),
    },
    lines: [
      { label: "resources.plans.quote.activeLines", params: { count: active } },
      { label: "resources.plans.quote.suspendedLines", params: { count: suspended } },
      { label: "resources.plans.quote.priceNow", amount: { amount: current, currency: plan.currency } },
      { label: "resources.plans.quote.priceNext", amount: price },
    ],
    total: null,
  };
}

/**
 * plans/{id}/actions/change-price: what lines pay now does not change. The new price is stored as
 * pending with the time of the change; each line pays it from its next cycle start (planFeeFor, used
 * by the cycle close). A plan nobody is on (a draft) takes the new price at once. The preview counts
 * the lines it reaches (active and suspended, of the operator); each of those lines' holders is told,
 * in the same transaction, the new price and the day their line starts paying it (notifyPriceChange).
 */
export const changePlanPrice: ActionHandler<PlanRow, ChangePriceInput> = {
  async run(ctx) {
    const now = new Date();
    const { current } = checkPriceChange(ctx.row, ctx.input.price, now);
    const reached = await linesPayingPlan(ctx.tx, ctx.principal.operator, ctx.row.id);
    const onAnyLine = ctx.row.status !== "draft" || reached.active + reached.suspended > 0;
    await ctx.tx
      .update(plans)
      .set(
        onAnyLine
          ? { priceAmount: current, pendingPriceAmount: ctx.input.price.amount, priceChangedAt: now, updatedAt: now }
          : { priceAmount: ctx.input.price.amount, pendingPriceAmount: null, priceChangedAt: null, updatedAt: now },
      )
      .where(eq(plans.id, ctx.row.id));
    if (!onAnyLine) return;
    const recipients = await notifyPriceChange(ctx.tx, ctx.principal.operator, ctx.row, ctx.input.price, now);
    // One event for every inbox touched: no ids (receivers refetch their own list), routed by owner.
    if (recipients.length)
      ctx.effects.publish({ resource: "notifications", type: "created", ids: [], ownerUids: recipients });
  },

  preview: (ctx) => priceChangeQuote(ctx.tx, ctx.principal.operator, ctx.row, ctx.input.price),
};

/** plans/{id}/actions/activate (draft → active) and retire (active → retired); the declaration's `when` guards the state. */
const setStatus = (status: "active" | "retired"): ActionHandler<PlanRow> => ({
  async run(ctx) {
    await ctx.tx.update(plans).set({ status, updatedAt: new Date() }).where(eq(plans.id, ctx.row.id));
  },
});
export const activatePlan = setStatus("active");
export const retirePlan = setStatus("retired");
