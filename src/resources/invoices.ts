import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDate, isoDateTime, moneySchema, reasonSchema } from "./common";
import { INVOICE_STATUSES, OPEN_INVOICE_STATUSES } from "./invoiceStatuses";

export { INVOICE_STATUSES, OPEN_INVOICE_STATUSES, type InvoiceStatus } from "./invoiceStatuses";

/**
 * What a bill's line is, from the ledger charge it bills: the plan's fee, an add-on, a plan change's
 * proration, usage beyond the allowance (by usage type and roaming zone), a returned payment billed
 * again, or anything else charged (a staff charge).
 */
export const INVOICE_ITEM_KINDS = ["plan", "add_on", "proration", "overage", "other"] as const;
export type InvoiceItemKind = (typeof INVOICE_ITEM_KINDS)[number];

export const invoiceItemSchema = z.object({
  kind: z.enum(INVOICE_ITEM_KINDS),
  description: z.string(),
  amount: moneySchema,
  /** Overage only: data, voice or sms. */
  usageType: z.string().nullable(),
  /** Overage only: the roaming zone, or "home". */
  roamingZone: z.string().nullable(),
});
export type InvoiceItem = z.output<typeof invoiceItemSchema>;

/** A postpaid bill: the charges of one cycle, taxed, with a due date. The PDF is GET /invoices/{id}/pdf. */
export const invoiceSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  accountName: z.string(),
  /** The account holder's uid: the pay form offers only their saved cards. */
  ownerUid: z.string().nullable(),
  number: z.string(),
  periodStart: isoDate,
  periodEnd: isoDate,
  items: z.array(invoiceItemSchema),
  subtotal: moneySchema,
  tax: moneySchema,
  /** Tax rate applied, in basis points (825 = 8.25 %). */
  taxRateBps: z.number().int().nonnegative(),
  /** Overpayments of earlier bills deducted from this one ("Credit from last bill"); total = subtotal + tax - credit. */
  credit: moneySchema,
  total: moneySchema,
  /** What settled payments paid of it so far (partial payments). */
  amountPaid: moneySchema,
  /** Still owed: total - amount paid (0 once paid or void). */
  amountDue: moneySchema,
  /** Paid but not settled yet (a bank payment on its way): a new payment may pay only amountDue - amountPending. */
  amountPending: moneySchema,
  /** The account's previous bill's total, for comparison (null: the first bill). */
  previousTotal: moneySchema.nullable(),
  status: z.enum(INVOICE_STATUSES),
  issuedAt: isoDateTime,
  dueOn: isoDate,
  paidAt: isoDateTime.nullable(),
  voidReason: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Invoice = z.output<typeof invoiceSchema>;

/** The input of the `pay` action: a saved card or bank account of the bill's holder. */
export const payInvoiceInputSchema = z.object({ paymentMethodId: idSchema });
/**
 * What `POST /invoices/{id}/actions/pay` takes (staff add a reason). `amount` (integer minor units,
 * more than 0, at most what is still to pay) pays part of the bill; without it, all that is due.
 */
export const payInvoiceSchema = payInvoiceInputSchema
  .extend({
    amount: z
      .number("an amount in cents")
      .int("a whole number of cents")
      .positive("more than 0")
      .max(100_000_000, "validation.tooLarge")
      .optional(),
    reason: reasonSchema.optional(),
  })
  .strict();

/** created: waiting for the gateway (a bank payment: 1–3 days); returned: a bank payment that came back after it settled. */
export const INVOICE_PAYMENT_STATUSES = ["created", "succeeded", "failed", "returned"] as const;

/** The bill as it stands after a payment, with that payment (created = the gateway has not answered yet). */
export const invoicePaymentResultSchema = invoiceSchema.extend({
  payment: z.object({
    id: idSchema,
    status: z.enum(INVOICE_PAYMENT_STATUSES),
    failureReason: z.string().nullable(),
    amount: moneySchema,
    methodType: z.enum(["card", "bank_account"]),
  }),
});

