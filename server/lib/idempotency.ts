import { createHash } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import type { FastifyReply } from "fastify";
import type { Executor } from "../audit";
import type { Db } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import type { Locale } from "#i18n/dictionaries";
import { conflict, problemBody, ProblemError, unprocessable } from "../errors";
import { words } from "../i18n/words";

/** How long a first response is kept for replay. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A reservation without a response after this long belongs to a request that died; it may be taken over. */
const ABANDONED_AFTER_MS = 60_000;

export type Reservation =
  | { kind: "new"; complete(tx: Executor, status: number, response: unknown): Promise<void>; release(): Promise<void> }
  | { kind: "replay"; status: number; response: unknown };

export const hashRequest = (body: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(body ?? null))
    .digest("hex");

/**
 * Idempotency-Key handling (IETF draft "The Idempotency-Key HTTP Header Field"): the first request
 * with a key reserves it; the same caller repeating the key with the same request gets the first
 * response replayed; with a different request 422; while the first is still running 409.
 * A failed first request releases the key, so the client may retry with it.
 */
export async function reserveIdempotencyKey(
  db: Db,
  input: { actorUid: string; key: string; route: string; requestHash: string },
): Promise<Reservation> {
  const { actorUid, key, route, requestHash } = input;
  const mine = and(eq(idempotencyKeys.actorUid, actorUid), eq(idempotencyKeys.key, key));

  for (let attempt = 0; attempt < 2; attempt++) {
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ actorUid, key, route, requestHash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted) {
      // Housekeeping: old keys go (their replays are no longer promised).
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_RETENTION_MS)));
      return {
        kind: "new",
        async complete(tx, status, response) {
          await tx.update(idempotencyKeys).set({ status, response }).where(mine);
        },
        async release() {
          await db.delete(idempotencyKeys).where(and(mine, isNull(idempotencyKeys.status)));
        },
      };
    }
    const [existing] = await db.select().from(idempotencyKeys).where(mine).limit(1);
    if (!existing) continue; // released in between: try again
    if (existing.route !== route || existing.requestHash !== requestHash) {
      throw unprocessable(words("lib.idempotency.otherRequest"), [
        { path: "idempotency-key", message: words("lib.idempotency.otherRequestField") },
      ]);
    }
    if (existing.status !== null) return { kind: "replay", status: existing.status, response: existing.response };
    if (existing.createdAt.getTime() > Date.now() - ABANDONED_AFTER_MS) {
      throw conflict(words("lib.idempotency.inProgress"));
    }
    await db
      .delete(idempotencyKeys)
      .where(
        and(
          mine,
          isNull(idempotencyKeys.status),
          lt(idempotencyKeys.createdAt, new Date(Date.now() - ABANDONED_AFTER_MS)),
        ),
      );
  }
  throw conflict(words("lib.idempotency.inProgress"));
}

export type Claim =
  | { kind: "new"; complete(status: number, response: unknown): Promise<void> }
  | { kind: "replay"; status: number; response: unknown };

/**
 * Claims an Idempotency-Key inside the write's own transaction, so the key and the write commit or
 * vanish together: a request killed mid-way (even by SIGKILL) leaves no reservation behind, and its
 * retry runs at once instead of waiting for one to age. A concurrent request with the same key waits
 * on the key's row until the first commits, then replays its response (or proceeds, if it rolled
 * back). Same rules as reserveIdempotencyKey: another request under the key is 422.
 */
export async function claimIdempotencyKey(
  tx: Executor,
  input: { actorUid: string; key: string; route: string; requestHash: string },
): Promise<Claim> {
  const { actorUid, key, route, requestHash } = input;
  const mine = and(eq(idempotencyKeys.actorUid, actorUid), eq(idempotencyKeys.key, key));
  const newClaim: Claim = {
    kind: "new",
    async complete(status, response) {
      await tx.update(idempotencyKeys).set({ status, response }).where(mine);
    },
  };
  const [inserted] = await tx
    .insert(idempotencyKeys)
    .values({ actorUid, key, route, requestHash })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted) return newClaim;
  const [existing] = await tx.select().from(idempotencyKeys).where(mine).limit(1).for("update");
  if (!existing) {
    // Housekeeping removed it in between: claim it afresh (the insert waits on no one now).
    await tx.insert(idempotencyKeys).values({ actorUid, key, route, requestHash });
    return newClaim;
  }
  if (existing.route !== route || existing.requestHash !== requestHash) {
    throw unprocessable(words("lib.idempotency.otherRequest"), [
      { path: "idempotency-key", message: words("lib.idempotency.otherRequestField") },
    ]);
  }
  if (existing.status !== null) return { kind: "replay", status: existing.status, response: existing.response };
  // A reservation left by reserveIdempotencyKey (outside a transaction) for a request still running, or one that died.
  if (existing.createdAt.getTime() > Date.now() - ABANDONED_AFTER_MS)
    throw conflict(words("lib.idempotency.inProgress"));
  await tx.update(idempotencyKeys).set({ createdAt: new Date() }).where(mine);
  return newClaim;
}

/**
 * Runs a keyed write in a savepoint after its claim, so that a refusal (422: a balance too small, a
 * state that does not allow it) is kept under the key like a success, while the write's own changes
 * roll back. Without it the refusal rolled the claim back too, and a retry with the same key ran the
 * write again at another moment: a charge refused for a shortfall, retried after a top-up landed,
 * answered 200. One key, one answer. The caller commits the transaction and then answers the refusal.
 */
export async function keepingRefusal<T>(
  tx: Executor,
  claim: Claim | undefined,
  locale: Locale,
  write: (tx: Executor) => Promise<T>,
): Promise<{ done: T } | { refused: ProblemError }> {
  if (claim?.kind !== "new") return { done: await write(tx) };
  try {
    return { done: await tx.transaction((savepoint) => write(savepoint)) };
  } catch (error) {
    if (!(error instanceof ProblemError) || error.status !== 422) throw error;
    const { status, detail, errors, type, extensions } = error;
    await claim.complete(status, problemBody(locale, status, detail, errors, type, extensions));
    return { refused: error };
  }
}

/** Answers a request with its key's first answer again; a kept refusal is still a problem document. */
export function sendReplay(reply: FastifyReply, replay: { status: number; response: unknown }) {
  reply.code(replay.status).header("idempotent-replayed", "true");
  if (replay.status >= 400) reply.type("application/problem+json");
  return reply.send(replay.response);
}

/** Drops keys older than the retention (their replays are no longer promised); run outside any write's transaction. */
export async function forgetOldIdempotencyKeys(db: Db): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_RETENTION_MS)));
}
