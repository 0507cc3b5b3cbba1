import { and, eq } from "drizzle-orm";
import type { Principal } from "#resources/access";
import { PROBLEM_TYPES } from "#resources/api";
import type { Executor } from "../../audit";
import { securityPolicyOf } from "../../auth/operatorSettings";
import { operators, staffMembers } from "../../db/schema";
import { ProblemError } from "../../errors";
import { words, type Words } from "../../i18n/words";

/** Under the 24-hour rule, how long after the invitation an unconfirmed member waits. */
export const NEW_STAFF_WAIT_MS = 24 * 3_600_000;
/** How long an inviter stays too close to the person they invited to approve that person's requests. */
export const INVITER_WINDOW_MS = 30 * 24 * 3_600_000;

export type StaffRow = typeof staffMembers.$inferSelect;

/** The principal's own staff row in their operator, or null (claims set outside the portal: no record). */
export async function staffRowOf(tx: Executor, operator: string, uid: string): Promise<StaffRow | null> {
  const [row] = await tx
    .select()
    .from(staffMembers)
    .where(and(eq(staffMembers.operatorCode, operator), eq(staffMembers.uid, uid)))
    .limit(1);
  return row ?? null;
}

/**
 * Whether this member may act as a second person (decide an approval, confirm a colleague): seeded
 * staff (no inviter), a member an admin other than their inviter confirmed, or, when the operator's
 * policy is `after-24-hours`, one invited at least 24 hours ago. Read in the caller's transaction
 * (PGlite has one connection, so not through the settings cache).
 */
/** `doing` names what is refused, as words that follow "You cannot" ("decide approvals"). */
export async function refuseUnconfirmedStaff(tx: Executor, principal: Principal, doing: Words): Promise<void> {
  const row = await staffRowOf(tx, principal.operator, principal.uid);
  if (row && !row.disabled && (row.invitedBy === null || row.confirmedBy !== null)) return;
  let rule = "after-confirmation";
  if (row && !row.disabled) {
    const [operator] = await tx
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, principal.operator))
      .limit(1);
    rule = securityPolicyOf(operator?.settings).newStaffMayApprove;
    if (rule === "after-24-hours" && Date.now() - row.createdAt.getTime() >= NEW_STAFF_WAIT_MS) return;
  }
  const refusal = !row
    ? "staff.notOnRecord"
    : rule === "after-24-hours"
      ? "staff.unconfirmedOr24Hours"
      : "staff.unconfirmed";
  throw new ProblemError(
    403,
    words(refusal, { doing }),
    [{ path: "confirmedBy", message: words("staff.field.notConfirmed") }],
    PROBLEM_TYPES.staffNotConfirmed,
  );
}
