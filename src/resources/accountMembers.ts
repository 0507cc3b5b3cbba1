import { z } from "zod";
import { idSchema, isoDateTime } from "./common";

/**
 * People on an account besides its holder (issue 28 item 6). A `member` sees and manages only the
 * lines assigned to them (meters, usage, SIM and lock actions); a `manager` everything of the account
 * but the holder's payment methods and the people on it. Which records each reaches is declared per
 * resource (`ownership.sharedWith`, src/resources/define.ts) and decided by the one scope
 * (server/domain/tableSource.ts). Pure data + zod, shared by the backend and the portal.
 */
export const MEMBER_ROLES = ["member", "manager"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** An invitation is a link valid this many days, usable once. */
export const MEMBER_INVITATION_DAYS = 7;

/** The portal page an invitation opens; the token travels in the fragment (never in a server log or a Referer). */
export const JOIN_ACCOUNT_PATH = "/join-account";
export const joinAccountLink = (token: string) => `${JOIN_ACCOUNT_PATH}#${token}`;

/** The most lines one invitation may name (a family account's lines). */
export const MAX_MEMBER_LINES = 20;

/** The fields of `POST /accounts/{id}/actions/invite-member`, before the rules across them. */
export const inviteMemberFields = z
  .object({
    email: z.email("validation.email").max(254),
    role: z.enum(MEMBER_ROLES),
    lineIds: z.array(idSchema).max(MAX_MEMBER_LINES).default([]),
  })
  .strict();

/** A member needs at least one line (a manager's lines are all of them); no line twice. */
export function checkMemberLines(input: { role: MemberRole; lineIds: readonly string[] }, ctx: z.RefinementCtx) {
  if (input.role === "member" && input.lineIds.length === 0)
    ctx.addIssue({ code: "custom", path: ["lineIds"], message: "validation.memberLines" });
  if (new Set(input.lineIds).size !== input.lineIds.length)
    ctx.addIssue({ code: "custom", path: ["lineIds"], message: "validation.memberLinesTwice" });
}

/** `POST /accounts/{id}/actions/invite-member`. */
export const inviteMemberInputSchema = inviteMemberFields.superRefine(checkMemberLines);
export type InviteMemberInput = z.output<typeof inviteMemberInputSchema>;

/** What inviting answers: the link to give the person (also emailed to them). */
export const inviteMemberResultSchema = z.object({ invitationUrl: z.string() });

/** `POST /accounts/{id}/actions/remove-member`. */
export const removeMemberInputSchema = z.object({ memberId: idSchema }).strict();

export const MEMBER_STATUSES = ["invited", "active"] as const;

/** One person on the account, as `GET /accounts/{id}/members` lists them. */
export const accountMemberSchema = z.object({
  id: idSchema,
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  /** invited: the link was not used yet (until `expiresAt`); active: they accepted. */
  status: z.enum(MEMBER_STATUSES),
  lines: z.array(z.object({ id: idSchema, msisdn: z.string() })),
  expiresAt: isoDateTime.nullable(),
  acceptedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type AccountMember = z.output<typeof accountMemberSchema>;
export const accountMembersSchema = z.object({ data: z.array(accountMemberSchema) });

/** A link's token: 32 random bytes in base64url (43 characters). */
export const joinTokenSchema = z
  .string({ error: "validation.alertLink" })
  .regex(/^[A-Za-z0-9_-]{43}$/, "validation.alertLink");

/** `POST /api/v1/account-invitations/accept`: the signed-in person takes the invitation of the link. */
export const acceptInvitationBodySchema = z.object({ token: joinTokenSchema }).strict();
export const acceptInvitationResultSchema = z.object({
  accountId: idSchema,
  accountName: z.string(),
  role: z.enum(MEMBER_ROLES),
});
export type AcceptInvitationResult = z.output<typeof acceptInvitationResultSchema>;
