import { and, eq, lte } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { Db } from "../../db/client";
import { accounts, lines, orders } from "../../db/schema";
import type { Effects } from "../../engine/effects";
import type { EventBus } from "../../live/eventBus";
import { advanceOrder } from "../orders/orderFlow";
import { systemEffects } from "../plans/scheduledChanges";
import type { LineRow } from "./module";
import { terminateLine } from "./lifecycle";

/** The cron job that ends lines whose cancellation was scheduled for the end of their cycle. */
export const SCHEDULED_CANCELLATIONS_JOB = "lines.run-scheduled-cancellations";

/**
 * Carries out every acknowledged `terminate` order whose time has come (lines/{id}/actions/cancel
 * with when "cycle-end"), like next-cycle plan changes (plans/scheduledChanges.ts): one transaction
 * per order, locked with SKIP LOCKED so two instances never run the same one. Returns how many ran.
 */
export async function runDueCancellations(
  db: Db,
  events: Pick<EventBus, "publish">,
  now = new Date(),
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
          lineId: orders.lineId,
          operatorCode: orders.operatorCode,
          ownerUid: accounts.ownerUid,
        })
        .from(orders)
        .innerJoin(accounts, eq(orders.accountId, accounts.id))
        .where(and(eq(orders.type, "terminate"), eq(orders.state, "acknowledged"), lte(orders.scheduledFor, now)))
        .orderBy(orders.scheduledFor)
        .limit(1)
        .for("update", { of: orders, skipLocked: true });
      if (!order) return false;
      const effects = systemEffects(tx, order.operatorCode, pending) as Effects;
      const ctx = { tx, effects };
      await advanceOrder(ctx, order, "in_progress", "system");
      const [line] = await tx
        .select({
          id: lines.id,
          accountId: lines.accountId,
          accountType: accounts.type,
          ownerUid: accounts.ownerUid,
          msisdn: lines.msisdn,
          status: lines.status,
          cycleDay: lines.cycleDay,
        })
        .from(lines)
        .innerJoin(accounts, eq(accounts.id, lines.accountId))
        .where(eq(lines.id, order.lineId!))
        .for("update", { of: lines });
      const [moved] = await tx.select({ timeline: orders.timeline }).from(orders).where(eq(orders.id, order.id));
      const inProgress = { ...order, state: "in_progress" as const, timeline: moved!.timeline };
      if (!line || line.status === "terminated") {
        await advanceOrder(ctx, inProgress, "failed", "system", "the line had already ended");
        return true;
      }
      await terminateLine(
        { ...ctx, actor: { uid: null, role: "system" } },
        line as unknown as LineRow,
        "cycle-end",
        now,
      );
      await advanceOrder(ctx, inProgress, "completed", "system");
      pending.push({
        operator: order.operatorCode,
        resource: "lines",
        type: "updated",
        ids: [line.id],
        ownerUids: order.ownerUid ? [order.ownerUid] : [],
        at: new Date().toISOString(),
      });
      if (order.ownerUid)
        await effects.notify({
          recipientUid: order.ownerUid,
          kind: "line.cancelled",
          params: { msisdn: line.msisdn, byRole: "system" },
          link: `/lines/show/${line.id}`,
        });
      return true;
    });
    for (const event of pending) await events.publish(event).catch(() => undefined);
    if (!ran) return done;
    done++;
  }
}
