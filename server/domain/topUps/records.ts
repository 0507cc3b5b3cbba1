import { getTableColumns } from "drizzle-orm";
import type { TopUp } from "#resources/topUps";
import { accounts, topUps } from "../../db/schema";

export type TopUpRow = typeof topUps.$inferSelect & { ownerUid: string | null };

export const topUpSelection = { ...getTableColumns(topUps), ownerUid: accounts.ownerUid };

export const toTopUp = (row: TopUpRow): TopUp => ({
  id: row.id,
  accountId: row.accountId,
  amount: { amount: row.amount, currency: row.currency },
  status: row.status,
  refund: row.refund,
  gatewayCaptured: row.gatewayCaptured,
  paymentMethodId: row.paymentMethodId,
  failureReason: row.failureReason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
