import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";
import { cardTokenSchema } from "./topUps";

export const CARD_BRANDS = ["visa", "mastercard", "amex", "discover", "unknown"] as const;
/** A card, or a US bank account (ACH: bills only, through the bill-payment gateway). */
export const PAYMENT_METHOD_TYPES = ["card", "bank_account"] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];
export const ACCOUNT_HOLDER_TYPES = ["individual", "company"] as const;

/**
 * A saved card or bank account, as the gateway described it: never its number, only the last 4 and,
 * for a card, brand and expiry; for a bank account, the bank's name and who holds it.
 */
export const paymentMethodSchema = z.object({
  id: idSchema,
  /** The holder's uid: a form acting on an account offers only its holder's cards (`filter[ownerUid]`). */
  ownerUid: z.string(),
  type: z.enum(PAYMENT_METHOD_TYPES),
  brand: z.enum(CARD_BRANDS).nullable(),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int().min(1).max(12).nullable(),
  expYear: z.number().int().min(2000).max(2100).nullable(),
  bankName: z.string().nullable(),
  accountHolderType: z.enum(ACCOUNT_HOLDER_TYPES).nullable(),
  isDefault: z.boolean(),
  createdAt: isoDateTime,
});
export type PaymentMethod = z.output<typeof paymentMethodSchema>;

/** A one-time bank account token from the bill-payment gateway's tokenizer (never an account number). */
export const bankAccountTokenSchema = z
  .string()
  .min(8, "validation.cardToken")
  .max(200, "validation.cardTokenTooLong")
  .regex(/^[A-Za-z0-9_-]+$/, "validation.cardToken")
  .refine((value) => !/^\d+$/.test(value), "validation.tokenNotAccountNumber");

/**
 * What `POST /payment-methods` takes: a one-time token from the gateway's tokenizer, of a card
 * (`cardToken`) or of a bank account (`bankAccountToken`, saved at the bill-payment gateway). `for:
 * "bills"` saves a card at the bill-payment gateway too (the pay dialog); otherwise a card is saved
 * where top-ups take cards, or at the bill-payment gateway when the operator takes no card top-ups.
 */
export const newPaymentMethodSchema = z
  .object({
    cardToken: cardTokenSchema.optional(),
    bankAccountToken: bankAccountTokenSchema.optional(),
    for: z.enum(["bills", "top-ups"]).optional(),
    makeDefault: z.boolean().optional(),
  })
  .strict()
  .refine((body) => (body.cardToken === undefined) !== (body.bankAccountToken === undefined), {
    path: ["cardToken"],
    message: "validation.cardOrBank",
  });

