import { and, eq } from "drizzle-orm";
import type { PaymentMethod } from "#resources/paymentMethods";
import type { Executor } from "../../audit";
import { paymentMethods } from "../../db/schema";

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

export const toPaymentMethod = (row: PaymentMethodRow): PaymentMethod => ({
  id: row.id,
  ownerUid: row.ownerUid,
  type: row.type,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.expMonth,
  expYear: row.expYear,
  bankName: row.bankName,
  accountHolderType: row.accountHolderType,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
});

/** Makes one saved card the holder's default (the others stop being it), in the caller's transaction. */
export async function makeDefault(tx: Executor, row: Pick<PaymentMethodRow, "id" | "operatorCode" | "ownerUid">) {
  const holder = and(eq(paymentMethods.operatorCode, row.operatorCode), eq(paymentMethods.ownerUid, row.ownerUid));
  await tx
    .update(paymentMethods)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(holder, eq(paymentMethods.isDefault, true)));
  await tx.update(paymentMethods).set({ isDefault: true, updatedAt: new Date() }).where(eq(paymentMethods.id, row.id));
}
