import { and, eq } from "drizzle-orm";
import type { VerifyCallerInput } from "#resources/subscribers";
import { staffMembers } from "../../db/schema";
import { badRequest, forbidden, ProblemError, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import type { ActionHandler } from "../../engine/types";
import { checkCarePin } from "../carePins/carePins";
import type { SubscriberRow } from "../subscribers/module";
import { personOfAccount } from "../tableSource";
import {
  countWrongAnswer,
  grantVerification,
  callerOf,
  lockedProblem,
  lockedUntilOf,
  sendCode,
  useCode,
  WrongAnswer,
} from "./verification";

/** 400 at each field the method does not take (a PIN sent with an SMS code, say). */
function refuseOthers(input: VerifyCallerInput, takes: readonly (keyof VerifyCallerInput)[]) {
  const extra = (["pin", "code", "agentUid"] as const).filter((f) => input[f] !== undefined && !takes.includes(f));
  if (extra.length) {
    const errors = extra.map((path) => ({ path, message: words("callerVerification.notForThisMethod") }));
    throw badRequest(errors[0]!.message, errors);
  }
}

const required = (path: string, message: ReturnType<typeof words>) => badRequest(message, [{ path, message }]);

/**
 * `POST /subscribers/{id}/actions/verify-caller` (issue 27 item 2): the account in the path stands
 * for its holder, and verifying through any of their accounts verifies the person.
 * - `{method: "pin", pin}`: the holder's care PIN (422 at `pin` when they never set one: use a code).
 * - `{method: "sms-code"}`: sends a 6-digit code by SMS to an active line of theirs (outbox), valid
 *   10 minutes, one use; then `{method: "sms-code", code}` with what the caller reads out.
 * - `{method: "override", agentUid}` + `reason` (admins): grants that staff member a verification;
 *   the holder is told in their inbox.
 * A right answer verifies the caller to the asking staff member for 30 minutes. A wrong one answers
 * 422 at the field and counts; the fifth within 15 minutes locks verifying the person for 15
 * minutes (429 `/problems/caller-verification-locked`, Retry-After) and alerts them. All audited,
 * never with the PIN or the code.
 */
export const verifyCaller: ActionHandler<SubscriberRow, VerifyCallerInput> = {
  async before({ principal, services, recordId, input }) {
    // An admin's override is how a locked person is helped anyway; everyone else waits for the lock.
    if (input.method === "override") return;
    const person = await personOfAccount(services.db, principal.operator, recordId);
    const lockedUntil = person ? await lockedUntilOf(services.db, principal.operator, person) : null;
    if (lockedUntil) throw lockedProblem(lockedUntil);
  },

  async run({ tx, principal, row, input, reason, effects }) {
    // A customer whose account no one holds in the app yet is verified by the account (a code to its line).
    const caller = callerOf(row);
    const holder = caller.person;
    const audit = (action: string, after: Record<string, unknown>, why?: string | null) =>
      effects.audit({ action, targetType: caller.target.type, targetId: caller.target.id, after, reason: why ?? null });

    switch (input.method) {
      case "pin": {
        refuseOthers(input, ["pin"]);
        if (!input.pin) throw required("pin", words("callerVerification.pinRequired"));
        const outcome = await checkCarePin(tx, principal.operator, holder, input.pin);
        if (outcome === "not-set")
          throw unprocessable(words("callerVerification.noPin"), [
            { path: "pin", message: words("callerVerification.noPin") },
          ]);
        if (outcome === "mismatch") throw new WrongAnswer("pin", caller);
        const until = await grantVerification(tx, principal.operator, principal.uid, holder, "pin");
        await audit("caller-verification.verified", {
          method: "pin",
          agentUid: principal.uid,
          until: until.toISOString(),
        });
        return;
      }
      case "sms-code": {
        refuseOthers(input, ["code"]);
        if (input.code === undefined) {
          const sentTo = await sendCode(tx, principal, holder);
          await audit("caller-verification.code-sent", { sentTo });
          return;
        }
        const outcome = await useCode(tx, principal, holder, input.code);
        if (outcome === "none")
          throw unprocessable(words("callerVerification.noCode"), [
            { path: "code", message: words("callerVerification.noCode") },
          ]);
        if (outcome === "mismatch") throw new WrongAnswer("sms-code", caller);
        const until = await grantVerification(tx, principal.operator, principal.uid, holder, "sms-code");
        await audit("caller-verification.verified", {
          method: "sms-code",
          agentUid: principal.uid,
          until: until.toISOString(),
        });
        return;
      }
      case "override": {
        if (principal.role !== "admin") throw forbidden(words("callerVerification.adminsOnly"));
        refuseOthers(input, ["agentUid"]);
        if (!input.agentUid) throw required("agentUid", words("callerVerification.agentRequired"));
        if (!reason) throw required("reason", words("callerVerification.reasonRequired"));
        const [agent] = await tx
          .select({ uid: staffMembers.uid })
          .from(staffMembers)
          .where(
            and(
              eq(staffMembers.uid, input.agentUid),
              eq(staffMembers.operatorCode, principal.operator),
              eq(staffMembers.disabled, false),
            ),
          );
        if (!agent)
          throw unprocessable(words("callerVerification.noSuchAgent"), [
            { path: "agentUid", message: words("callerVerification.noSuchAgent") },
          ]);
        const until = await grantVerification(tx, principal.operator, agent.uid, holder, "override");
        await audit(
          "caller-verification.override",
          { method: "override", agentUid: agent.uid, until: until.toISOString() },
          reason,
        );
        // The holder is told in their inbox; an account no one holds has no inbox to tell.
        if (row.ownerUid)
          await effects.notify({ recipientUid: row.ownerUid, kind: "care.verification_override", params: { reason } });
        return;
      }
    }
  },

  async failed({ principal, services }, error) {
    if (!(error instanceof WrongAnswer)) return;
    const locked: ProblemError | null = await countWrongAnswer(services.db, principal, null, error);
    // The fifth wrong answer answers with the lock it set (instead of one more "wrong PIN").
    if (locked) throw locked;
  },
};
