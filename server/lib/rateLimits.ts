import { createHash } from "node:crypto";
import { and, eq, lte, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimitWindows } from "../db/schema";
import { tooManyRequests } from "../errors";
import type { Worded } from "../i18n/words";
import { assertValidLimit, decide, hitsInWindow, type WindowDecision, type WindowLimit } from "./slidingWindow";

/** Every rate limit of the backend; buildApp takes overrides so tests can use small numbers. A new limit is one more entry here. */
export interface RateLimits {
  /** SMS allowances per phone number (POST /api/auth/sms-allowance). */
  smsPerNumber: WindowLimit;
  /** SMS allowances per client IP. */
  smsPerIp: WindowLimit;
  /** Any /api/auth/* request per client IP (sign-in related, unauthenticated). */
  authPerIp: WindowLimit;
  /** POST /api/v1/me/claim per uid. */
  claimPerUid: WindowLimit;
  /** Failed voucher redemptions per account (guessing codes): the next attempt is refused. */
  voucherFailuresPerAccount: WindowLimit;
  /** Missing or unknown API keys on service paths per client IP (guessing ingest keys): the next attempt is refused. */
  serviceKeyFailuresPerIp: WindowLimit;
  /** POST /api/v1/public/this-wasnt-me per client IP (no sign-in: guessing links is slowed down). */
  thisWasntMePerIp: WindowLimit;
}

export type LimitName = keyof RateLimits;

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  smsPerNumber: { max: 3, windowMs: 10 * MINUTE },
  smsPerIp: { max: 10, windowMs: 60 * MINUTE },
  authPerIp: { max: 60, windowMs: MINUTE },
  claimPerUid: { max: 10, windowMs: MINUTE },
  voucherFailuresPerAccount: { max: 5, windowMs: 15 * MINUTE },
  serviceKeyFailuresPerIp: { max: 10, windowMs: MINUTE },
  thisWasntMePerIp: { max: 10, windowMs: 15 * MINUTE },
};

/** One hit against one limit for one key (a phone number, an address, a uid). */
export interface LimitHit {
  limit: LimitName;
  key: string;
  /** What a 429 says when this limit is the one that refuses. */
  detail: Worded;
}

export interface LimitDecision extends WindowDecision {
  /** The hits whose limit refused, in the order given; the wait is the longest of theirs. */
  refused: LimitHit[];
}

export interface TakeOptions {
  /** false: only ask whether the hits would be allowed, and record nothing (e.g. before an attempt whose failures alone count). */
  record?: boolean;
}

export interface RateLimiter {
  /** Decides the hits together: when every limit allows, each records one hit; otherwise none does (refusals are not counted). */
  take(hits: LimitHit[], options?: TakeOptions): Promise<LimitDecision>;
  /** take(), or a 429 problem+json with Retry-After and the detail of the first refusing limit. */
  enforce(hits: LimitHit[], options?: TakeOptions): Promise<void>;
  /** Deletes the rows whose hits have all left their window (also done by take, at most once a minute). */
  sweep(): Promise<void>;
}

export const SWEEP_EVERY_MS = MINUTE;

const hashKey = (key: string) => createHash("sha256").update(key).digest("base64url");

/**
 * The backend's rate limits, kept in the database so that every instance counts the same hits: two
 * instances never allow twice the SMS. Each (limit, key) is one row holding the times of the hits
 * still in its window. A take locks the rows it decides on (INSERT … ON CONFLICT DO UPDATE, in a
 * fixed order, so two instances never deadlock), decides, and appends its hit in the same
 * transaction: concurrent takes on any instance are serialized per key. Times come from this
 * process's clock. Rows whose window has passed are swept at most once a minute per instance.
 */
export function createRateLimiter(
  db: Db,
  options: { limits?: Partial<RateLimits>; now?: () => number } = {},
): RateLimiter {
  const limits: RateLimits = { ...DEFAULT_RATE_LIMITS, ...options.limits };
  for (const name of Object.keys(limits) as LimitName[]) assertValidLimit(limits[name]);
  const now = options.now ?? Date.now;
  let lastSweep = now();

  function decideAll(hits: LimitHit[], recentOf: (hit: LimitHit) => number[], at: number): LimitDecision {
    const refused: LimitHit[] = [];
    let retryAfterMs = 0;
    for (const hit of hits) {
      const decision = decide(recentOf(hit), at, limits[hit.limit]);
      if (decision.allowed) continue;
      refused.push(hit);
      retryAfterMs = Math.max(retryAfterMs, decision.retryAfterMs);
    }
    return { allowed: refused.length === 0, retryAfterMs, refused };
  }

  async function take(hits: LimitHit[], { record = true }: TakeOptions = {}): Promise<LimitDecision> {
    const at = now();
    // One row per distinct (limit, key), locked in the same order on every instance.
    const rowOf = new Map(hits.map((hit) => [hit, { limitName: hit.limit, keyHash: hashKey(hit.key) }]));
    const idOf = (row: { limitName: string; keyHash: string }) => `${row.limitName}\u0000${row.keyHash}`;
    const ordered = [...new Map([...rowOf.values()].map((row) => [idOf(row), row])).entries()].sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    const recentOf = (hit: LimitHit) => recent.get(idOf(rowOf.get(hit)!)) ?? [];
    const recent = new Map<string, number[]>();
    const whereRow = (row: { limitName: string; keyHash: string }) =>
      and(eq(rateLimitWindows.limitName, row.limitName), eq(rateLimitWindows.keyHash, row.keyHash));

    let decision: LimitDecision;
    if (!record) {
      const found = ordered.length
        ? await db
            .select()
            .from(rateLimitWindows)
            .where(or(...ordered.map(([, row]) => whereRow(row))))
        : [];
      for (const row of found)
        recent.set(idOf(row), hitsInWindow(row.hits, at, limits[row.limitName as LimitName].windowMs));
      decision = decideAll(hits, recentOf, at);
    } else {
      decision = await db.transaction(async (tx) => {
        for (const [id, row] of ordered) {
          // Inserts the row or, when it exists, locks it with a no-op update; either way returns its hits.
          const [locked] = await tx
            .insert(rateLimitWindows)
            .values({ ...row, hits: [], expiresAt: new Date(at) })
            .onConflictDoUpdate({
              target: [rateLimitWindows.limitName, rateLimitWindows.keyHash],
              set: { limitName: sql`excluded.limit_name` },
            })
            .returning({ hits: rateLimitWindows.hits });
          recent.set(id, hitsInWindow(locked!.hits, at, limits[row.limitName].windowMs));
        }
        const result = decideAll(hits, recentOf, at);
        if (result.allowed) {
          for (const [id, row] of ordered) {
            await tx
              .update(rateLimitWindows)
              .set({ hits: [...recent.get(id)!, at], expiresAt: new Date(at + limits[row.limitName].windowMs) })
              .where(whereRow(row));
          }
        }
        return result;
      });
    }
    // The decision stands whatever happens to the sweep; the next one retries.
    if (at - lastSweep >= SWEEP_EVERY_MS) await sweepAt(at).catch(() => {});
    return decision;
  }

  async function sweepAt(at: number): Promise<void> {
    lastSweep = at;
    await db.delete(rateLimitWindows).where(lte(rateLimitWindows.expiresAt, new Date(at)));
  }

  return {
    take,
    async enforce(hits, options) {
      const decision = await take(hits, options);
      if (!decision.allowed) throw tooManyRequests(decision.refused[0]!.detail, decision.retryAfterMs);
    },
    sweep: () => sweepAt(now()),
  };
}
