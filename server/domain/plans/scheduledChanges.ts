import { and, eq, lte } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { OrderStep } from "#resources/orders";
import type { Db } from "../../db/client";
import { accounts, lines, notifications, orders, plans } from "../../db/schema";
import type { Effects } from "../../engine/effects";
import type { EventBus } from "../../live/eventBus";
import { advanceOrder } from "../orders/orderFlow";

/** The cron job that carries out next-cycle plan changes once their cycle has started. */
export const SCHEDULED_PLAN_CHANGES_JOB = "plans.run-scheduled-changes";

/** Effects of a system job: notices and events, with no person behind them (audit rows come from the order's timeline). */
export function systemEffects(
  tx: Parameters<Parameters<Db["transaction"]>[0]>[0],
  operator: string,
  pending: ResourceEvent[],
): Pick<Effects, "publish" | "notify"> {
  const publish: Effects["publish"] = (event) => pending.push({ ...event, operator, at: new Date().toISOString() });
  return {
    publish,
    async notify({ recipientUid, kind, params, link }) {
      const [row] = await tx
        .insert(notifications)
        .values({ operatorCode: operator, recipientUid, kind, params, link: link ?? null })
        .returning({ id: notifications.id });
      publish({ resource: "notifications", type: "created", ids: [row!.id], ownerUids: [recipientUid] });
    },
  };
}

/**
 * Carries out every acknowledged change_plan order whose time has come: the line moves to the new
 * plan and the order goes in_progress → completed, in one transaction per order. Orders are locked
 * with SKIP LOCKED, so two instances never run the same one; a run after a crash picks up what is
 * left (the orders table is the durable schedule, the job only its clock). Returns how many ran.
 */
export async function runDuePlanChanges(db: Db, events: Pick<EventBus, "publish">, now = new Date()): Promise<number> {
  let done = 0;
  for (;;) {
    const pending: ResourceEvent[] = [];
    const ran = await db.transaction(async (tx) => {
      const [order] = await tx
        .select({
          id: orders.id,
          state: orders.state,
          timeline: orders.timeline,
          details: orders.details,
          lineId: orders.lineId,
          operatorCode: orders.operatorCode,
          ownerUid: accounts.ownerUid,
        })
        .from(orders)
        .innerJoin(accounts, eq(orders.accountId, accounts.id))
        .where(and(eq(orders.type, "change_plan"), eq(orders.state, "acknowledged"), lte(orders.scheduledFor, now)))
        .orderBy(orders.scheduledFor)
        .limit(1)
        .for("update", { of: orders, skipLocked: true });
      if (!order) return false;
      const effects = systemEffects(tx, order.operatorCode, pending);
      const ctx = { tx, effects: effects as Effects };
      const planId = String(order.details.toPlanId);
      await advanceOrder(ctx, order, "in_progress", "system");
      const [plan] = await tx
        .select({ name: plans.name, status: plans.status })
        .from(plans)
        .where(eq(plans.id, planId));
      const [line] = await tx.select({ msisdn: lines.msisdn }).from(lines).where(eq(lines.id, order.lineId!));
      const inProgress = {
        ...order,
        state: "in_progress" as const,
        timeline: [
          ...order.timeline,
          { state: "in_progress", at: new Date().toISOString(), byRole: "system", note: null } as OrderStep,
        ],
      };
      if (!plan || plan.status !== "active") {
        // Retired since it was chosen: the line stays on its plan and the holder is told.
        await advanceOrder(ctx, inProgress, "failed", "system", "the plan is no longer offered");
        return true;
      }
      await tx.update(lines).set({ planId, updatedAt: new Date() }).where(eq(lines.id, order.lineId!));
      await advanceOrder(ctx, inProgress, "completed", "system");
      pending.push({
        operator: order.operatorCode,
        resource: "lines",
        type: "updated",
        ids: [order.lineId!],
        ownerUids: order.ownerUid ? [order.ownerUid] : [],
        at: new Date().toISOString(),
      });
      if (order.ownerUid) {
        await effects.notify({
          recipientUid: order.ownerUid,
          kind: "plan.changed",
          params: { msisdn: line!.msisdn, byRole: "system", planName: plan.name },
          link: `/lines/show/${order.lineId}`,
        });
      }
      return true;
    });
    for (const event of pending) await events.publish(event).catch(() => undefined);
    if (!ran) return done;
    done++;
  }
}
