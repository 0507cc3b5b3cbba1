import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, moneySchema } from "./common";

/** The largest single card top-up (minor units). */
export const MAX_TOP_UP_AMOUNT = 50_000;

export const TOP_UP_STATUSES = ["created", "completed", "failed", "cancelled"] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];
/** A refund claim on a top-up the gateway captured while our side failed or cancelled it. */
export const TOP_UP_REFUND_STATES = ["none", "claimed", "approved"] as const;

/** A one-time card token from the gateway's tokenizer (never a card number: no spaces, letters first). */
export const cardTokenSchema = z
  .string()
  .min(8, "validation.cardToken")
  .max(200, "validation.cardTokenTooLong")
  .regex(/^[A-Za-z0-9_-]+$/, "validation.cardToken")
  .refine((value) => !/^\d+$/.test(value), "validation.tokenNotCardNumber");

/**
 * What `POST /top-ups` takes: the prepaid account, the amount, and how to pay — a saved payment
 * method or a one-time card token from the gateway's tokenizer (never a card number).
 */
export const newTopUpSchema = z
  .object({
    accountId: idSchema,
    amount: moneySchema.extend({
      amount: z
        .number()
        .int("validation.wholeCents")
        .positive("validation.moreThanZero")
        .max(MAX_TOP_UP_AMOUNT, "validation.atMostMoney"),
    }),
    paymentMethodId: idSchema.optional(),
    cardToken: cardTokenSchema.optional(),
  })
  .strict()
  .refine((body) => (body.paymentMethodId === undefined) !== (body.cardToken === undefined), {
    path: ["paymentMethodId"],
    message: "validation.methodOrCard",
  });

/**
 * A card top-up (issue 9 item 4): created → completed / failed / cancelled, each shown with the time
 * of the last change. `gatewayCaptured` says the gateway took the money; on a failed or cancelled
 * top-up that makes a refund claimable (`refund`: none → claimed → approved).
 */
export const topUpSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  amount: moneySchema,
  status: z.enum(TOP_UP_STATUSES),
  refund: z.enum(TOP_UP_REFUND_STATES),
  gatewayCaptured: z.boolean(),
  paymentMethodId: idSchema.nullable(),
  /** Why it failed, as the gateway said (card_declined, …); null otherwise. */
  failureReason: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type TopUp = z.output<typeof topUpSchema>;

