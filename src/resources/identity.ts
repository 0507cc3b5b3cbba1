import { z } from "zod";
import { ROLES } from "./define";
import { e164Schema, reasonSchema } from "./common";

// Identity and account security (issue 3): the signed-in user, claiming a subscriber identity,
// SMS allowances before phone sign-in and the staff MFA policy. Pure zod, shared by
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

/** POST /api/auth/sms-allowance: asked before the portal makes Firebase send a code. */
export const smsAllowanceRequestSchema = z.object({
  phoneNumber: e164Schema,
  purpose: z.enum(SMS_PURPOSES),
});
export type SmsAllowanceRequest = z.output<typeof smsAllowanceRequestSchema>;
export const smsAllowanceResultSchema = z.object({ allowed: z.literal(true) });

/**
 * When an invited staff member may first decide approvals (issue 26): once an admin other than their
 * inviter confirmed them (the default), or 24 hours after the invitation even unconfirmed.
 */
export const NEW_STAFF_APPROVAL_RULES = ["after-confirmation", "after-24-hours"] as const;

/** GET/PUT /api/v1/security-policy. */
export const securityPolicySchema = z.object({
  requireStaffMfa: z.boolean(),
  newStaffMayApprove: z.enum(NEW_STAFF_APPROVAL_RULES),
});
export type SecurityPolicy = z.output<typeof securityPolicySchema>;

/** A PUT names what it changes (one switch or both), always with a reason. */
export const securityPolicyUpdateSchema = z
  .object({
    requireStaffMfa: z.boolean().optional(),
    newStaffMayApprove: z.enum(NEW_STAFF_APPROVAL_RULES).optional(),
    reason: reasonSchema,
  })
  .refine((v) => v.requireStaffMfa !== undefined || v.newStaffMayApprove !== undefined, {
    path: ["requireStaffMfa"],
    message: "validation.policyChange",
  });
export type SecurityPolicyUpdate = z.output<typeof securityPolicyUpdateSchema>;
