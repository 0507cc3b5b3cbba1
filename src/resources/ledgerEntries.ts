import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, moneySchema } from "./common";

/** What moved money on an account. The kind gives the sign: credits add to a prepaid balance, debits take from it. */
/** `usage` is rated usage taken from a prepaid balance; `renewal` a prepaid plan renewed from it (migration 0022). */
export const LEDGER_KINDS = [
  "top_up",
  "charge",
  "adjustment",
  "refund",
  "reversal",
  "payment",
  "usage",
  "renewal",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** A `reversal` undoes a top-up that failed on our side after the gateway took the card's money: it credits what was captured (migration 0020). */
export const CREDIT_KINDS = [
  "top_up",
  "adjustment",
  "refund",
  "reversal",
  "payment",
] as const satisfies readonly LedgerKind[];
export const DEBIT_KINDS = ["charge", "usage", "renewal"] as const satisfies readonly LedgerKind[];

/** +1 for a credit, -1 for a debit. */
export const signOf = (kind: LedgerKind) => ((DEBIT_KINDS as readonly string[]).includes(kind) ? -1 : 1);

/** One entry of an account's append-only ledger: never changed, never deleted. */
export const ledgerEntrySchema = z.object({
  id: idSchema,
  accountId: idSchema,
  kind: z.enum(LEDGER_KINDS),
  /** Always positive; `kind` says whether it adds or takes. */
  amount: moneySchema,
  /** The prepaid balance right after this entry; null on postpaid accounts. */
  balanceAfter: moneySchema.nullable(),
  reason: z.string(),
  actorRole: z.string(),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  createdAt: isoDateTime,
});
export type LedgerEntry = z.output<typeof ledgerEntrySchema>;

export const ledgerEntriesResource = defineResource({
  name: "ledger-entries",
  store: "table",
  label: "resources.ledger-entries.label",
  icon: "AccountBookOutlined",
  schema: ledgerEntrySchema,
  recordTitle: "reason",
  fields: {
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    accountId: { label: "fields.account", kind: "reference", reference: { resource: "accounts" } },
    kind: { label: "fields.ledgerKind", kind: "enum", options: LEDGER_KINDS, labels: "enums.ledgerKind" },
    amount: { label: "fields.amount", kind: "money" },
    balanceAfter: { label: "fields.balanceAfter", kind: "money" },
    reason: { label: "fields.ledgerReason", kind: "posted" },
    actorRole: { label: "fields.actorRole", kind: "text" },
  },
  list: {
    columns: ["createdAt", "kind", "amount", "balanceAfter", "reason"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "kind"],
    filters: { accountId: ["eq", "in"], kind: ["eq", "in"], createdAt: ["gte", "lte", "between"] },
  },
  show: ["createdAt", "accountId", "kind", "amount", "balanceAfter", "reason", "actorRole"],
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    // Read-only: entries are written by money actions (server/domain/money/ledger.ts), never through this API.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
  },
  ownership: { path: "account.ownerUid", sharedWith: { manager: "all" } },
  source: "backend",
  audit: false,
  messages: {
    en: {
      "resources.ledger-entries.label": "Balance history",
      "fields.ledgerKind": "Type",
      "fields.amount": "Amount",
      "fields.balanceAfter": "Balance after",
      "fields.ledgerReason": "Description",
      "fields.actorRole": "By",
      "enums.ledgerKind.top_up": "Top-up",
      "enums.ledgerKind.charge": "Charge",
      "enums.ledgerKind.adjustment": "Adjustment",
      "enums.ledgerKind.refund": "Refund",
      "enums.ledgerKind.reversal": "Reversal",
      "enums.ledgerKind.payment": "Bill payment",
      "enums.ledgerKind.usage": "Usage",
      "enums.ledgerKind.renewal": "Plan renewal",
    },
    es: {
      "resources.ledger-entries.label": "Historial de saldo",
      "fields.ledgerKind": "Tipo",
      "fields.amount": "Importe",
      "fields.balanceAfter": "Saldo después",
      "fields.ledgerReason": "Descripción",
      "fields.actorRole": "Por",
      "enums.ledgerKind.top_up": "Recarga",
      "enums.ledgerKind.charge": "Cargo",
      "enums.ledgerKind.adjustment": "Ajuste",
      "enums.ledgerKind.refund": "Reembolso",
      "enums.ledgerKind.reversal": "Anulación",
      "enums.ledgerKind.payment": "Pago de factura",
      "enums.ledgerKind.usage": "Consumo",
      "enums.ledgerKind.renewal": "Renovación del plan",
    },
  },
});
