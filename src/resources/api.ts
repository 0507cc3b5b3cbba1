import { z } from "zod";
import { UPGRADE_REQUIRED_PROBLEM } from "../config/appVersion";

// Shapes of the HTTP contract both sides read (design.md §4), declared once.

/** One field or parameter that made a request invalid. */
export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.output<typeof fieldErrorSchema>;

/** RFC 9457 problem details: every error the API answers. */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(fieldErrorSchema).optional(),
  })
  // RFC 9457 extension members (a shortfall's amount) pass through.
  .catchall(z.unknown())
  .describe("RFC 9457 problem details");
export type Problem = z.output<typeof problemSchema>;

/** Problem types the portal reacts to (beyond showing the detail). */
export const PROBLEM_TYPES = {
  /** Staff must sign in with a second factor while the operator requires it. */
  mfaRequired: "/problems/mfa-required",
  /** The action needs a sign-in from the last few minutes: re-authenticate, then retry. */
  reauthRequired: "/problems/reauth-required",
  /** The portal is older than the backend accepts (X-App-Version below its minimum): reload it. */
  upgradeRequired: UPGRADE_REQUIRED_PROBLEM,
  /** The two-person rule: whoever asked for a request above their bound may not decide it too. */
  ownRequest: "/problems/own-request",
  /** An invited staff member no admin but their inviter has confirmed yet (or, by the policy, within 24 hours of the invitation) decides nothing. */
  staffNotConfirmed: "/problems/staff-not-confirmed",
  /** A subscriber's records need the caller verified first (`POST /subscribers/{id}/actions/verify-caller`). */
  callerNotVerified: "/problems/caller-not-verified",
  /** Too many wrong answers verifying this caller: verification is locked for a while (`Retry-After`). */
  callerVerificationLocked: "/problems/caller-verification-locked",
} as const;

/** How recent a sign-in must be for actions declared with `reauth` (seconds). */
export const REAUTH_MAX_AGE_SECONDS = 5 * 60;

/**
 * A page of a list and how many match in all: exact up to 10,000, above that PostgreSQL's planner
 * estimate, and then `totalIsEstimate` is true (a list of a million rows is not counted on each page).
 * A request with `cursor` pages by keyset: deep pages cost what the first does.
 */
export const listResponse = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total: z.number().int(),
    totalIsEstimate: z.literal(true).optional(),
    /** Keyset pages (the request gave `cursor`): the next page's cursor, absent on the last page. */
    next: z.string().optional(),
  });