/** The ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function routingNumberValid(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0;
}

export const paymentMethodsResource = defineResource({
  name: "payment-methods",
  store: "table",
  label: "resources.payment-methods.label",
  icon: "WalletOutlined",
  schema: paymentMethodSchema,
  recordTitle: "last4",
  fields: {
    type: {
      label: "fields.paymentMethodType",
      kind: "enum",
      options: PAYMENT_METHOD_TYPES,
      labels: "enums.paymentMethodType",
    },
    bankName: { label: "fields.bankName", kind: "text" },
    brand: { label: "fields.cardBrand", kind: "enum", options: CARD_BRANDS, labels: "enums.cardBrand" },
    last4: { label: "fields.last4", kind: "text" },
    expMonth: { label: "fields.expMonth", kind: "number" },
    expYear: { label: "fields.expYear", kind: "number" },
    isDefault: { label: "fields.isDefault", kind: "boolean" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["type", "brand", "bankName", "last4", "expMonth", "expYear", "isDefault"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt"],
    filters: { isDefault: ["eq"], ownerUid: ["eq"], type: ["eq"] },
  },
  show: ["type", "brand", "bankName", "last4", "expMonth", "expYear", "isDefault", "createdAt"],
  actions: {
    "set-default": {
      label: "resources.payment-methods.actions.set-default",
      handler: "paymentMethods.setDefault",
      when: { isDefault: [false] },
    },
  },
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    // POST /payment-methods is the module's own route: it exchanges the token at the gateway first.
    create: { subscriber: "own" },
    delete: { subscriber: "own" },
    "set-default": { subscriber: "own" },
  },
  ownership: { path: "ownerUid" },
  subscriberPlace: "money",
  subscriberCard: {
    title: [
      { text: "resources.payment-methods.card.card", when: { type: ["card"] } },
      { text: "resources.payment-methods.card.bankUnnamed", when: { type: ["bank_account"], bankName: [null] } },
      { text: "resources.payment-methods.card.bank", when: { type: ["bank_account"] } },
    ],
    lines: [
      { text: "resources.payment-methods.card.expires", when: { type: ["card"] } },
      { text: "resources.payment-methods.card.isDefault", when: { isDefault: [true] } },
    ],
    actions: ["set-default"],
    remove: true,
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.payment-methods.label": "Payment methods",
      "resources.payment-methods.empty":
        "No saved cards or bank accounts yet. One you add when you pay a bill is kept here for next time.",
      "resources.payment-methods.actions.set-default": "Make default",
      "fields.cardBrand": "Card",
      "fields.paymentMethodType": "Kind",
      "fields.bankName": "Bank",
      "enums.paymentMethodType.card": "Card",
      "enums.paymentMethodType.bank_account": "Bank account",
      "fields.last4": "Ending in",
      "fields.expMonth": "Expiry month",
      "fields.expYear": "Expiry year",
      "fields.isDefault": "Default",
      "enums.cardBrand.visa": "Visa",
      "enums.cardBrand.mastercard": "Mastercard",
      "enums.cardBrand.amex": "American Express",
      "enums.cardBrand.discover": "Discover",
      "enums.cardBrand.unknown": "Card",
      "resources.payment-methods.card.card": "{{brand}} ending in {{last4}}",
      "resources.payment-methods.card.bank": "{{bankName}} account ending in {{last4}}",
      "resources.payment-methods.card.bankUnnamed": "Bank account ending in {{last4}}",
      "resources.payment-methods.card.expires": "Expires {{expMonth.raw}}/{{expYear.raw}}",
      "resources.payment-methods.card.isDefault": "Your default: bills you pay and automatic payments use it.",
    },
    es: {
      "resources.payment-methods.label": "Métodos de pago",
      "resources.payment-methods.empty":
        "Todavía no tienes tarjetas ni cuentas guardadas. La que añadas al pagar una factura se guarda aquí para la próxima vez.",
      "resources.payment-methods.actions.set-default": "Usar por defecto",
      "fields.cardBrand": "Tarjeta",
      "fields.paymentMethodType": "Tipo",
      "fields.bankName": "Banco",
      "enums.paymentMethodType.card": "Tarjeta",
      "enums.paymentMethodType.bank_account": "Cuenta bancaria",
      "fields.last4": "Termina en",
      "fields.expMonth": "Mes de caducidad",
      "fields.expYear": "Año de caducidad",
      "fields.isDefault": "Por defecto",
      "enums.cardBrand.visa": "Visa",
      "enums.cardBrand.mastercard": "Mastercard",
      "enums.cardBrand.amex": "American Express",
      "enums.cardBrand.discover": "Discover",
      "enums.cardBrand.unknown": "Tarjeta",
      "resources.payment-methods.card.card": "{{brand}} terminada en {{last4}}",
      "resources.payment-methods.card.bank": "Cuenta de {{bankName}} terminada en {{last4}}",
      "resources.payment-methods.card.bankUnnamed": "Cuenta bancaria terminada en {{last4}}",
      "resources.payment-methods.card.expires": "Caduca el {{expMonth.raw}}/{{expYear.raw}}",
      "resources.payment-methods.card.isDefault":
        "La principal: la usan tus pagos de facturas y los pagos automáticos.",
    },
  },
});
