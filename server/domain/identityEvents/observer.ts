import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Auth } from "firebase-admin/auth";
import type { Role } from "#resources/define";
import { recordAudit, type AuditEntry, type Executor } from "../../audit";
import type { VerifiedUser } from "../../auth/tokenVerifier";
import type { Db } from "../../db/client";
import { identitySnapshots } from "../../db/schema";
import { maskEmail } from "../../lib/masks";
import { alertAccountChange } from "../accountAlerts/alerts";
import { factsOfUserRecord, identityChangesOf, maskPhone, type IdentityChange, type IdentityFacts } from "./changes";

/** Where each recorded fact comes from: the verified ID token, or the Admin SDK's user record. */
export type IdentityFactSource = "id-token" | "admin-user-record";

/**
 * What one newer token revealed about a user: the sign-in it carries (when its `auth_time` is new)
 * and what changed in the user record since the last token seen. `contactsBefore` are the email
 * and phone number the account had before these changes: where a fraud alert must go.
 */
export interface IdentityObservation {
  operator: string;
  uid: string;
  role: Role | null;
  requestId: string | null;
  contactsBefore: { email: string | null; phone: string | null };
  /** The email and phone number the account has now. */
  contactsAfter: { email: string | null; phone: string | null };
  signIn: { authTime: number; method: string | null; secondFactor: string | null } | null;
  changes: IdentityChange[];
}

export interface IdentityObserver {
  /**
   * Called after a request's token was verified and admitted. Records what the token and the user
   * record reveal; never throws, and never holds the request longer than `waitMs` (a slow or
   * unreachable firebase-admin is logged and tried again on the next request).
   */
  observe(user: VerifiedUser, context: { operator: string; requestId: string; log: FastifyBaseLogger }): Promise<void>;
}

interface Seen {
  lastIat: number;
  lastAuthTime: number;
}

/**
 * Whether a token may reveal something not seen yet: minted after the last token checked, or
 * signed in after the last sign-in seen (a sign-in on another device in the same second as that
 * token). Tokens carry whole seconds: a change made in the same second as the last token checked
 * shows with the next token.
 */
const isNewer = (user: VerifiedUser, seen: Seen) => user.issuedAt > seen.lastIat || user.authTime > seen.lastAuthTime;

/** How long a request waits for its observation before going on without it. */
export const OBSERVE_WAIT_MS = 3_000;
const HANDLED_MAX = 50_000;

/**
 * Records identity events from the server's side (issue 27 item 4). Per (operator, uid) the
 * database keeps the last snapshot (identity_snapshots); a token minted after the last one checked
 * (`iat`) fetches the user record and records the differences. Cheap: this instance remembers the
 * newest `iat` it handled per user, so a burst of requests with one token costs at most one read.
 * Race-free: the snapshot is re-read FOR UPDATE and advanced only if no one handled a token as new
 * meanwhile, so parallel requests and other instances record each change once.
 */
export function createIdentityObserver(deps: {
  db: Db;
  /** firebase-admin Auth; throwing (not configured) counts as unreachable. */
  auth: () => Auth;
  waitMs?: number;
}): IdentityObserver {
  const waitMs = deps.waitMs ?? OBSERVE_WAIT_MS;
  /** The newest iat and auth_time handled per "operator/uid" by this instance. */
  const handled = new Map<string, Seen>();
  /** The observation running per "operator/uid" on this instance. */
  const running = new Map<string, Promise<void>>();

  const remember = (key: string, seen: Seen) => {
    if (handled.size >= HANDLED_MAX && !handled.has(key)) handled.delete(handled.keys().next().value!);
    const before = handled.get(key);
    handled.set(key, {
      lastIat: Math.max(seen.lastIat, before?.lastIat ?? 0),
      lastAuthTime: Math.max(seen.lastAuthTime, before?.lastAuthTime ?? 0),
    });
  };
  const isHandled = (key: string, user: VerifiedUser) => {
    const seen = handled.get(key);
    return seen !== undefined && !isNewer(user, seen);
  };

  async function observeOnce(user: VerifiedUser, operator: string, requestId: string): Promise<void> {
    const key = `${operator}/${user.uid}`;
    const where = and(eq(identitySnapshots.operatorCode, operator), eq(identitySnapshots.uid, user.uid));
    const [seen] = await deps.db
      .select({ lastIat: identitySnapshots.lastIat, lastAuthTime: identitySnapshots.lastAuthTime })
      .from(identitySnapshots)
      .where(where);
    if (seen && !isNewer(user, seen)) return remember(key, seen);

    // Outside the transaction: a transaction must not wait on the network (on PGlite it would hold
    // every other writer).
    const after = factsOfUserRecord(await deps.auth().getUser(user.uid));

    await deps.db.transaction(async (tx) => {
      let [snapshot] = await tx.select().from(identitySnapshots).where(where).for("update");
      if (!snapshot) {
        const [created] = await tx
          .insert(identitySnapshots)
          .values({
            operatorCode: operator,
            uid: user.uid,
            lastAuthTime: user.authTime,
            lastIat: user.issuedAt,
            ...after,
          })
          .onConflictDoNothing()
          .returning();
        if (created) {
          // First sight: the sign-in only, no changes invented against nothing.
          await recordIdentityEvents(tx, {
            ...observationBase(user, operator, requestId, after, after),
            signIn: signInOf(user),
            changes: [],
          });
          return;
        }
        // Another request created it meanwhile: go on against what it stored.
        [snapshot] = await tx.select().from(identitySnapshots).where(where).for("update");
        if (!snapshot) return;
      }
      if (!isNewer(user, snapshot)) return; // handled elsewhere meanwhile
      const before: IdentityFacts = {
        email: snapshot.email,
        phone: snapshot.phone,
        providers: snapshot.providers,
        mfaFactors: snapshot.mfaFactors,
      };
      await recordIdentityEvents(tx, {
        ...observationBase(user, operator, requestId, before, after),
        signIn: user.authTime > snapshot.lastAuthTime ? signInOf(user) : null,
        changes: identityChangesOf(before, after),
      });
      await tx
        .update(identitySnapshots)
        .set({
          lastAuthTime: Math.max(snapshot.lastAuthTime, user.authTime),
          lastIat: Math.max(snapshot.lastIat, user.issuedAt),
          ...after,
          updatedAt: new Date(),
        })
        .where(where);
    });
    remember(key, { lastIat: user.issuedAt, lastAuthTime: user.authTime });
  }

  return {
    async observe(user, { operator, requestId, log }) {
      const key = `${operator}/${user.uid}`;
      if (isHandled(key, user)) return;
      const work = (async () => {
        // One observation per user at a time on this instance; the next one starts from its result.
        for (let current = running.get(key); current; current = running.get(key)) {
          await current;
          if (isHandled(key, user)) return;
        }
        const run = observeOnce(user, operator, requestId)
          .catch((error: unknown) => {
            // Not advanced: the next request with this token (or a newer one) tries again.
            log.warn({ err: error }, "identity events not recorded this time (firebase-admin or database unavailable)");
          })
          .finally(() => {
            if (running.get(key) === run) running.delete(key);
          });
        running.set(key, run);
        await run;
      })();
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
        timer.unref();
      });
      await Promise.race([work, waited]);
      clearTimeout(timer);
    },
  };
}

