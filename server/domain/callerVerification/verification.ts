import { randomInt } from "node:crypto";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { PROBLEM_TYPES } from "#resources/api";
import type { Principal } from "#resources/access";
import { recordAudit, type Executor } from "../../audit";
import type { Db } from "../../db/client";
import {
  accounts,
  callerVerificationAttempts,
  callerVerificationCodes,
  callerVerifications,
  lines,
  notifications,
  outboxMessages,
} from "../../db/schema";
import { ProblemError, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { hashSecret, verifySecret } from "../../lib/secretBox";
import { savedLocalesOf } from "../outbox/recipientLocale";
import { PERSON_OF_ACCOUNT } from "../tableSource";
import { lastFourDigits } from "../../lib/masks";

/**
 * Caller verification (issue 27 item 2). A staff member who verified a person (the holder of the
 * account the call is about) may open that person's records for 30 minutes: the "verified" access
 * scope (server/domain/tableSource.ts) reads `caller_verifications`. Wrong answers are counted per
 * person, whichever agent asked: the fifth within 15 minutes locks verifying that person for 15
 * minutes and alerts them. Neither the PIN nor a code is ever stored in clear, logged or audited.
 */

export const VERIFICATION_MINUTES = 30;
export const CODE_MINUTES = 10;
export const LOCK_MINUTES = 15;
export const MAX_WRONG_ANSWERS = 5;
const MINUTE = 60_000;

export type VerificationMethod = "pin" | "sms-code" | "override";

/** Until when each of these people is verified to the principal (people without a running verification are left out). */
export async function verifiedUntilOf(
  db: Executor,
  principal: Pick<Principal, "operator" | "uid">,
  subscriberUids: readonly string[],
): Promise<Map<string, Date>> {
  if (subscriberUids.length === 0) return new Map();
  const rows = await db
    .select({ uid: callerVerifications.subscriberUid, until: callerVerifications.verifiedUntil })
    .from(callerVerifications)
    .where(
      and(
        eq(callerVerifications.operatorCode, principal.operator),
        eq(callerVerifications.agentUid, principal.uid),
        inArray(callerVerifications.subscriberUid, [...new Set(subscriberUids)]),
        gt(callerVerifications.verifiedUntil, sql`now()`),
      ),
    );
  return new Map(rows.map((row) => [row.uid, row.until]));
}

/** Verifies `subscriberUid` to `agentUid` for the next 30 minutes (a running verification starts again). */
export async function grantVerification(
  tx: Executor,
  operator: string,
  agentUid: string,
  subscriberUid: string,
  method: VerificationMethod,
): Promise<Date> {
  const now = new Date();
  const until = new Date(now.getTime() + VERIFICATION_MINUTES * MINUTE);
  await tx
    .insert(callerVerifications)
    .values({
      operatorCode: operator,
      agentUid,
      subscriberUid,
      verifiedUntil: until,
      method,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [callerVerifications.operatorCode, callerVerifications.agentUid, callerVerifications.subscriberUid],
      set: { verifiedUntil: until, method, updatedAt: now },
    });
  // A right answer (or an admin's override) forgives the wrong ones before it.
  await tx
    .delete(callerVerificationAttempts)
    .where(
      and(
        eq(callerVerificationAttempts.operatorCode, operator),
        eq(callerVerificationAttempts.subscriberUid, subscriberUid),
      ),
    );
  return until;
}

/** When verifying this person unlocks, while a lock runs; null otherwise. */
export async function lockedUntilOf(db: Executor, operator: string, subscriberUid: string): Promise<Date | null> {
  const [row] = await db
    .select({ lockedUntil: callerVerificationAttempts.lockedUntil })
    .from(callerVerificationAttempts)
    .where(
      and(
        eq(callerVerificationAttempts.operatorCode, operator),
        eq(callerVerificationAttempts.subscriberUid, subscriberUid),
      ),
    );
  return row?.lockedUntil && row.lockedUntil.getTime() > Date.now() ? row.lockedUntil : null;
}

/** 429 `/problems/caller-verification-locked` with Retry-After until the lock ends. */
export function lockedProblem(until: Date): ProblemError {
  const ms = Math.max(1000, until.getTime() - Date.now());
  return new ProblemError(
    429,
    words("callerVerification.locked", { minutes: Math.max(1, Math.ceil(ms / MINUTE)) }),
    undefined,
    PROBLEM_TYPES.callerVerificationLocked,
    { "retry-after": String(Math.ceil(ms / 1000)) },
  );
}

/**
 * Whom a verification is about: the person (PERSON_OF_ACCOUNT: the holder's uid, or the account's id
 * while no one holds it) and what the audit trail names as its target.
 */
export interface Caller {
  person: string;
  target: { type: "user" | "account"; id: string };
}

/** The caller an account stands for (its holder, or the account itself while no one holds it). */
export const callerOf = (account: { id: string; ownerUid: string | null }): Caller =>
  account.ownerUid
    ? { person: account.ownerUid, target: { type: "user", id: account.ownerUid } }
    : { person: account.id, target: { type: "account", id: account.id } };

/** A wrong PIN or code: 422 at the field, and counted toward the lock once its transaction rolled back. */
export class WrongAnswer extends ProblemError {
  constructor(
    readonly method: "pin" | "sms-code",
    readonly caller: Caller,
  ) {
    const field = method === "pin" ? "pin" : "code";
    const message = words(method === "pin" ? "callerVerification.wrongPin" : "callerVerification.wrongCode");
    super(422, message, [{ path: field, message }]);
  }
}

/** An active line of the person, the first by number: where a code goes by SMS. */
async function activeLineOf(db: Executor, operator: string, person: string): Promise<string | null> {
  const [row] = await db
    .select({ msisdn: lines.msisdn })
    .from(lines)
    .innerJoin(accounts, eq(accounts.id, lines.accountId))
    .where(and(eq(accounts.operatorCode, operator), eq(PERSON_OF_ACCOUNT, person), eq(lines.status, "active")))
    .orderBy(asc(lines.msisdn))
    .limit(1);
  return row?.msisdn ?? null;
}

/**
 * Sends a one-time code (6 digits, 10 minutes, one use) by SMS to an active line of the person,
 * through the outbox; a code sent before to the same agent for the same person stops working.
 */
export async function sendCode(tx: Executor, principal: Principal, subscriberUid: string): Promise<string> {
  // (`subscriberUid` is the person: a holder's uid, or the account's id while no one holds it.)
  const msisdn = await activeLineOf(tx, principal.operator, subscriberUid);
  if (!msisdn)
    throw unprocessable(words("callerVerification.noLine"), [
      { path: "method", message: words("callerVerification.noLine") },
    ]);
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const codeHash = await hashSecret(code);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + CODE_MINUTES * MINUTE);
  await tx
    .insert(callerVerificationCodes)
    .values({
      operatorCode: principal.operator,
      agentUid: principal.uid,
      subscriberUid,
      codeHash,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [
        callerVerificationCodes.operatorCode,
        callerVerificationCodes.agentUid,
        callerVerificationCodes.subscriberUid,
      ],
      set: { codeHash, expiresAt, updatedAt: now },
    });
  const locale = (await savedLocalesOf(tx, principal.operator, [subscriberUid])).get(subscriberUid) ?? "en";
  // The outbox must carry the code to send it; the row is the message, as an SMS gateway would hold it.
  await tx.insert(outboxMessages).values({
    operatorCode: principal.operator,
    channel: "sms",
    recipient: msisdn,
    kind: "care.verification_code",
    params: { code, minutes: CODE_MINUTES },
    locale,
  });
  // Only the last 4 digits: the audit trail and the agent see where the code went.
  return lastFourDigits(msisdn)!;
}

