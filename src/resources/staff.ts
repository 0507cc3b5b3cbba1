import { z } from "zod";
import { defineResource } from "./define";
import { isoDateTime, reasonSchema } from "./common";

export const STAFF_ROLES = ["agent", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A care agent or admin of the operator (GET /api/v1/staff). */
export const staffMemberSchema = z.object({
  /** The Firebase uid (also `uid`): staff records are keyed by it. */
  id: z.string(),
  uid: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  role: z.enum(STAFF_ROLES),
  disabled: z.boolean(),
  invitedBy: z.string().nullable(),
  /**
   * May decide approvals as far as their invitation goes: seeded staff (no inviter), or confirmed by an
   * admin other than their inviter (`staff/{id}/actions/confirm`). The operator's policy may instead let
   * an unconfirmed member decide 24 hours after the invitation (`newStaffMayApprove`).
   */
  confirmed: z.boolean(),
  confirmedBy: z.string().nullable(),
  confirmedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type StaffMember = z.output<typeof staffMemberSchema>;

/** POST /api/v1/staff (with an Idempotency-Key header). */
export const staffInviteSchema = z.object({
  email: z.email("validation.email").max(254),
  role: z.enum(STAFF_ROLES),
  displayName: z.string().trim().min(1).max(100).optional(),
});
export type StaffInvite = z.output<typeof staffInviteSchema>;

/**
 * 201 of POST /api/v1/staff: the member, and where the invitation went. The password setup link is
 * emailed to the invitee (the outbox) and never returned to the inviter (issue 26).
 */
export const staffInviteResultSchema = z.object({
  member: staffMemberSchema,
  invitationSentTo: z.string().describe("the invitee's email address: the password setup link went there"),
});
export type StaffInviteResult = z.output<typeof staffInviteResultSchema>;

/** PATCH /api/v1/staff/:uid: change the role, disable or enable; always with a reason. */
export const staffUpdateSchema = z
  .object({
    role: z.enum(STAFF_ROLES).optional(),
    disabled: z.boolean().optional(),
    reason: reasonSchema,
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, {
    path: ["role"],
    message: "validation.roleOrDisabled",
  });
export type StaffUpdate = z.output<typeof staffUpdateSchema>;

export const staffResource = defineResource({
  name: "staff",
  store: "table",
  label: "resources.staff.label",
  icon: "TeamOutlined",
  schema: staffMemberSchema,
  recordTitle: "email",
  fields: {
    email: { label: "fields.email", kind: "text" },
    displayName: { label: "fields.displayName", kind: "text" },
    role: { label: "fields.role", kind: "enum", options: STAFF_ROLES, labels: "roles" },
    disabled: { label: "fields.disabled", kind: "boolean" },
    invitedBy: { label: "fields.invitedBy", kind: "text" },
    confirmed: { label: "fields.confirmed", kind: "boolean" },
    confirmedBy: { label: "fields.confirmedBy", kind: "text" },
    confirmedAt: { label: "fields.confirmedAt", kind: "datetime" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    updatedAt: { label: "fields.updatedAt", kind: "datetime" },
  },
  list: {
    columns: ["email", "displayName", "role", "disabled", "confirmed", "createdAt"],
    defaultSort: [{ field: "email", order: "asc" }],
    sortable: ["email", "role", "createdAt"],
    filters: { role: ["eq", "in"], disabled: ["eq"] },
    search: { placeholder: "resources.staff.search" },
  },
  show: [
    "email",
    "displayName",
    "role",
    "disabled",
    "invitedBy",
    "confirmed",
    "confirmedBy",
    "confirmedAt",
    "createdAt",
    "updatedAt",
  ],
  actions: {
    // Another admin than the inviter vouches that the invitee is someone else (two-person rule, issue 26).
    confirm: {
      label: "resources.staff.actions.confirm",
      handler: "staff.confirm",
      when: { confirmed: [false] },
      reason: true,
      confirm: "resources.staff.confirm.confirm",
    },
  },
  access: {
    list: { admin: "all" },
    show: { admin: "all" },
    // Invitations and changes go through the staff module's own routes (Firebase users and claims).
    create: { admin: "all" },
    edit: { admin: "all" },
    confirm: { admin: "all" },
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.staff.actions.confirm": "Confirm",
      "resources.staff.confirm.confirm":
        "Confirm that {{title}} is the person invited, not another account of their inviter? From now on they may decide approvals.",
      "fields.confirmed": "Confirmed",
      "fields.confirmedBy": "Confirmed by",
      "fields.confirmedAt": "Confirmed on",
    },
    es: {
      "resources.staff.actions.confirm": "Confirmar",
      "resources.staff.confirm.confirm":
        "¿Confirmar que {{title}} es la persona invitada y no otra cuenta de quien la invitó? Desde ahora podrá decidir aprobaciones.",
      "fields.confirmed": "Confirmado",
      "fields.confirmedBy": "Confirmado por",
      "fields.confirmedAt": "Confirmado el",
    },
  },
});
