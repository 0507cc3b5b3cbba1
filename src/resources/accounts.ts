import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";
import { PLAN_KINDS } from "./plans";

export const ACCOUNT_STATUSES = ["active", "suspended", "closed"] as const;

/** A customer account (TM Forum Customer/BillingAccount): the holder of lines, balance and bills. */
export const accountSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  type: z.enum(PLAN_KINDS),
  status: z.enum(ACCOUNT_STATUSES),
  /** How many lines the account holds (not terminated). */
  lineCount: z.number().int().nonnegative(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Account = z.output<typeof accountSchema>;

export const accountsResource = defineResource({
  name: "accounts",
  store: "table",
  label: "resources.accounts.label",
  icon: "IdcardOutlined",
  schema: accountSchema,
  recordTitle: "name",
  fields: {
    name: { label: "fields.accountName", kind: "text" },
    email: { label: "fields.email", kind: "text" },
    phone: { label: "fields.contactPhone", kind: "msisdn" },
    type: { label: "fields.accountType", kind: "enum", options: PLAN_KINDS, labels: "enums.accountType" },
    status: { label: "fields.status", kind: "enum", options: ACCOUNT_STATUSES },
    lineCount: { label: "fields.lineCount", kind: "number" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["name", "type", "lineCount", "status", "createdAt"],
    defaultSort: [{ field: "name", order: "asc" }],
    sortable: ["name", "createdAt", "status"],
    filters: { type: ["eq"], status: ["eq", "in"] },
    search: { placeholder: "resources.accounts.search", fields: ["name", "email"] },
  },
  show: ["name", "type", "status", "email", "phone", "lineCount", "createdAt"],
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
  },
  ownership: { path: "ownerUid" },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.accounts.label": "Accounts",
      "resources.accounts.search": "Search by name or email",
      "fields.accountName": "Account holder",
      "fields.contactPhone": "Contact phone",
      "fields.lineCount": "Lines",
      "enums.status.closed": "Closed",
    },
    es: {
      "resources.accounts.label": "Cuentas",
      "resources.accounts.search": "Buscar por nombre o correo",
      "fields.accountName": "Titular de la cuenta",
      "fields.contactPhone": "Teléfono de contacto",
      "fields.lineCount": "Líneas",
      "enums.status.closed": "Cerrada",
    },
  },
});