/** Checks a code the caller read out: "match" uses it up; "none" when no code is waiting or it expired. */
export async function useCode(
  tx: Executor,
  principal: Principal,
  subscriberUid: string,
  code: string,
): Promise<"match" | "mismatch" | "none"> {
  const key = and(
    eq(callerVerificationCodes.operatorCode, principal.operator),
    eq(callerVerificationCodes.agentUid, principal.uid),
    eq(callerVerificationCodes.subscriberUid, subscriberUid),
  );
  const [row] = await tx.select().from(callerVerificationCodes).where(key).for("update");
  if (!row || row.expiresAt.getTime() <= Date.now()) return "none";
  if (!(await verifySecret(code, row.codeHash))) return "mismatch";
  await tx.delete(callerVerificationCodes).where(key);
  return "match";
}

/**
 * Counts a wrong answer (in its own transaction: the request's rolled back) and audits it. The
 * fifth within 15 minutes locks verifying the person for 15 minutes, audits the lock, and alerts
 * them in the inbox and, through the outbox, by email and SMS; then answers that lock (429).
 */
export async function countWrongAnswer(
  db: Db,
  principal: Principal,
  requestId: string | null,
  wrong: WrongAnswer,
): Promise<ProblemError | null> {
  const { method } = wrong;
  const { person: subscriberUid, target } = wrong.caller;
  return db.transaction(async (tx) => {
    const now = new Date();
    const windowStart = new Date(now.getTime() - LOCK_MINUTES * MINUTE);
    const [attempts] = await tx
      .insert(callerVerificationAttempts)
      .values({
        operatorCode: principal.operator,
        subscriberUid,
        failedCount: 1,
        windowStartedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [callerVerificationAttempts.operatorCode, callerVerificationAttempts.subscriberUid],
        // Wrong answers older than the window are forgotten: the count starts again.
        set: {
          failedCount: sql`case when ${callerVerificationAttempts.windowStartedAt} < ${windowStart} then 1 else ${callerVerificationAttempts.failedCount} + 1 end`,
          windowStartedAt: sql`case when ${callerVerificationAttempts.windowStartedAt} < ${windowStart} then ${now} else ${callerVerificationAttempts.windowStartedAt} end`,
          updatedAt: now,
        },
      })
      .returning({ failedCount: callerVerificationAttempts.failedCount });
    const audit = (action: string, after: Record<string, unknown>) =>
      recordAudit(tx, {
        operator: principal.operator,
        actorUid: principal.uid,
        actorRole: principal.role,
        action,
        targetType: target.type,
        targetId: target.id,
        after,
        requestId,
      });
    await audit("caller-verification.failed", { method, wrongAnswers: attempts!.failedCount });
    if (attempts!.failedCount < MAX_WRONG_ANSWERS) return null;

    const lockedUntil = new Date(now.getTime() + LOCK_MINUTES * MINUTE);
    await tx
      .update(callerVerificationAttempts)
      .set({ failedCount: 0, windowStartedAt: now, lockedUntil, updatedAt: now })
      .where(
        and(
          eq(callerVerificationAttempts.operatorCode, principal.operator),
          eq(callerVerificationAttempts.subscriberUid, subscriberUid),
        ),
      );
    // Any code waiting for this person stops working with the lock.
    await tx
      .delete(callerVerificationCodes)
      .where(
        and(
          eq(callerVerificationCodes.operatorCode, principal.operator),
          eq(callerVerificationCodes.subscriberUid, subscriberUid),
        ),
      );
    await audit("caller-verification.locked", { lockedUntil: lockedUntil.toISOString() });
    await alertLocked(tx, principal.operator, wrong.caller);
    return lockedProblem(lockedUntil);
  });
}

