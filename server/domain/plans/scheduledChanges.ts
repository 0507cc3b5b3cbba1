import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { lines, plans } from "../../db/schema";
import type { EventBus } from "../../live/eventBus";
import { advanceOrder } from "../orders/orderFlow";
import { runDueOrders } from "../orders/scheduledOrders";

/** The cron job that carries out next-cycle plan changes once their cycle has started. */
export const SCHEDULED_PLAN_CHANGES_JOB = "plans.run-scheduled-changes";

/**
 * Carries out every acknowledged change_plan order whose time has come (server/domain/orders/
 * scheduledOrders.ts): the line moves to the new plan and the order completes; a plan retired since
 * it was chosen fails the order and the line stays. Returns how many ran.
 */
export function runDuePlanChanges(db: Db, events: Pick<EventBus, "publish">, now = new Date()): Promise<number> {
  return runDueOrders(db, events, "change_plan", now, async (ctx, order) => {
    const planId = String(order.details.toPlanId);
    const [plan] = await ctx.tx
      .select({ name: plans.name, status: plans.status })
      .from(plans)
      .where(eq(plans.id, planId));
    const [line] = await ctx.tx.select({ msisdn: lines.msisdn }).from(lines).where(eq(lines.id, order.lineId!));
    if (!plan || plan.status !== "active") {
      // Retired since it was chosen: the line stays on its plan and the holder is told.
      await advanceOrder(ctx, order, "failed", "system", "the plan is no longer offered");
      return;
    }
    await ctx.tx.update(lines).set({ planId, updatedAt: new Date() }).where(eq(lines.id, order.lineId!));
    await advanceOrder(ctx, order, "completed", "system");
    const ownerUids = order.ownerUid ? [order.ownerUid] : [];
    ctx.effects.publish({ resource: "lines", type: "updated", ids: [order.lineId!], ownerUids });
    if (order.ownerUid)
      await ctx.effects.notify({
        recipientUid: order.ownerUid,
        kind: "plan.changed",
        params: { msisdn: line!.msisdn, byRole: "system", planName: plan.name },
        link: `/lines/show/${order.lineId}`,
      });
  });
}
