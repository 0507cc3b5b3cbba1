import { and, desc, eq, ne } from "drizzle-orm";
import { paymentMethods } from "../../db/schema";
import type { ActionHandler, DomainModule } from "../../engine/types";
import { heldBy, tableSource } from "../tableSource";
import { makeDefault, toPaymentMethod, type PaymentMethodRow } from "./records";
import { paymentMethodRoutes } from "./routes";

/**
 * Saved cards: a subscriber's own (brand, last 4, expiry; the number stays at the gateway); staff
 * read them. Added by the module's route (POST /payment-methods exchanges a token at the gateway),
 * removed through the record API, made default by an action.
 */
export const paymentMethodsModule: DomainModule<PaymentMethodRow> = {
  source: tableSource({
    table: paymentMethods,
    owner: paymentMethods.ownerUid,
    columns: {
      isDefault: paymentMethods.isDefault,
      ownerUid: paymentMethods.ownerUid,
      createdAt: paymentMethods.createdAt,
      type: paymentMethods.type,
    },
    toRecord: toPaymentMethod,
    ownerUids: heldBy,
  }),
  extraRoutes: paymentMethodRoutes,
  writer: {
    async remove(ctx, row) {
      await ctx.tx.delete(paymentMethods).where(eq(paymentMethods.id, row.id));
      if (!row.isDefault) return;
      // The newest remaining card becomes the default, so there is one while any card is left.
      const [next] = await ctx.tx
        .select()
        .from(paymentMethods)
        .where(
          and(
            eq(paymentMethods.operatorCode, row.operatorCode),
            eq(paymentMethods.ownerUid, row.ownerUid),
            ne(paymentMethods.id, row.id),
          ),
        )
        .orderBy(desc(paymentMethods.createdAt))
        .limit(1);
      if (next) await makeDefault(ctx.tx, next);
    },
  },
};

/** payment-methods/{id}/actions/set-default. */
export const setDefaultPaymentMethod: ActionHandler<PaymentMethodRow> = {
  async run(ctx) {
    await makeDefault(ctx.tx, ctx.row);
  },
};
