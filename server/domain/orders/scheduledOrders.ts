import { and, eq, lte } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { OrderState, OrderStep, OrderType } from "#resources/orders";
import type { Db } from "../../db/client";
import { accounts, notifications, orders } from "../../db/schema";
import type { Effects } from "../../engine/effects";
import type { EventBus } from "../../live/eventBus";
import { advanceOrder } from "./orderFlow";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Effects of a system job: notices and events, with no person behind them (audit rows come from the order's timeline). */
export function systemEffects(tx: Tx, operator: string, pending: ResourceEvent[]): Pick<Effects, "publish" | "notify"> {
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

/** A scheduled order once it is under way: what carrying it out needs. */
export interface DueOrder {
  id: string;
  state: OrderState;
  timeline: OrderStep[];
  details: Record<string, unknown>;
  lineId: string | null;
  operatorCode: string;
  ownerUid: string | null;
}

/**
 * Carries out every acknowledged order of `type` whose time has come (next-cycle plan changes,
 * cancellations at cycle end), one transaction per order: it is taken with SKIP LOCKED (two instances
 * never run the same one; after a crash the rest is picked up: the orders table is the durable
 * schedule, the job only its clock), moved to in_progress, then `carryOut` completes or fails it.
 * Events are published after each commit. Returns how many ran.
 */
export async function runDueOrders(
  db: Db,
  events: Pick<EventBus, "publish">,
  type: OrderType,
  now: Date,
  carryOut: (ctx: { tx: Tx; effects: Effects }, order: DueOrder) => Promise<void>,
): Promise<number> {
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
        .where(and(eq(orders.type, type), eq(orders.state, "acknowledged"), lte(orders.scheduledFor, now)))
        .orderBy(orders.scheduledFor)
        .limit(1)
        .for("update", { of: orders, skipLocked: true });
      if (!order) return false;
      const ctx = { tx, effects: systemEffects(tx, order.operatorCode, pending) as Effects };
      await advanceOrder(ctx, order, "in_progress", "system");
      const [moved] = await tx.select({ timeline: orders.timeline }).from(orders).where(eq(orders.id, order.id));
      await carryOut(ctx, { ...order, state: "in_progress", timeline: moved!.timeline });
      return true;
    });
    for (const event of pending) await events.publish(event).catch(() => undefined);
    if (!ran) return done;
    done++;
  }
}