function observationBase(
  user: VerifiedUser,
  operator: string,
  requestId: string,
  before: IdentityFacts,
  after: IdentityFacts,
): Omit<IdentityObservation, "signIn" | "changes"> {
  return {
    operator,
    uid: user.uid,
    role: user.role,
    requestId,
    contactsBefore: { email: before.email, phone: before.phone },
    contactsAfter: { email: after.email, phone: after.phone },
  };
}

const signInOf = (user: VerifiedUser): NonNullable<IdentityObservation["signIn"]> => ({
  authTime: user.authTime,
  method: user.signInProvider,
  secondFactor: user.secondFactor,
});

/**
 * The one place identity events are recorded, in the transaction that advances the snapshot: each
 * fact an audit row of the user, with its source. Nothing here is recorded twice, since the
 * snapshot advances in the same transaction.
 */
export async function recordIdentityEvents(tx: Executor, observation: IdentityObservation): Promise<void> {
  const rows = auditRowsOf(observation);
  for (const row of rows) await recordAudit(tx, row);
  // A subscriber's account changes alert the contact points they had BEFORE the change (issue 27
  // item 5), in this transaction so the outbox rows commit with the audit. A removed sign-in method
  // is not alerted (fewer ways in), every other change is; one alert per kind of change.
  if (observation.role !== "subscriber") return;
  const alerted = new Set(
    observation.changes.filter((change) => change.kind !== "sign-in-method" || change.after).map((c) => c.kind),
  );
  for (const change of alerted)
    await alertAccountChange(tx, {
      operator: observation.operator,
      uid: observation.uid,
      change,
      contacts: observation.contactsBefore,
      requestId: observation.requestId,
    });
}

/** The audit rows of an observation: the sign-in first, then each change. */
export function auditRowsOf(observation: IdentityObservation): AuditEntry[] {
  const row = (action: string, before: Record<string, unknown> | null, after: Record<string, unknown>): AuditEntry => ({
    operator: observation.operator,
    actorUid: observation.uid,
    actorRole: observation.role,
    action,
    targetType: "user",
    targetId: observation.uid,
    before,
    after,
    requestId: observation.requestId,
  });
  const fromRecord = { source: "admin-user-record" satisfies IdentityFactSource };
  const rows: AuditEntry[] = [];
  if (observation.signIn) {
    rows.push(
      row("identity.signed_in", null, {
        source: "id-token" satisfies IdentityFactSource,
        method: observation.signIn.method,
        secondFactor: observation.signIn.secondFactor,
        signedInAt: new Date(observation.signIn.authTime * 1000).toISOString(),
      }),
    );
  }
  const phoneOfMethod = (providerId: string, contacts: IdentityObservation["contactsBefore"]) =>
    providerId === "phone" ? { phone: maskPhone(contacts.phone) } : {};
  for (const change of observation.changes) {
    switch (change.kind) {
      case "sign-in-method":
        if (change.after)
          rows.push(
            row("identity.linked", null, {
              providerId: change.after,
              ...phoneOfMethod(change.after, observation.contactsAfter),
              ...fromRecord,
            }),
          );
        else if (change.before)
          rows.push(
            row(
              "identity.unlinked",
              { providerId: change.before, ...phoneOfMethod(change.before, observation.contactsBefore) },
              fromRecord,
            ),
          );
        break;
      case "mfa-change": {
        const factor = (f: NonNullable<typeof change.before>) => ({
          factor: f.factorId,
          phone: f.phoneLast4 ? `•••• ${f.phoneLast4}` : null,
        });
        if (change.after) rows.push(row("mfa.enrolled", null, { ...factor(change.after), ...fromRecord }));
        else if (change.before) rows.push(row("mfa.removed", factor(change.before), fromRecord));
        break;
      }
      case "email-change":
        rows.push(
          row(
            "identity.email_changed",
            { email: maskEmail(change.before) },
            { email: maskEmail(change.after), ...fromRecord },
          ),
        );
        break;
      case "phone-change":
        rows.push(
          row(
            "identity.phone_changed",
            { phone: maskPhone(change.before) },
            { phone: maskPhone(change.after), ...fromRecord },
          ),
        );
        break;
    }
  }
  return rows;
}
