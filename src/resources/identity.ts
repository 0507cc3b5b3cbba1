import { z } from "zod";
import { isValidPhoneNumber } from "libphonenumber-js/min";
import { defineResource, ROLES } from "./define";
import { isoDateTime } from "./common";

// Identity and account security (issue 3): the signed-in user, claiming a subscriber identity,
// SMS allowances before phone sign-in, the staff MFA policy and the audit trail. Pure zod, shared by
// the portal and the backend (which validates with exactly these schemas).

/** GET /api/v1/me: who the caller is, as Firebase and the operator know them. */
export const meSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  role: z.enum(ROLES).nullable(),
  operator: z.string().nullable(),
  /** The second factor this session was signed in with ("phone"), or null. */
  secondFactor: z.string().nullable(),
  /** The caller is staff and the operator requires staff to sign in with a second factor. */
  mfaRequired: z.boolean(),
  /** The account has at least one enrolled second factor. */
  mfaEnrolled: z.boolean(),
  /** Sign-in providers linked to the account ("password", "phone", "google.com", ...). */
  providers: z.array(z.string()),
  /** Accounts of this operator the caller owns. */
  accountsOwned: z.number().int().min(0),
});
export type Me = z.output<typeof meSchema>;

/** POST /api/v1/me/claim: the caller is now a subscriber of the operator; `linkedAccounts` were linked by this call. */
export const claimResultSchema = z.object({
  role: z.literal("subscriber"),
  operator: z.string(),
  linkedAccounts: z.number().int().min(0),
});
export type ClaimResult = z.output<typeof claimResultSchema>;

export const SMS_PURPOSES = ["sign_in", "mfa_enroll", "mfa_sign_in", "link"] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];

export const e164Schema = z
  .string()
  .max(16)
  .refine((v) => /^\+[1-9]\d{6,14}$/.test(v) && isValidPhoneNumber(v), "a valid phone number in E.164 form, such as +12025550101");

/** POST /api/auth/sms-allowance: asked before the portal makes Firebase send a code. */
export const smsAllowanceRequestSchema = z.object({
  phoneNumber: e164Schema,
  purpose: z.enum(SMS_PURPOSES),
});
export type SmsAllowanceRequest = z.output<typeof smsAllowanceRequestSchema>;
export const smsAllowanceResultSchema = z.object({ allowed: z.literal(true) });

/** GET/PUT /api/v1/security-policy. */
export const securityPolicySchema = z.object({
  requireStaffMfa: z.boolean(),
});
export type SecurityPolicy = z.output<typeof securityPolicySchema>;

export const reasonSchema = z.string().trim().min(3, "give a reason of at least 3 characters").max(500);

export const securityPolicyUpdateSchema = securityPolicySchema.extend({ reason: reasonSchema });
export type SecurityPolicyUpdate = z.output<typeof securityPolicyUpdateSchema>;

export const AUDIT_REPORT_ACTIONS = ["mfa.enrolled", "mfa.removed", "identity.linked", "identity.unlinked"] as const;

/** POST /api/v1/me/audit: the portal reports a change it made through Firebase Auth itself. */
export const auditReportSchema = z.object({
  action: z.enum(AUDIT_REPORT_ACTIONS),
  detail: z.string().trim().max(200),
});
export type AuditReport = z.output<typeof auditReportSchema>;

/** One row of the append-only audit trail. */
export const auditEventSchema = z.object({
  id: z.uuid(),
  operator: z.string(),
  actorUid: z.string().nullable(),
  actorRole: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  requestId: z.string().nullable(),
  createdAt: isoDateTime,
});
export type AuditEvent = z.output<typeof auditEventSchema>;

/** GET /api/v1/audit-events: read-only, for the operator's staff. Not in the registry (yet). */
export const auditEventsResource = defineResource({
  name: "audit-events",
  label: "resources.auditEvents.label",
  icon: "AuditOutlined",
  schema: auditEventSchema,
  recordTitle: "action",
  fields: {
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    action: { label: "fields.action", kind: "text" },
    actorUid: { label: "fields.actor", kind: "text" },
    actorRole: { label: "fields.role", kind: "enum", options: ROLES },
    targetType: { label: "fields.targetType", kind: "text" },
    targetId: { label: "fields.targetId", kind: "text" },
    reason: { label: "fields.reason", kind: "text" },
  },
  list: {
    columns: ["createdAt", "action", "actorUid", "targetType", "targetId"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt"],
    filters: { action: ["eq", "in", "startswith"], actorUid: ["eq"], targetType: ["eq"], targetId: ["eq"] },
  },
  show: ["createdAt", "action", "actorUid", "actorRole", "targetType", "targetId", "reason"],
  access: {
    list: { agent: "all", admin: "all" },
  },
  source: "backend",
  audit: false,
});
