import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";
import { cardTokenSchema } from "./topUps";

export const CARD_BRANDS = ["visa", "mastercard", "amex", "discover", "unknown"] as const;

/** A saved card, as the gateway described it: never its number, only brand, last 4 and expiry. */
export const paymentMethodSchema = z.object({
  id: idSchema,
  /** The holder's uid: a form acting on an account offers only its holder's cards (`filter[ownerUid]`). */
  ownerUid: z.string(),
  brand: z.enum(CARD_BRANDS),
  last4: z.string().regex(/^\d{4}$/),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2100),
  isDefault: z.boolean(),
  createdAt: isoDateTime,
});
export type PaymentMethod = z.output<typeof paymentMethodSchema>;

/** What `POST /payment-methods` takes: a one-time token from the gateway's tokenizer. */
export const newPaymentMethodSchema = z.object({ cardToken: cardTokenSchema, makeDefault: z.boolean().optional() }).strict();

export const paymentMethodsResource = defineResource({
  name: "payment-methods",
  store: "table",
  label: "resources.payment-methods.label",
  icon: "WalletOutlined",
  schema: paymentMethodSchema,
  recordTitle: "last4",
  fields: {
    brand: { label: "fields.cardBrand", kind: "enum", options: CARD_BRANDS, labels: "enums.cardBrand" },
    last4: { label: "fields.last4", kind: "text" },
    expMonth: { label: "fields.expMonth", kind: "number" },
    expYear: { label: "fields.expYear", kind: "number" },
    isDefault: { label: "fields.isDefault", kind: "boolean" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["brand", "last4", "expMonth", "expYear", "isDefault"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt"],
    filters: { isDefault: ["eq"], ownerUid: ["eq"] },
  },
  show: ["brand", "last4", "expMonth", "expYear", "isDefault", "createdAt"],
  actions: {
    "set-default": { label: "resources.payment-methods.actions.set-default", handler: "paymentMethods.setDefault", when: { isDefault: [false] } },
  },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    // POST /payment-methods is the module's own route: it exchanges the token at the gateway first.
    create: { subscriber: "own" },
    delete: { subscriber: "own" },
    "set-default": { subscriber: "own" },
  },
  ownership: { path: "ownerUid" },
  subscriberPlace: "money",
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.payment-methods.label": "Payment methods",
      "resources.payment-methods.actions.set-default": "Make default",
      "fields.cardBrand": "Card",
      "fields.last4": "Ending in",
      "fields.expMonth": "Expiry month",
      "fields.expYear": "Expiry year",
      "fields.isDefault": "Default",
      "enums.cardBrand.visa": "Visa",
      "enums.cardBrand.mastercard": "Mastercard",
      "enums.cardBrand.amex": "American Express",
      "enums.cardBrand.discover": "Discover",
      "enums.cardBrand.unknown": "Card",
    },
    es: {
      "resources.payment-methods.label": "Métodos de pago",
      "resources.payment-methods.actions.set-default": "Usar por defecto",
      "fields.cardBrand": "Tarjeta",
      "fields.last4": "Termina en",
      "fields.expMonth": "Mes de caducidad",
      "fields.expYear": "Año de caducidad",
      "fields.isDefault": "Por defecto",
      "enums.cardBrand.visa": "Visa",
      "enums.cardBrand.mastercard": "Mastercard",
      "enums.cardBrand.amex": "American Express",
      "enums.cardBrand.discover": "Discover",
      "enums.cardBrand.unknown": "Tarjeta",
    },
  },
});
