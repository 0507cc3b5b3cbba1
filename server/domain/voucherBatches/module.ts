import { count, eq, sql } from "drizzle-orm";
import type { VoucherBatch } from "#resources/voucherBatches";
import type { Executor } from "../../audit";
import { voucherBatches } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { voucherBatchRoutes } from "./routes";

const selection = {
  id: voucherBatches.id,
  operatorCode: voucherBatches.operatorCode,
  count: voucherBatches.count,
  valueAmount: voucherBatches.valueAmount,
  currency: voucherBatches.currency,
  expiresOn: voucherBatches.expiresOn,
  createdAt: voucherBatches.createdAt,
  // Spelled out: drizzle leaves columns of a one-table select unqualified, and "id" would mean the voucher's.
  redeemedCount: sql<number>`(select count(*)::int from vouchers v where v.batch_id = voucher_batches.id and v.status = 'redeemed')`,
};

export type VoucherBatchRow = {
  id: string;
  operatorCode: string;
  count: number;
  valueAmount: number;
  currency: string;
  expiresOn: string;
  createdAt: Date;
  redeemedCount: number;
};

export const toVoucherBatch = (row: VoucherBatchRow): VoucherBatch => ({
  id: row.id,
  count: row.count,
  value: { amount: row.valueAmount, currency: row.currency },
  expiresOn: row.expiresOn,
  redeemedCount: Number(row.redeemedCount),
  createdAt: row.createdAt.toISOString(),
});

/** Voucher batches of the operator, for its admins; created by the module's own route (codes shown once). */
export const voucherBatchesModule: DomainModule<VoucherBatchRow> = {
  source: {
    rows: (db: Executor) => db.select(selection).from(voucherBatches).$dynamic(),
    count: (db: Executor) => db.select({ total: count() }).from(voucherBatches).$dynamic(),
    id: voucherBatches.id,
    table: voucherBatches,
    columns: { createdAt: voucherBatches.createdAt, expiresOn: voucherBatches.expiresOn },
    scope: (principal) => eq(voucherBatches.operatorCode, principal.operator),
    toRecord: toVoucherBatch,
    ownerUids: () => [],
  },
  extraRoutes: voucherBatchRoutes,
};
