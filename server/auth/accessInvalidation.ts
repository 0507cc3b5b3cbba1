import { z } from "zod";
import type { AccessChannel } from "../live/eventBus";
import type { OperatorDirectory } from "./operatorSettings";
import type { TokenVerifier } from "./tokenVerifier";

/** What changed about access, as told to every instance: ids only. */
const accessChangeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("user"), uid: z.string().min(1) }),
  z.object({ kind: z.literal("operator"), operator: z.string().min(1) }),
]);
export type AccessChange = z.infer<typeof accessChangeSchema>;
/** What an instance learns: a change, or `all` when its LISTEN connection dropped and some may have been missed. */
export type HeardAccessChange = AccessChange | { kind: "all" };

export interface AccessInvalidation {
  /**
   * A user's role, state or sessions changed, or the accounts they are on (issue 28: joined, removed):
   * every instance drops its cached verifications of the user, and ends their live streams so what
   * they follow is decided anew; this one at once. Resolves once the others have been told.
   */
  forgetUser(uid: string): Promise<void>;
  /** An operator's settings (the staff MFA policy) changed: every instance drops its cached copy. */
  forgetOperator(code: string): Promise<void>;
  /** Every change this instance hears, after its caches were dropped (e.g. to end live streams it concerns). */
  subscribe(listener: (change: HeardAccessChange) => void): () => void;
  /** Stops listening (the app closes). */
  close(): void;
}

interface Log {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * Keeps the caches that decide access (verified tokens, operator settings) right on every backend
 * instance: a change made through one instance is sent over the database's LISTEN/NOTIFY bus, on
 * its access channel, and every instance (this one too) drops what it cached. When the LISTEN
 * connection drops, messages may be lost, so everything cached is dropped then and again when it
 * is back; in between, reads may trust the cache for at most TOKEN_CACHE_SECONDS (writes never do).
 */
export function createAccessInvalidation(
  channel: AccessChannel,
  caches: { verifier: TokenVerifier; operators: OperatorDirectory },
  log: Log,
): AccessInvalidation {
  const listeners = new Set<(change: HeardAccessChange) => void>();
  const apply = (change: HeardAccessChange) => {
    if (change.kind === "user") caches.verifier.forgetUser(change.uid);
    else if (change.kind === "operator") caches.operators.invalidate(change.operator);
    else {
      caches.verifier.forgetAll();
      caches.operators.invalidateAll();
    }
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        log.error({ err: error }, "an access change listener failed");
      }
    }
  };

  const unsubscribe = channel.subscribe({
    message(text) {
      const change = parse(text);
      if (change) apply(change);
      else log.warn({ payload: text.slice(0, 200) }, "ignored a notification that is not an access change");
    },
    missed: () => apply({ kind: "all" }),
  });

  async function broadcast(change: AccessChange) {
    apply(change);
    try {
      await channel.publish(JSON.stringify(change));
    } catch (error) {
      // The change itself is made; other instances' caches expire by themselves.
      log.error({ err: error, change }, "could not tell the other backend instances of an access change");
    }
  }

  return {
    forgetUser: (uid) => broadcast({ kind: "user", uid }),
    forgetOperator: (operator) => broadcast({ kind: "operator", operator }),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      unsubscribe();
      listeners.clear();
    },
  };
}

function parse(text: string): AccessChange | null {
  try {
    const parsed = accessChangeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
