import { z } from "zod";
import { toCsv } from "./csv";
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
    count: z
      .number()
      .int("validation.wholeNumber")
      .min(1, "validation.atLeast")
      .max(MAX_VOUCHERS_PER_BATCH, "validation.atMost"),
    value: moneySchema.extend({
      amount: z
        .number()
        .int("validation.wholeCents")
        .positive("validation.moreThanZero")
        .max(MAX_VOUCHER_VALUE, "validation.atMostMoney"),
    }),
    expiresOn: isoDate.refine((day) => day >= new Date().toISOString().slice(0, 10), "validation.notPast"),
  })
  .strict();

/** The answer of `POST /voucher-batches`: the batch and its codes, shown this once (a replay under the same Idempotency-Key has none). */
export const createdVoucherBatchSchema = voucherBatchSchema.extend({ codes: z.array(z.string()) });

/**
 * A batch's codes as CSV, one line per code: what `POST /voucher-batches` answers with `Accept:
 * text/csv`, and what the portal saves from the codes it was shown (it cannot ask for them again).
 */
export function voucherCodesCsv(
  batch: { value: { amount: number; currency: string }; expiresOn: string },
  codes: readonly string[],
): string {
  return toCsv([
    ["code", "value_minor", "currency", "valid_through"],
    ...codes.map((code) => [code, batch.value.amount, batch.value.currency, batch.expiresOn]),
  ]);
}

/** What `POST /accounts/{id}/actions/redeem-voucher` takes: the code as printed, dashes and spaces allowed. */
export const voucherCodeSchema = z
  .string()
  .trim()
  .min(4, "validation.voucherCode")
  .max(40, "validation.voucherCodeTooLong");

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
      "resources.voucher-batches.create.title": "Generate vouchers",
      "resources.voucher-batches.create.count": "How many vouchers",
      "resources.voucher-batches.create.countHelp": "From 1 to {{max}} in one batch.",
      "resources.voucher-batches.create.value": "Value of each voucher",
      "resources.voucher-batches.create.expiresOn": "Valid through",
      "resources.voucher-batches.create.submit": "Generate vouchers",
      "resources.voucher-batches.create.failed": "The vouchers could not be generated. Try again.",
      "resources.voucher-batches.created.summary": "{{count}} vouchers of {{value}} each, valid through {{expiresOn}}",
      "resources.voucher-batches.created.onceTitle": "Save these codes now: they will not be shown again",
      "resources.voucher-batches.created.onceBody":
        "Only a fingerprint of each code is kept, so nobody can show them to you later. Download the CSV or copy them before you leave this page.",
      "resources.voucher-batches.created.codes": "Voucher codes",
      "resources.voucher-batches.created.download": "Download CSV",
      "resources.voucher-batches.created.noCodes":
        "This batch was already created by an earlier attempt; its codes were shown then and cannot be shown again.",
      "resources.voucher-batches.created.another": "Generate another batch",
      "resources.voucher-batches.created.leave": "Have you saved the codes? They will not be shown again.",
      "resources.voucher-batches.created.back": "Back to vouchers",
    },
    es: {
      "resources.voucher-batches.label": "Cupones",
      "fields.voucherCount": "Cupones",
      "fields.voucherValue": "Valor de cada uno",
      "fields.expiresOn": "Válido hasta",
      "fields.redeemedCount": "Canjeados",
      "resources.voucher-batches.create.title": "Generar cupones",
      "resources.voucher-batches.create.count": "Cuántos cupones",
      "resources.voucher-batches.create.countHelp": "De 1 a {{max}} por lote.",
      "resources.voucher-batches.create.value": "Valor de cada cupón",
      "resources.voucher-batches.create.expiresOn": "Válido hasta",
      "resources.voucher-batches.create.submit": "Generar cupones",
      "resources.voucher-batches.create.failed": "No se pudieron generar los cupones. Inténtalo de nuevo.",
      "resources.voucher-batches.created.summary":
        "{{count}} cupones de {{value}} cada uno, válidos hasta el {{expiresOn}}",
      "resources.voucher-batches.created.onceTitle": "Guarda estos códigos ahora: no se volverán a mostrar",
      "resources.voucher-batches.created.onceBody":
        "Solo se guarda una huella de cada código, así que nadie podrá mostrártelos después. Descarga el CSV o cópialos antes de salir de esta página.",
      "resources.voucher-batches.created.codes": "Códigos de los cupones",
      "resources.voucher-batches.created.download": "Descargar CSV",
      "resources.voucher-batches.created.noCodes":
        "Este lote ya se creó en un intento anterior; sus códigos se mostraron entonces y no se pueden volver a mostrar.",
      "resources.voucher-batches.created.another": "Generar otro lote",
      "resources.voucher-batches.created.leave": "¿Guardaste los códigos? No se volverán a mostrar.",
      "resources.voucher-batches.created.back": "Volver a cupones",
    },
  },
});
