import { and, eq } from "drizzle-orm";
import { accounts, lines, orders, plans } from "../../db/schema";
import { badRequest, conflict, unprocessable } from "../../errors";
import { catalogNameIn, wordsNaming } from "../../i18n/catalogWords";
import { words } from "../../i18n/words";
import type { ActionContext, ActionHandler, Quote } from "../../engine/types";
import { postLedgerEntry } from "../money/ledger";
import { placeOrder } from "../orders/orderFlow";
import type { LineRow } from "../lines/module";
import { quotePlanChange } from "./proration";
import { liftCapsAfterPlanChange } from "../usage/liftCaps";

export type ChangePlanInput = { planId: string; effective: "now" | "next-cycle" };
type Ctx = ActionContext<LineRow, ChangePlanInput>;

/** The plan asked for and the line's current one, with every refusal a subscriber could meet, each at its field. */
async function planChange(ctx: Ctx) {
  const [target] = await ctx.tx
    .select()
    .from(plans)
    .where(and(eq(plans.id, ctx.input.planId), eq(plans.operatorCode, ctx.principal.operator)));
  if (!target)
    throw badRequest(words("plans.noSuchPlan"), [{ path: "planId", message: words("plans.noSuchPlanField") }]);
  if (target.id === ctx.row.planId)
    throw conflict(words("plans.alreadyOnPlan"), [{ path: "planId", message: words("plans.alreadyOnPlanField") }]);
  if (target.status !== "active")
    throw unprocessable(wordsNaming("plans.notOffered", target), [
      { path: "planId", message: words("plans.notOfferedField") },
    ]);
  const [current] = await ctx.tx.select().from(plans).where(eq(plans.id, ctx.row.planId));
  const [account] = await ctx.tx
    .select({ type: accounts.type })
    .from(accounts)
    .where(eq(accounts.id, ctx.row.accountId));
  if (target.kind !== account!.type) {
    const from = words(`plans.kind.${account!.type}`);
    const to = words(`plans.kind.${target.kind}`);
    const detail = words(
      ctx.principal.role === "subscriber" ? "plans.kindChangeHere" : "plans.kindChangeOtherAccount",
      { from, to },
    );
    throw unprocessable(detail, [
      { path: "planId", message: words("plans.kindChangeField", { kind: to, lineKind: from }) },
    ]);
  }
  const [scheduled] = await ctx.tx
    .select({ id: orders.id, scheduledFor: orders.scheduledFor })
    .from(orders)
    .where(and(eq(orders.lineId, ctx.row.id), eq(orders.type, "change_plan"), eq(orders.state, "acknowledged")))
    .limit(1);
  if (scheduled) {
    throw conflict(
      words("plans.changeScheduled", { date: String(scheduled.scheduledFor?.toISOString().slice(0, 10)) }),
      [{ path: "planId", message: words("plans.changeScheduledField") }],
    );
  }
  return { target, current: current!, accountType: account!.type };
}

const money = (amount: number, currency: string) => ({ amount, currency });

/**
 * lines/{id}/actions/change-plan. Now: the line moves at once, with a credit for the old plan's
 * unused days and a charge for the new plan's remaining days, posted net to the ledger (prepaid: refused
 * when the balance is short, 422 with the shortfall; postpaid: an unbilled charge, or for a downgrade an
 * `adjustment` credit that the next bill deducts, cycleClose.ts billOf; the bill charges the period at the
 * plan it started on, so the period costs old × used days + new × remaining days). Next cycle: no
 * charge; an order waits for the cycle start, when the scheduled-orders job carries it out.
 */
