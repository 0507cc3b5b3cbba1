import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, moneySchema } from "./common";

/** What an approval would post to the account's ledger once an admin approves it. */
export const APPROVAL_KINDS = ["adjustment", "refund", "charge"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;

/**
 * The two-person rule (issue 12): money moved by hand above the requester's bound (ADJUSTMENT_LIMITS)
 * waits here, pending, until an admin other than the requester approves it (the ledger entry is
 * posted then, in the same transaction, once) or rejects it. Agents see their own requests; admins
 * see the operator's queue.
 */
export const approvalSchema = z.object({
  id: idSchema,
  kind: z.enum(APPROVAL_KINDS),
  accountId: idSchema,
  /** The account's name, for the queue (joined). */
  accountName: z.string(),
  amount: moneySchema,
  /** Why the requester asked (becomes the ledger entry's reason). */
  reason: z.string(),
  requestedBy: z.string(),
  requestedByRole: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  decidedBy: z.string().nullable(),
  decidedAt: isoDateTime.nullable(),
  /** Why the admin approved or rejected. */
  decisionReason: z.string().nullable(),
  /** The ledger entry posted on approval. */
  ledgerEntryId: idSchema.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Approval = z.output<typeof approvalSchema>;

export const approvalsResource = defineResource({
  name: "approvals",
  store: "table",
  label: "resources.approvals.label",
  icon: "AuditOutlined",
  schema: approvalSchema,
  recordTitle: "accountName",
  fields: {
    kind: { label: "fields.kind", kind: "enum", options: APPROVAL_KINDS, labels: "enums.approvalKind" },
    accountName: { label: "fields.account", kind: "text", reference: { resource: "accounts", idField: "accountId" } },
    amount: { label: "fields.amount", kind: "money" },
    reason: { label: "fields.reason", kind: "text" },
    requestedByRole: { label: "fields.requestedBy", kind: "enum", options: ["agent", "admin"], labels: "roles" },
    status: { label: "fields.status", kind: "enum", options: APPROVAL_STATUSES, labels: "enums.approvalStatus" },
    decidedAt: { label: "fields.decidedAt", kind: "datetime" },
    decisionReason: { label: "fields.decisionReason", kind: "text" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["createdAt", "accountName", "kind", "amount", "reason", "requestedByRole", "status"],
    defaultSort: [{ field: "createdAt", order: "asc" }],
    sortable: ["createdAt", "amount", "status"],
    filters: { status: ["eq", "in"], kind: ["eq", "in"], accountId: ["eq"] },
  },
  show: [
    "accountName",
    "kind",
    "amount",
    "reason",
    "requestedByRole",
    "status",
    "decidedAt",
    "decisionReason",
    "createdAt",
  ],
  actions: {
    approve: {
      label: "resources.approvals.actions.approve",
      handler: "approvals.approve",
      when: { status: ["pending"] },
      reason: true,
      confirm: "resources.approvals.confirm.approve",
    },
    reject: {
      label: "resources.approvals.actions.reject",
      handler: "approvals.reject",
      when: { status: ["pending"] },
      reason: true,
      danger: true,
      confirm: "resources.approvals.confirm.reject",
    },
  },
  access: {
    // Agents follow their own requests; admins work the operator's queue. Subscribers never see it.
    list: { agent: "own", admin: "all" },
    show: { agent: "own", admin: "all" },
    approve: { admin: "all" },
    reject: { admin: "all" },
  },
  ownership: { path: "requestedBy" },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.approvals.label": "Approvals",
      "resources.approvals.actions.approve": "Approve",
      "resources.approvals.actions.reject": "Reject",
      "resources.approvals.confirm.approve":
        "Approve this request for {{title}}? The money moves now and the holder is told.",
      "resources.approvals.confirm.reject": "Reject this request for {{title}}? Nothing moves.",
      "resources.approvals.pendingOnly": "Pending only",
      "resources.approvals.waiting": "Above your limit: sent for an administrator's approval.",
      "resources.approvals.notYours": "You asked for this one: another administrator must decide.",
      "fields.requestedBy": "Requested by",
      "fields.decidedAt": "Decided",
      "fields.decisionReason": "Decision reason",
      "enums.approvalKind.adjustment": "Credit",
      "enums.approvalKind.refund": "Refund",
      "enums.approvalKind.charge": "Charge",
      "enums.approvalStatus.pending": "Pending",
      "enums.approvalStatus.approved": "Approved",
      "enums.approvalStatus.rejected": "Rejected",
    },
    es: {
      "resources.approvals.label": "Aprobaciones",
      "resources.approvals.actions.approve": "Aprobar",
      "resources.approvals.actions.reject": "Rechazar",
      "resources.approvals.confirm.approve":
        "¿Aprobar esta solicitud para {{title}}? El dinero se mueve ahora y se avisa al titular.",
      "resources.approvals.confirm.reject": "¿Rechazar esta solicitud para {{title}}? No se mueve nada.",
      "resources.approvals.pendingOnly": "Solo pendientes",
      "resources.approvals.waiting": "Supera tu límite: enviada a un administrador para su aprobación.",
      "resources.approvals.notYours": "La pediste tú: debe decidir otro administrador.",
      "fields.requestedBy": "Solicitada por",
      "fields.decidedAt": "Decidida",
      "fields.decisionReason": "Motivo de la decisión",
      "enums.approvalKind.adjustment": "Abono",
      "enums.approvalKind.refund": "Reembolso",
      "enums.approvalKind.charge": "Cargo",
      "enums.approvalStatus.pending": "Pendiente",
      "enums.approvalStatus.approved": "Aprobada",
      "enums.approvalStatus.rejected": "Rechazada",
    },
  },
});
