import { eq } from "drizzle-orm";
import { PROBLEM_TYPES } from "#resources/api";
import { staffMembers } from "../../db/schema";
import { ProblemError } from "../../errors";
import { words, type Words } from "../../i18n/words";
import type { ActionHandler } from "../../engine/types";
import { refuseUnconfirmedStaff, type StaffRow } from "./trust";

const notAnotherPerson = (detail: Words, path: string, message: Words) =>
  new ProblemError(403, detail, [{ path, message }], PROBLEM_TYPES.ownRequest);

/**
 * staff/{id}/actions/confirm (admins, reason required, `when: confirmed = false`): an admin other than
 * the inviter vouches that the invited member is someone else, not a second account of their inviter;
 * from then on the member may decide approvals. The confirmer must be trusted that way themselves
 * (two unconfirmed invitees of one admin cannot confirm each other). The engine locks the row and
 * audits `staff.confirm` with before, after and the reason; the table refuses the inviter and the member.
 */
export const confirmStaffMember: ActionHandler<StaffRow> = {
  async run(ctx) {
    const member = ctx.row;
    if (member.uid === ctx.principal.uid)
      throw notAnotherPerson(words("staff.confirm.yourself"), "uid", words("staff.field.isYourself"));
    if (member.invitedBy === ctx.principal.uid) {
      throw notAnotherPerson(words("staff.confirm.inviter"), "invitedBy", words("staff.confirm.field.inviter"));
    }
    await refuseUnconfirmedStaff(ctx.tx, ctx.principal, words("staff.doing.confirm"));
    const now = new Date();
    await ctx.tx
      .update(staffMembers)
      .set({ confirmedBy: ctx.principal.uid, confirmedAt: now, updatedAt: now })
      .where(eq(staffMembers.uid, member.uid));
  },
};
