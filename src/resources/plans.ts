import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, moneySchema } from "./common";

export const PLAN_KINDS = ["prepaid", "postpaid"] as const;
export const PLAN_STATUSES = ["draft", "active", "retired"] as const;

/** A plan offering (TM Forum ProductOffering). Allowances: null means unlimited. */
export const planSchema = z.object({
  id: idSchema,
  code: z.string().regex(/^[A-Z0-9_]{2,32}$/, "upper-case letters, digits and _"),
  name: z.string().min(2).max(80),
  kind: z.enum(PLAN_KINDS),
  status: z.enum(PLAN_STATUSES),
  price: moneySchema,
  period: z.enum(["month"]),
  dataMb: z.number().int().nonnegative().nullable(),
  voiceMinutes: z.number().int().nonnegative().nullable(),
  sms: z.number().int().nonnegative().nullable(),
  features: z.array(z.string().max(80)).max(20),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Plan = z.output<typeof planSchema>;

export const plansResource = defineResource({
  name: "plans",
  store: "table",
  label: "resources.plans.label",
  icon: "AppstoreOutlined",
  schema: planSchema,
  recordTitle: "name",
  fields: {
    code: { label: "fields.code", kind: "text" },
    name: { label: "fields.name", kind: "text" },
    kind: { label: "fields.kind", kind: "enum", options: PLAN_KINDS },
    status: { label: "fields.status", kind: "enum", options: PLAN_STATUSES },
    price: { label: "fields.price", kind: "money" },
    dataMb: { label: "fields.data", kind: "dataMb" },
    voiceMinutes: { label: "fields.voice", kind: "quantity" },
    sms: { label: "fields.sms", kind: "quantity" },
    features: { label: "fields.features", kind: "tags" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["name", "kind", "price", "dataMb", "voiceMinutes", "sms", "status"],
    defaultSort: [{ field: "price", order: "asc" }],
    sortable: ["name", "code", "price", "dataMb", "createdAt"],
    filters: { kind: ["eq", "in"], status: ["eq", "ne", "in"], price: ["lte", "gte", "between"], code: ["eq", "in"] },
    search: { placeholder: "resources.plans.search" },
  },
  show: ["code", "name", "kind", "status", "price", "dataMb", "voiceMinutes", "sms", "features", "createdAt"],
  access: {
    // The catalog is open to every signed-in role; subscribers do not see draft offerings.
    list: { subscriber: "all", agent: "all", admin: "all" },
    show: { subscriber: "all", agent: "all", admin: "all" },
  },
  source: "backend",
  audit: true,
});
