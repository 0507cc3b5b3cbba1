import type { DomainModule } from "../../engine/types";
import { voucherBatchRecords, type VoucherBatchRow } from "./records";
import { voucherBatchRoutes } from "./routes";

export type { VoucherBatchRow } from "./records";

/** Voucher batches of the operator, for its admins; created by the module's own route (codes shown once). */
export const voucherBatchesModule: DomainModule<VoucherBatchRow> = {
  ...voucherBatchRecords,
  extraRoutes: voucherBatchRoutes,
};
