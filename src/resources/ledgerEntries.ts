import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, moneySchema } from "./common";
import { LEDGER_KINDS } from "./ledgerKinds";

export { CREDIT_KINDS, DEBIT_KINDS, LEDGER_KINDS, signOf, type LedgerKind } from "./ledgerKinds";

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
  // The kinds' words (enums.ledgerKind.*) are in the dictionaries (src/i18n): the light Money page
  // names movements by them before the declarations load.
  messages: {
    en: {
      "resources.ledger-entries.label": "Balance history",
      "fields.ledgerKind": "Type",
      "fields.amount": "Amount",
      "fields.balanceAfter": "Balance after",
      "fields.ledgerReason": "Description",
      "fields.actorRole": "By",
    },
    es: {
      "resources.ledger-entries.label": "Historial de saldo",
      "fields.ledgerKind": "Tipo",
      "fields.amount": "Importe",
      "fields.balanceAfter": "Saldo después",
      "fields.ledgerReason": "Descripción",
      "fields.actorRole": "Por",
    },
  },
});
