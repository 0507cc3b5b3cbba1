import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { translateTo } from "#i18n/dictionaries";
import type { ThisWasntMeResult } from "#resources/accountAlerts";
import type { ResourceEvent } from "#resources/events";
import { recordAudit } from "../../audit";
import { accountAlertLinks, accounts, lines, ticketMessages, tickets } from "../../db/schema";
import { adminAuth, type EngineServices } from "../../engine/services";
import { ProblemError, notFound } from "../../errors";
import { textIn, words } from "../../i18n/words";
import { lastFourDigits } from "../../lib/masks";
import { lockNumbers } from "../lines/handlers";
import { ALERT_LINK_MS, alertTokenHash } from "./alerts";

/** Care reads fraud tickets in the operator's language of work. */
const CARE_LOCALE = "en";

const gone = (key: "accountAlerts.linkUsed" | "accountAlerts.linkExpired") =>
  new ProblemError(410, words(key, { days: ALERT_LINK_MS / 86_400_000 }), [
    { path: "token", message: words(`${key}Field`) },
  ]);

/**
 * "This wasn't me" (issue 27): the holder of an alerted account says a change was not theirs. In one
 * transaction: the link is used up, every line of every account they hold is locked against
 * transfer (the lines' own lock, server/domain/lines/handlers.ts), an urgent fraud ticket is opened
 * for care on the account the change was made to (else their first), and it is audited; before it
 * commits, Firebase revokes every refresh token of theirs (a failure rolls it all back, so the link
 * can be pressed again). Once committed, every backend instance drops its cached verifications of
 * the person (server/auth/accessInvalidation.ts): tokens issued before now are refused everywhere.
 */
export async function useThisWasntMeLink(
  services: Pick<EngineServices, "db" | "auth" | "invalidation">,
  token: string,
  requestId: string,
): Promise<{ result: ThisWasntMeResult; events: Omit<ResourceEvent, "at">[] }> {
  const done = await services.db.transaction(async (tx) => {
    const [link] = await tx
      .select()
      .from(accountAlertLinks)
      .where(eq(accountAlertLinks.tokenHash, alertTokenHash(token)))
      .for("update");
    if (!link) throw notFound(words("accountAlerts.linkUnknown")); // same answer as for a token never issued
    if (link.usedAt) throw gone("accountAlerts.linkUsed");
    if (link.expiresAt.getTime() <= Date.now()) throw gone("accountAlerts.linkExpired");
    const { operatorCode: operator, uid } = link;
    await tx.update(accountAlertLinks).set({ usedAt: new Date() }).where(eq(accountAlertLinks.id, link.id));

    const held = await tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)))
      .orderBy(asc(accounts.createdAt), asc(accounts.id));
    const theirLines = held.length
      ? await tx
          .select({ id: lines.id, accountId: lines.accountId, msisdn: lines.msisdn })
          .from(lines)
          .where(
            and(
              inArray(
                lines.accountId,
                held.map((a) => a.id),
              ),
              ne(lines.status, "terminated"),
            ),
          )
      : [];
    const locked = await lockNumbers(
      tx,
      theirLines.map((l) => l.id),
    );

    const changedLine = theirLines.find((l) => l.id === link.lineId);
    const accountId = changedLine?.accountId ?? held[0]?.id;
    let ticketId: string | null = null;
    if (accountId) {
      const what = (locale: "en" | "es") =>
        translateTo(locale, `accountAlerts.what.${link.change}`, { msisdn: lastFourDigits(changedLine?.msisdn) ?? "" });
      const [ticket] = await tx
        .insert(tickets)
        .values({
          operatorCode: operator,
          accountId,
          category: "fraud",
          priority: "urgent",
          subject: textIn(CARE_LOCALE, words("accountAlerts.ticketSubject")),
          createdBy: uid,
          createdByRole: "subscriber",
        })
        .returning({ id: tickets.id });
      ticketId = ticket!.id;
      await tx.insert(ticketMessages).values({
        ticketId,
        authorUid: uid,
        authorRole: "subscriber",
        body: textIn(
          CARE_LOCALE,
          words("accountAlerts.ticketMessage", {
            what,
            lines: theirLines.length,
          }),
        ),
      });
    }
    await recordAudit(tx, {
      operator,
      actorUid: uid,
      actorRole: "subscriber",
      action: "account.this_wasnt_me",
      targetType: "user",
      targetId: uid,
      after: { change: link.change, lineId: link.lineId, linesLocked: locked, ticketId },
      requestId,
    });
    // Last, so that a refusal by Firebase leaves the link unused and nothing changed.
    await adminAuth(services).revokeRefreshTokens(uid);
    return { operator, uid, locked, lineCount: theirLines.length, ticketId };
  });
  await services.invalidation.forgetUser(done.uid);

  const events: Omit<ResourceEvent, "at">[] = [];
  if (done.locked.length)
    events.push({
      operator: done.operator,
      resource: "lines",
      type: "updated",
      ids: done.locked,
      ownerUids: [done.uid],
    });
  if (done.ticketId)
    events.push({
      operator: done.operator,
      resource: "tickets",
      type: "created",
      ids: [done.ticketId],
      ownerUids: [done.uid],
    });
  return {
    result: { linesLocked: done.lineCount, signedOut: true, ticketOpened: done.ticketId !== null },
    events,
  };
}
