import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { portInCorrectionSchema } from "#resources/orders";
import { orders, portInSubmissions } from "../../db/schema";
import type { ActionHandler } from "../../engine/types";
import type { OrderRow } from "../orders/module";
import { advanceOrder } from "../orders/orderFlow";
import { portInDetailsOf } from "./submit";

type Correction = z.output<typeof portInCorrectionSchema>;

/**
 * orders/{id}/actions/resubmit-port-in: a port-in the exchange rejected (`pending`) takes the
 * corrected account number, transfer PIN (sealed at once; never stored in clear, returned or logged)
 * and ZIP, goes back to in_progress and is queued for the exchange again (./send.ts sends it after
 * the commit). The holder is told, whoever resubmitted it.
 */
export const resubmitPortIn: ActionHandler<OrderRow, Correction> = {
  async run(ctx) {
    const order = ctx.row;
    const details = portInDetailsOf(order.details)!;
    const portIn = {
      ...details.portIn,
      carrierAccount: ctx.input.carrierAccount,
      zip: ctx.input.zip,
      transferPinCipher: ctx.services.secrets.seal(ctx.input.transferPin),
      rejection: null,
    };
    await ctx.tx
      .update(orders)
      .set({ details: { ...order.details, portIn } })
      .where(eq(orders.id, order.id));
    await advanceOrder(ctx, order, "in_progress", ctx.principal.role, "orders.portIn.resubmitted");
    await ctx.tx.insert(portInSubmissions).values({ operatorCode: ctx.principal.operator, orderId: order.id });
    if (order.ownerUid)
      await ctx.effects.notify({
        recipientUid: order.ownerUid,
        kind: "port_in.resubmitted",
        params: { msisdn: portIn.msisdn, byRole: ctx.principal.role },
        link: `/orders/show/${order.id}`,
      });
    return { order: { id: order.id, type: order.type, state: "in_progress" } };
  },
};
