import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDate, isoDateTime, moneySchema } from "./common";

/** Most vouchers one batch may hold, and most one voucher may be worth (minor units). */
export const MAX_VOUCHERS_PER_BATCH = 1_000;
export const MAX_VOUCHER_VALUE = 50_000;

/** A batch of prepaid vouchers an admin generated: the codes were shown once and are kept only as hashes. */
export const voucherBatchSchema = z.object({
  id: idSchema,
  count: z.number().int().positive(),
  value: moneySchema,
  /** The last day the codes can be redeemed (inclusive, UTC). */
  expiresOn: isoDate,
  redeemedCount: z.number().int().nonnegative(),
  createdAt: isoDateTime,
});
export type VoucherBatch = z.output<typeof voucherBatchSchema>;

/** What `POST /voucher-batches` takes. */
export const newVoucherBatchSchema = z
  .object({
    count: z.number().int("a whole number").min(1, "at least 1").max(MAX_VOUCHERS_PER_BATCH, `at most ${MAX_VOUCHERS_PER_BATCH}`),
    value: moneySchema.extend({ amount: z.number().int("whole minor units (cents)").positive("more than zero").max(MAX_VOUCHER_VALUE, "at most $500.00") }),
    expiresOn: isoDate.refine((day) => day >= new Date().toISOString().slice(0, 10), "cannot be in the past"),
  })
  .strict();

/** The answer of `POST /voucher-batches`: the batch and its codes, shown this once (a replay under the same Idempotency-Key has none). */
export const createdVoucherBatchSchema = voucherBatchSchema.extend({ codes: z.array(z.string()) });

/** What `POST /accounts/{id}/actions/redeem-voucher` takes: the code as printed, dashes and spaces allowed. */
export const voucherCodeSchema = z.string().trim().min(4, "the code printed on the voucher").max(40, "too long for a voucher code");

export const voucherBatchesResource = defineResource({
  name: "voucher-batches",
  store: "table",
  label: "resources.voucher-batches.label",
  icon: "GiftOutlined",
  schema: voucherBatchSchema,
  recordTitle: "createdAt",
  fields: {
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    count: { label: "fields.voucherCount", kind: "number" },
    value: { label: "fields.voucherValue", kind: "money" },
    expiresOn: { label: "fields.expiresOn", kind: "date" },
    redeemedCount: { label: "fields.redeemedCount", kind: "number" },
  },
  list: {
    columns: ["createdAt", "count", "value", "expiresOn", "redeemedCount"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "expiresOn"],
    filters: { expiresOn: ["gte", "lte", "between"] },
  },
  show: ["createdAt", "count", "value", "expiresOn", "redeemedCount"],
  access: {
    list: { admin: "all" },
    show: { admin: "all" },
    // POST /voucher-batches is the module's own route: its answer carries codes shown once.
    create: { admin: "all" },
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.voucher-batches.label": "Vouchers",
      "fields.voucherCount": "Vouchers",
      "fields.voucherValue": "Value each",
      "fields.expiresOn": "Valid through",
      "fields.redeemedCount": "Redeemed",
    },
    es: {
      "resources.voucher-batches.label": "Cupones",
      "fields.voucherCount": "Cupones",
      "fields.voucherValue": "Valor de cada uno",
      "fields.expiresOn": "Válido hasta",
      "fields.redeemedCount": "Canjeados",
    },
  },
});
