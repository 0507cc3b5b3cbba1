import { defineWords } from "../defineWords";

/** Creating a batch of prepaid vouchers. */
export const voucherBatchesWords = defineWords({
  "voucherBatches.roleMayNotCreate": {
    en: "Your role ({{role}}) may not create voucher batches.",
    es: "Tu rol ({{role}}) no permite crear lotes de cupones.",
  },
  "voucherBatches.currency": { en: "Vouchers are in {{currency}}.", es: "Los cupones son en {{currency}}." },
  "voucherBatches.mustBeCurrency": { en: "must be {{currency}}", es: "debe ser {{currency}}" },
});
