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
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type StaffMember = z.output<typeof staffMemberSchema>;

/** POST /api/v1/staff (with an Idempotency-Key header). */
export const staffInviteSchema = z.object({
  email: z.email("a valid email address").max(254),
  role: z.enum(STAFF_ROLES),
  displayName: z.string().trim().min(1).max(100).optional(),
});
export type StaffInvite = z.output<typeof staffInviteSchema>;

/** 201 of POST /api/v1/staff: the member and the link with which they set their password. */
export const staffInviteResultSchema = z.object({
  member: staffMemberSchema,
  passwordSetupLink: z.string(),
});
export type StaffInviteResult = z.output<typeof staffInviteResultSchema>;

/** PATCH /api/v1/staff/:uid: change the role, disable or enable; always with a reason. */
export const staffUpdateSchema = z
  .object({
    role: z.enum(STAFF_ROLES).optional(),
    disabled: z.boolean().optional(),
    reason: reasonSchema,
  })
  .refine((v) => v.role !== undefined || v.disabled !== undefined, { path: ["role"], message: "give role, disabled or both" });
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
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    updatedAt: { label: "fields.updatedAt", kind: "datetime" },
  },
  list: {
    columns: ["email", "displayName", "role", "disabled", "createdAt"],
    defaultSort: [{ field: "email", order: "asc" }],
    sortable: ["email", "role", "createdAt"],
    filters: { role: ["eq", "in"], disabled: ["eq"] },
    search: { placeholder: "resources.staff.search" },
  },
  show: ["email", "displayName", "role", "disabled", "invitedBy", "createdAt", "updatedAt"],
  access: {
    list: { admin: "all" },
    show: { admin: "all" },
    // Invitations and changes go through the staff module's own routes (Firebase users and claims).
    create: { admin: "all" },
    edit: { admin: "all" },
  },
  source: "backend",
  audit: true,
  views: { list: () => import("../pages/staff/StaffPage") },
});