export const changePlan: ActionHandler<LineRow, ChangePlanInput> = {
  async run(ctx) {
    const { target, current } = await planChange(ctx);
    const details = {
      fromPlanId: current.id,
      fromPlanName: current.name,
      toPlanId: target.id,
      toPlanName: target.name,
    };
    const base = {
      type: "change_plan" as const,
      accountId: ctx.row.accountId,
      lineId: ctx.row.id,
      ownerUid: ctx.row.ownerUid,
      reason: ctx.reason,
    };

    if (ctx.input.effective === "next-cycle") {
      const { cycleEnd } = quotePlanChange(current.priceAmount, target.priceAmount, ctx.row.cycleDay, new Date());
      const scheduledFor = new Date(`${cycleEnd}T00:00:00Z`);
      const order = await placeOrder(
        ctx,
        { ...base, details, effective: "next_cycle", scheduledFor },
        { complete: false },
      );
      await tell(ctx, "plan.change_scheduled", { planName: target.name, date: cycleEnd });
      return { order };
    }

    const quote = quotePlanChange(current.priceAmount, target.priceAmount, ctx.row.cycleDay, new Date());
    const order = await placeOrder(
      ctx,
      { ...base, details: { ...details, ...quote, currency: target.currency } },
      { complete: true },
    );
    if (quote.net !== 0) {
      await postLedgerEntry(ctx.tx, {
        operatorCode: ctx.principal.operator,
        accountId: ctx.row.accountId,
        kind: quote.net > 0 ? "charge" : "adjustment",
        amount: Math.abs(quote.net),
        currency: target.currency,
        reason: `Plan change from ${current.name} to ${target.name} for ${quote.remainingDays} of ${quote.cycleDays} days`,
        actorUid: ctx.principal.uid,
        actorRole: ctx.principal.role,
        idempotencyKey: `change-plan:${order.id}`,
        reference: { type: "order", id: order.id },
      });
    }
    await ctx.tx.update(lines).set({ planId: target.id, updatedAt: new Date() }).where(eq(lines.id, ctx.row.id));
    await liftCapsAfterPlanChange(ctx.tx, ctx.row.id);
    await tell(ctx, "plan.changed", { planName: target.name });
    return { order };
  },

  async preview(ctx): Promise<Quote> {
    const { target: targetRow, current: currentRow, accountType } = await planChange(ctx);
    // The quote names the plans as the catalog does in the caller's language ("Prepago Ilimitado").
    const named = <Plan extends { name: string }>(plan: Plan) => ({
      ...plan,
      name: catalogNameIn(plan, ctx.locale ?? "en"),
    });
    const target = named(targetRow);
    const current = named(currentRow);
    const currency = target.currency;
    if (ctx.input.effective === "next-cycle") {
      const { cycleEnd } = quotePlanChange(current.priceAmount, target.priceAmount, ctx.row.cycleDay, new Date());
      return {
        summary: "resources.lines.preview.changePlanNextCycle",
        params: { msisdn: ctx.row.msisdn, plan: target.name, date: cycleEnd },
        lines: [
          { label: "resources.lines.preview.noChargeNow" },
          { label: "resources.lines.preview.newMonthlyPrice", amount: money(target.priceAmount, currency) },
        ],
        total: money(0, currency),
      };
    }
    const quote = quotePlanChange(current.priceAmount, target.priceAmount, ctx.row.cycleDay, new Date());
    const days = { days: quote.remainingDays, cycleDays: quote.cycleDays };
    return {
      summary: "resources.lines.preview.changePlanNow",
      params: { msisdn: ctx.row.msisdn, plan: target.name },
      lines: [
        {
          label: "resources.lines.preview.creditOldPlan",
          params: { plan: current.name, ...days },
          amount: money(-quote.credit, currency),
        },
        {
          label: "resources.lines.preview.chargeNewPlan",
          params: { plan: target.name, ...days },
          amount: money(quote.charge, currency),
        },
        // Postpaid: the net is neither taken nor given now; it is a line of the next bill (a credit comes off it).
        ...(accountType === "postpaid" && quote.net !== 0
          ? [
              {
                label:
                  quote.net > 0
                    ? "resources.lines.preview.chargeOnNextBill"
                    : "resources.lines.preview.creditOnNextBill",
              },
            ]
          : []),
      ],
      total: money(quote.net, currency),
    };
  },
};

async function tell(ctx: Ctx, kind: "plan.changed" | "plan.change_scheduled", params: Record<string, string>) {
  if (!ctx.row.ownerUid) return;
  await ctx.effects.notify({
    recipientUid: ctx.row.ownerUid,
    kind,
    params: { msisdn: ctx.row.msisdn, byRole: ctx.principal.role, ...params },
    link: `/lines/show/${ctx.row.id}`,
  });
}
