import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, lines } from "../../db/schema";
import type { EventBus } from "../../live/eventBus";
import { advanceOrder } from "../orders/orderFlow";
import { runDueOrders } from "../orders/scheduledOrders";
import type { LineRow } from "./module";
import { terminateLine } from "./lifecycle";

/** The cron job that ends lines whose cancellation was scheduled for the end of their cycle. */
export const SCHEDULED_CANCELLATIONS_JOB = "lines.run-scheduled-cancellations";

/**
 * Carries out every acknowledged `terminate` order whose time has come (lines/{id}/actions/cancel
 * with when "cycle-end"), as next-cycle plan changes are (server/domain/orders/scheduledOrders.ts).
 * A line that had already ended fails the order. Returns how many ran.
 */
export function runDueCancellations(db: Db, events: Pick<EventBus, "publish">, now = new Date()): Promise<number> {
  return runDueOrders(db, events, "terminate", now, async (ctx, order) => {
    const [line] = await ctx.tx
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
    if (!line || line.status === "terminated") {
      await advanceOrder(ctx, order, "failed", "system", "the line had already ended");
      return;
    }
    await terminateLine({ ...ctx, actor: { uid: null, role: "system" } }, line as unknown as LineRow, "cycle-end", now);
    await advanceOrder(ctx, order, "completed", "system");
    const ownerUids = order.ownerUid ? [order.ownerUid] : [];
    ctx.effects.publish({ resource: "lines", type: "updated", ids: [line.id], ownerUids });
    if (order.ownerUid)
      await ctx.effects.notify({
        recipientUid: order.ownerUid,
        kind: "line.cancelled",
        params: { msisdn: line.msisdn, byRole: "system" },
        link: `/lines/show/${line.id}`,
      });
  });
}
