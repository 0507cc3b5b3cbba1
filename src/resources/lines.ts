import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, msisdnSchema } from "./common";
import { PLAN_KINDS } from "./plans";

export const LINE_STATUSES = ["pending", "active", "suspended", "terminated"] as const;
export const SUSPEND_REASONS = ["lost", "stolen", "non_payment", "request"] as const;
export const SIM_TYPES = ["physical", "esim"] as const;

/** A mobile line (TM Forum Product/Service) with the names of its plan and account joined in. */
export const lineSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  accountName: z.string(),
  accountType: z.enum(PLAN_KINDS),
  msisdn: msisdnSchema,
  iccid: z.string().regex(/^89\d{17,18}$/, "19 or 20 digits starting with 89"),
  simType: z.enum(SIM_TYPES),
  planId: idSchema,
  planName: z.string(),
  status: z.enum(LINE_STATUSES),
  suspendReason: z.enum(SUSPEND_REASONS).nullable(),
  cycleDay: z.number().int().min(1).max(28),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Line = z.output<typeof lineSchema>;

export const linesResource = defineResource({
  name: "lines",
  label: "resources.lines.label",
  icon: "MobileOutlined",
  schema: lineSchema,
  recordTitle: "msisdn",
  fields: {
    msisdn: { label: "fields.msisdn", kind: "msisdn" },
    accountName: { label: "fields.account", kind: "text" },
    accountType: { label: "fields.accountType", kind: "enum", options: PLAN_KINDS },
    planName: { label: "fields.plan", kind: "text", reference: { resource: "plans", idField: "planId" } },
    status: { label: "fields.status", kind: "enum", options: LINE_STATUSES },
    suspendReason: { label: "fields.suspendReason", kind: "enum", options: SUSPEND_REASONS },
    simType: { label: "fields.simType", kind: "enum", options: SIM_TYPES },
    iccid: { label: "fields.iccid", kind: "text" },
    cycleDay: { label: "fields.cycleDay", kind: "number" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["msisdn", "accountName", "accountType", "planName", "status"],
    defaultSort: [{ field: "msisdn", order: "asc" }],
    sortable: ["msisdn", "status", "accountName", "planName", "createdAt"],
    filters: { status: ["eq", "ne", "in"], accountType: ["eq"], simType: ["eq"], msisdn: ["eq", "startswith", "contains"], planId: ["eq", "in"] },
    search: { placeholder: "resources.lines.search" },
  },
  show: ["msisdn", "status", "suspendReason", "planName", "accountName", "accountType", "simType", "iccid", "cycleDay", "createdAt"],
  access: {
    // Subscribers see the lines of their own accounts; staff see every line of their operator.
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
  },
  ownership: { path: "account.ownerUid" },
  source: "backend",
  audit: true,
});