export const invoicesResource = defineResource({
  name: "invoices",
  store: "table",
  label: "resources.invoices.label",
  icon: "FileTextOutlined",
  schema: invoiceSchema,
  recordTitle: "number",
  fields: {
    number: { label: "fields.invoiceNumber", kind: "text" },
    accountName: { label: "fields.account", kind: "text", reference: { resource: "accounts", idField: "accountId" } },
    periodStart: { label: "fields.periodStart", kind: "date" },
    periodEnd: { label: "fields.periodEnd", kind: "date" },
    subtotal: { label: "fields.subtotal", kind: "money" },
    tax: { label: "fields.tax", kind: "money" },
    total: { label: "fields.total", kind: "money" },
    credit: { label: "fields.billCredit", kind: "money" },
    amountPaid: { label: "fields.amountPaid", kind: "money" },
    amountDue: { label: "fields.amountDue", kind: "money" },
    previousTotal: { label: "fields.previousTotal", kind: "money" },
    status: { label: "fields.status", kind: "enum", options: INVOICE_STATUSES, labels: "enums.invoiceStatus" },
    issuedAt: { label: "fields.issuedAt", kind: "datetime" },
    dueOn: { label: "fields.dueOn", kind: "date" },
    paidAt: { label: "fields.paidAt", kind: "datetime" },
    voidReason: { label: "fields.voidReason", kind: "text" },
  },
  list: {
    columns: ["number", "periodEnd", "total", "amountDue", "dueOn", "status"],
    defaultSort: [{ field: "issuedAt", order: "desc" }],
    sortable: ["issuedAt", "dueOn", "status"],
    filters: {
      accountId: ["eq", "in"],
      status: ["eq", "in"],
      dueOn: ["lt", "lte", "gte", "between"],
      issuedAt: ["gte", "lte", "between"],
    },
    search: { placeholder: "resources.invoices.search", fields: ["number"] },
  },
  show: [
    "number",
    "accountName",
    "periodStart",
    "periodEnd",
    "subtotal",
    "tax",
    "credit",
    "total",
    "amountPaid",
    "amountDue",
    "previousTotal",
    "status",
    "issuedAt",
    "dueOn",
    "paidAt",
    "voidReason",
  ],
  actions: {
    // Served by server/domain/invoicePayments/routes.ts: it calls the card gateway between two transactions.
    pay: {
      label: "resources.invoices.actions.pay",
      servedBy: "module",
      when: { status: [...OPEN_INVOICE_STATUSES] },
      reason: "staff",
      input: payInvoiceInputSchema,
      // Only the holder's cards, also when staff pay for them.
      inputFields: {
        paymentMethodId: {
          label: "fields.paymentMethod",
          kind: "reference",
          reference: { resource: "payment-methods", matching: { ownerUid: "ownerUid" } },
        },
      },
      confirm: "resources.invoices.confirm.pay",
    },
    void: {
      label: "resources.invoices.actions.void",
      handler: "invoices.void",
      when: { status: [...OPEN_INVOICE_STATUSES] },
      reason: true,
      danger: true,
      confirm: "resources.invoices.confirm.void",
    },
  },
  // GET /invoices/{id}/pdf (server/domain/invoices): whoever may see the bill downloads it.
  downloads: [{ path: "pdf", label: "resources.invoices.pdf", fileName: "number", extension: "pdf" }],
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    void: { admin: "all" },
    pay: { subscriber: "own", agent: "verified", admin: "all" },
  },
  // Issue 28: managers see the bills; paying takes the holder's cards, which stay the holder's.
  ownership: { path: "account.ownerUid", sharedWith: { manager: ["list", "show"] } },
  subscriberPlace: "money",
  // A prepaid-only person has no bills: Money does not offer them "All bills".
  subscriberAccountType: "postpaid",
  subscriberCard: {
    title: ["resources.invoices.card.title"],
    lines: [
      "resources.invoices.card.period",
      { text: "resources.invoices.card.issued", when: { status: ["issued"] } },
      { text: "resources.invoices.card.overdue", when: { status: ["overdue"] } },
      { text: "resources.invoices.card.paid", when: { status: ["paid"] } },
      { text: "resources.invoices.card.void", when: { status: ["void"] } },
    ],
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.invoices.label": "Bills",
      "resources.invoices.empty": "No bills yet: the first comes at the end of your first billing cycle.",
      "resources.invoices.search": "Search by bill number",
      "resources.invoices.actions.void": "Void",
      "resources.invoices.actions.pay": "Pay",
      "resources.invoices.confirm.pay": "Pay bill {{title}} with the chosen card or bank account?",
      "fields.paymentMethod": "Card or bank account",
      "fields.billCredit": "Credit from last bill",
      "fields.amountPaid": "Paid so far",
      "fields.amountDue": "Left to pay",
      "fields.previousTotal": "Last bill's total",
      "resources.invoices.confirm.void": "Void bill {{title}}? The customer will no longer owe it.",
      "resources.invoices.pdf": "Download PDF",
      "fields.invoiceNumber": "Bill number",
      "fields.periodStart": "Period from",
      "fields.periodEnd": "Period to",
      "fields.subtotal": "Subtotal",
      "fields.tax": "Tax",
      "fields.total": "Total",
      "fields.issuedAt": "Issued",
      "fields.dueOn": "Due",
      "fields.paidAt": "Paid",
      "fields.voidReason": "Why it was voided",
      "enums.invoiceStatus.issued": "Issued",
      "enums.invoiceStatus.paid": "Paid",
      "enums.invoiceStatus.overdue": "Overdue",
      "enums.invoiceStatus.void": "Void",
      "resources.invoices.card.title": "Bill of {{total}}",
      "resources.invoices.card.period": "For {{periodStart}} to {{periodEnd}}",
      "resources.invoices.card.issued": "{{amountDue}} to pay by {{dueOn}}.",
      "resources.invoices.card.overdue": "Overdue: {{amountDue}} was due on {{dueOn}}. Open the bill to pay it.",
      "resources.invoices.card.paid": "Paid: nothing to pay.",
      "resources.invoices.card.void": "Voided: nothing to pay.",
    },
    es: {
      "resources.invoices.label": "Facturas",
      "resources.invoices.empty":
        "Todavía no hay facturas: la primera llega al final de tu primer ciclo de facturación.",
      "resources.invoices.search": "Buscar por número de factura",
      "resources.invoices.actions.void": "Anular",
      "resources.invoices.actions.pay": "Pagar",
      "resources.invoices.confirm.pay": "¿Pagar la factura {{title}} con la tarjeta o cuenta bancaria elegida?",
      "fields.paymentMethod": "Tarjeta o cuenta bancaria",
      "fields.billCredit": "Crédito de la factura anterior",
      "fields.amountPaid": "Pagado hasta ahora",
      "fields.amountDue": "Por pagar",
      "fields.previousTotal": "Total de la factura anterior",
      "resources.invoices.confirm.void": "¿Anular la factura {{title}}? El cliente ya no la deberá.",
      "resources.invoices.pdf": "Descargar PDF",
      "fields.invoiceNumber": "Número de factura",
      "fields.periodStart": "Periodo desde",
      "fields.periodEnd": "Periodo hasta",
      "fields.subtotal": "Subtotal",
      "fields.tax": "Impuestos",
      "fields.total": "Total",
      "fields.issuedAt": "Emitida",
      "fields.dueOn": "Vence",
      "fields.paidAt": "Pagada",
      "fields.voidReason": "Motivo de la anulación",
      "enums.invoiceStatus.issued": "Emitida",
      "enums.invoiceStatus.paid": "Pagada",
      "enums.invoiceStatus.overdue": "Vencida",
      "enums.invoiceStatus.void": "Anulada",
      "resources.invoices.card.title": "Factura de {{total}}",
      "resources.invoices.card.period": "Del {{periodStart}} al {{periodEnd}}",
      "resources.invoices.card.issued": "{{amountDue}} por pagar antes del {{dueOn}}.",
      "resources.invoices.card.overdue": "Vencida: {{amountDue}} vencía el {{dueOn}}. Abre la factura para pagarla.",
      "resources.invoices.card.paid": "Pagada: no hay nada por pagar.",
      "resources.invoices.card.void": "Anulada: no hay nada por pagar.",
    },
  },
});
