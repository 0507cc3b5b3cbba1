import { sql } from "drizzle-orm";
import type { VoucherBatch } from "#resources/voucherBatches";
import { voucherBatches } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

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

/**
 * How voucher batches are read, without their routes: ./routes.ts answers a new batch through this
 * and ./module.ts adds the routes, so neither imports the other.
 */
export const voucherBatchRecords: DomainModule<VoucherBatchRow> = {
  source: tableSource({
    table: voucherBatches,
    selection,
    columns: { createdAt: voucherBatches.createdAt, expiresOn: voucherBatches.expiresOn },
    toRecord: toVoucherBatch,
  }),
};
