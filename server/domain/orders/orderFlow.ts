import { eq } from "drizzle-orm";
import { canTransition, type OrderState, type OrderStep, type OrderType } from "#resources/orders";
import type { Role } from "#resources/define";
import { orders } from "../../db/schema";
import { conflict } from "../../errors";
import { words } from "../../i18n/words";
import type { WriteContext } from "../../engine/types";

export interface NewOrder {
  type: OrderType;
  accountId: string;
  lineId: string | null;
  /** The subscriber who owns the account (live events and notices go to them). */
  ownerUid: string | null;
  details?: Record<string, unknown>;
  effective?: "now" | "next_cycle";
  scheduledFor?: Date | null;
  reason?: string | null;
}

export type OrderRef = { id: string; type: OrderType; state: OrderState };

const step = (state: OrderState, byRole: Role | "system", note: string | null = null): OrderStep => ({
  state,
  at: new Date().toISOString(),
  byRole,
  note,
});

/**
 * Places an order (TMF622) in the caller's transaction. `complete: true` carries it through
 * in_progress to completed at once, for changes the network applies immediately (suspend, restore,
 * SIM swap): its timeline then shows all three steps. Otherwise it waits acknowledged (next cycle).
 */
export async function placeOrder(
  ctx: WriteContext,
  order: NewOrder,
  options: { complete: boolean },
): Promise<OrderRef> {
  const by = ctx.principal.role;
  const timeline = options.complete
    ? [step("acknowledged", by), step("in_progress", "system"), step("completed", "system")]
    : [step("acknowledged", by)];
  const state: OrderState = options.complete ? "completed" : "acknowledged";
  const [row] = await ctx.tx
    .insert(orders)
    .values({
      operatorCode: ctx.principal.operator,
      accountId: order.accountId,
      lineId: order.lineId,
      type: order.type,
      state,
      effective: order.effective ?? "now",
      scheduledFor: order.scheduledFor ?? null,
      details: order.details ?? {},
      timeline,
      requestedBy: ctx.principal.uid,
      requestedByRole: by,
      reason: order.reason ?? null,
    })
    .returning({ id: orders.id });
  ctx.effects.publish({
    resource: "orders",
    type: "created",
    ids: [row!.id],
    ownerUids: order.ownerUid ? [order.ownerUid] : [],
  });
  return { id: row!.id, type: order.type, state };
}

/** Moves an order to its next state (409 when the state machine does not allow it), appending to its timeline. */
export async function advanceOrder(
  ctx: Pick<WriteContext, "tx" | "effects">,
  current: { id: string; state: OrderState; timeline: OrderStep[]; ownerUid: string | null },
  to: OrderState,
  byRole: Role | "system",
  note: string | null = null,
): Promise<void> {
  if (!canTransition(current.state, to)) {
    const from = words(`orders.state.${current.state}`);
    throw conflict(words("orders.cannotBecome", { from, to: words(`orders.state.${to}`) }), [
      { path: "state", message: words("orders.isState", { state: from }) },
    ]);
  }
  await ctx.tx
    .update(orders)
    .set({ state: to, timeline: [...current.timeline, step(to, byRole, note)], updatedAt: new Date() })
    .where(eq(orders.id, current.id));
  ctx.effects.publish({
    resource: "orders",
    type: "updated",
    ids: [current.id],
    ownerUids: current.ownerUid ? [current.ownerUid] : [],
  });
}
