import type { ActionHandler } from "../../engine/types";
import type { OrderRow } from "./module";
import { advanceOrder } from "./orderFlow";

/** orders/{id}/actions/cancel: an order still acknowledged (not yet carried out) is dropped. */
export const cancelOrder: ActionHandler<OrderRow> = {
  async run(ctx) {
    const order = ctx.row;
    await advanceOrder(ctx, order, "cancelled", ctx.principal.role, ctx.reason);
    if (order.ownerUid) {
      await ctx.effects.notify({
        recipientUid: order.ownerUid,
        kind: "order.cancelled",
        params: { msisdn: order.msisdn, byRole: ctx.principal.role, orderType: order.type },
        link: `/orders/show/${order.id}`,
      });
    }
  },
};