/**
 * The person hears about the lock everywhere they can: the inbox (when someone holds the account),
 * their accounts' email, and an active line.
 */
async function alertLocked(tx: Executor, operator: string, { person: subscriberUid, target }: Caller) {
  const params = { minutes: LOCK_MINUTES };
  if (target.type === "user")
    await tx
      .insert(notifications)
      .values({ operatorCode: operator, recipientUid: subscriberUid, kind: "care.verification_locked", params });
  const emails = await tx
    .selectDistinct({ email: accounts.email })
    .from(accounts)
    .where(and(eq(accounts.operatorCode, operator), eq(PERSON_OF_ACCOUNT, subscriberUid)));
  const msisdn = await activeLineOf(tx, operator, subscriberUid);
  const locale = (await savedLocalesOf(tx, operator, [subscriberUid])).get(subscriberUid) ?? "en";
  const outgoing = [
    ...emails.flatMap((row) => (row.email ? [{ channel: "email" as const, recipient: row.email }] : [])),
    ...(msisdn ? [{ channel: "sms" as const, recipient: msisdn }] : []),
  ];
  if (outgoing.length)
    await tx
      .insert(outboxMessages)
      .values(
        outgoing.map((m) => ({ ...m, operatorCode: operator, kind: "care.verification_locked", params, locale })),
      );
}
