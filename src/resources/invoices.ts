import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDate, isoDateTime, moneySchema, reasonSchema } from "./common";

/** A bill's states (TMF678 CustomerBill): issued → paid / overdue → paid; void by an admin. */
export const INVOICE_STATUSES = ["issued", "paid", "overdue", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Bills that still ask for money: the account's amount due is their sum. */
export const OPEN_INVOICE_STATUSES = ["issued", "overdue"] as const satisfies readonly InvoiceStatus[];

export const invoiceItemSchema = z.object({ description: z.string(), amount: moneySchema });

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
  total: moneySchema,
  status: z.enum(INVOICE_STATUSES),
  issuedAt: isoDateTime,
  dueOn: isoDate,
  paidAt: isoDateTime.nullable(),
  voidReason: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Invoice = z.output<typeof invoiceSchema>;

/** The input of the `pay` action: a saved card of the bill's holder. */
export const payInvoiceInputSchema = z.object({ paymentMethodId: idSchema });
/** What `POST /invoices/{id}/actions/pay` takes (staff add a reason). */
export const payInvoiceSchema = payInvoiceInputSchema.extend({ reason: reasonSchema.optional() }).strict();

export const INVOICE_PAYMENT_STATUSES = ["created", "succeeded", "failed"] as const;

/** The bill as it stands after a payment, with that payment (created = the gateway has not answered yet). */
export const invoicePaymentResultSchema = invoiceSchema.extend({
  payment: z.object({ id: idSchema, status: z.enum(INVOICE_PAYMENT_STATUSES), failureReason: z.string().nullable() }),
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
    status: { label: "fields.status", kind: "enum", options: INVOICE_STATUSES, labels: "enums.invoiceStatus" },
    issuedAt: { label: "fields.issuedAt", kind: "datetime" },
    dueOn: { label: "fields.dueOn", kind: "date" },
    paidAt: { label: "fields.paidAt", kind: "datetime" },
    voidReason: { label: "fields.voidReason", kind: "text" },
  },
  list: {
    columns: ["number", "periodEnd", "total", "dueOn", "status"],
    defaultSort: [{ field: "issuedAt", order: "desc" }],
    sortable: ["issuedAt", "dueOn", "status"],
    filters: { accountId: ["eq", "in"], status: ["eq", "in"], dueOn: ["lt", "lte", "gte", "between"], issuedAt: ["gte", "lte", "between"] },
    search: { placeholder: "resources.invoices.search", fields: ["number"] },
  },
  show: ["number", "accountName", "periodStart", "periodEnd", "subtotal", "tax", "total", "status", "issuedAt", "dueOn", "paidAt", "voidReason"],
  actions: {
    // Served by server/domain/invoicePayments/routes.ts: it calls the card gateway between two transactions.
    pay: {
      label: "resources.invoices.actions.pay",
      servedBy: "module",
      when: { status: ["issued", "overdue"] },
      reason: "staff",
      input: payInvoiceInputSchema,
      // Only the holder's cards, also when staff pay for them.
      inputFields: { paymentMethodId: { label: "fields.paymentMethod", kind: "reference", reference: { resource: "payment-methods", matching: { ownerUid: "ownerUid" } } } },
      confirm: "resources.invoices.confirm.pay",
    },
    void: {
      label: "resources.invoices.actions.void",
      handler: "invoices.void",
      when: { status: ["issued", "overdue"] },
      reason: true,
      danger: true,
      confirm: "resources.invoices.confirm.void",
    },
  },
  // GET /invoices/{id}/pdf (server/domain/invoices): whoever may see the bill downloads it.
  downloads: [{ path: "pdf", label: "resources.invoices.pdf", fileName: "number", extension: "pdf" }],
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    void: { admin: "all" },
    pay: { subscriber: "own", agent: "all", admin: "all" },
  },
  ownership: { path: "account.ownerUid" },
  subscriberPlace: "money",
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.invoices.label": "Bills",
      "resources.invoices.search": "Search by bill number",
      "resources.invoices.actions.void": "Void",
      "resources.invoices.actions.pay": "Pay",
      "resources.invoices.confirm.pay": "Pay bill {{title}} with the chosen card?",
      "fields.paymentMethod": "Card",
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
    },
    es: {
      "resources.invoices.label": "Facturas",
      "resources.invoices.search": "Buscar por número de factura",
      "resources.invoices.actions.void": "Anular",
      "resources.invoices.actions.pay": "Pagar",
      "resources.invoices.confirm.pay": "¿Pagar la factura {{title}} con la tarjeta elegida?",
      "fields.paymentMethod": "Tarjeta",
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
    },
  },
});