export const topUpsResource = defineResource({
  name: "top-ups",
  store: "table",
  label: "resources.top-ups.label",
  icon: "CreditCardOutlined",
  schema: topUpSchema,
  recordTitle: "createdAt",
  fields: {
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    updatedAt: { label: "fields.lastChange", kind: "datetime" },
    accountId: { label: "fields.account", kind: "reference", reference: { resource: "accounts" } },
    amount: { label: "fields.amount", kind: "money" },
    status: { label: "fields.status", kind: "enum", options: TOP_UP_STATUSES, labels: "enums.topUpStatus" },
    refund: { label: "fields.refund", kind: "enum", options: TOP_UP_REFUND_STATES, labels: "enums.topUpRefund" },
    gatewayCaptured: { label: "fields.gatewayCaptured", kind: "boolean" },
    failureReason: { label: "fields.failureReason", kind: "text" },
  },
  list: {
    columns: ["createdAt", "amount", "status", "updatedAt", "refund"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "updatedAt"],
    filters: {
      accountId: ["eq", "in"],
      status: ["eq", "in"],
      refund: ["eq", "in"],
      createdAt: ["gte", "lte", "between"],
    },
  },
  show: ["createdAt", "accountId", "amount", "status", "updatedAt", "failureReason", "gatewayCaptured", "refund"],
  actions: {
    // Stop waiting for a charge that did not answer; a late capture then makes a refund claimable.
    cancel: {
      label: "resources.top-ups.actions.cancel",
      handler: "topUps.cancel",
      when: { status: ["created"] },
      reason: "staff",
      confirm: "resources.top-ups.confirm.cancel",
    },
    "claim-refund": {
      label: "resources.top-ups.actions.claim-refund",
      handler: "topUps.claimRefund",
      when: { status: ["failed", "cancelled"], refund: ["none"], gatewayCaptured: [true] },
      reason: "staff",
      confirm: "resources.top-ups.confirm.claim-refund",
    },
    "approve-refund": {
      label: "resources.top-ups.actions.approve-refund",
      handler: "topUps.approveRefund",
      when: { refund: ["claimed"] },
      reason: true,
      confirm: "resources.top-ups.confirm.approve-refund",
    },
  },
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    // POST /top-ups is the module's own route (server/domain/topUps/routes.ts): it calls the gateway between transactions.
    create: { subscriber: "own", agent: "verified", admin: "all" },
    cancel: { subscriber: "own", agent: "verified", admin: "all" },
    "claim-refund": { subscriber: "own", agent: "verified", admin: "all" },
    "approve-refund": { agent: "all", admin: "all" },
  },
  ownership: { path: "account.ownerUid", sharedWith: { manager: ["list", "show"] } },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.top-ups.label": "Card top-ups",
      "resources.top-ups.actions.cancel": "Stop waiting",
      "resources.top-ups.actions.claim-refund": "Claim my money back",
      "resources.top-ups.actions.approve-refund": "Approve refund",
      "resources.top-ups.confirm.cancel":
        "Stop waiting for this top-up? If the card was charged after all, you can claim the money back.",
      "resources.top-ups.confirm.claim-refund":
        "Claim back the money the card was charged for this top-up? A care agent checks and approves it.",
      "resources.top-ups.confirm.approve-refund":
        "Approve the refund? The amount is credited to the account's balance.",
      "fields.lastChange": "Last change",
      "fields.refund": "Refund",
      "fields.gatewayCaptured": "Card charged",
      "fields.failureReason": "Why it failed",
      "enums.topUpStatus.created": "Processing",
      "enums.topUpStatus.completed": "Completed",
      "enums.topUpStatus.failed": "Failed",
      "enums.topUpStatus.cancelled": "Cancelled",
      "enums.topUpRefund.none": "—",
      "enums.topUpRefund.claimed": "Claimed",
      "enums.topUpRefund.approved": "Refunded",
    },
    es: {
      "resources.top-ups.label": "Recargas con tarjeta",
      "resources.top-ups.actions.cancel": "Dejar de esperar",
      "resources.top-ups.actions.claim-refund": "Reclamar mi dinero",
      "resources.top-ups.actions.approve-refund": "Aprobar reembolso",
      "resources.top-ups.confirm.cancel":
        "¿Dejar de esperar esta recarga? Si al final se cobró la tarjeta, podrás reclamar el dinero.",
      "resources.top-ups.confirm.claim-refund":
        "¿Reclamar el dinero cobrado a la tarjeta por esta recarga? Un agente lo revisa y lo aprueba.",
      "resources.top-ups.confirm.approve-refund": "¿Aprobar el reembolso? El importe se abona al saldo de la cuenta.",
      "fields.lastChange": "Último cambio",
      "fields.refund": "Reembolso",
      "fields.gatewayCaptured": "Tarjeta cobrada",
      "fields.failureReason": "Motivo del fallo",
      "enums.topUpStatus.created": "En proceso",
      "enums.topUpStatus.completed": "Completada",
      "enums.topUpStatus.failed": "Fallida",
      "enums.topUpStatus.cancelled": "Cancelada",
      "enums.topUpRefund.none": "—",
      "enums.topUpRefund.claimed": "Reclamado",
      "enums.topUpRefund.approved": "Reembolsado",
    },
  },
});

/** The operator's top-up payment setting (operators.settings.topUpPayment): "" = no card top-ups. */
export const topUpPaymentOf = (settings: Record<string, unknown> | null | undefined): string =>
  typeof settings?.topUpPayment === "string" ? settings.topUpPayment : "";

/** `GET /payment-gateway`: which gateway takes cards for the caller's operator, and where the browser tokenizes a card. */
export const paymentGatewaySchema = z.object({
  gateway: z.string(),
  /** The gateway's tokenizing endpoint (the browser posts the card there, never to this API); null when cards are not taken. */
  tokenizeUrl: z.string().nullable(),
  /** The bill-payment gateway (BILL_PAYMENT_GATEWAY, independent of the top-up setting; "" = bills are not paid online). */
  billGateway: z.string(),
  /** Where the browser tokenizes a card for bills, and a US bank account (routing + account number); null when not taken. */
  billTokenizeUrl: z.string().nullable(),
  bankAccountTokenizeUrl: z.string().nullable(),
});
export type PaymentGateway = z.output<typeof paymentGatewaySchema>;
