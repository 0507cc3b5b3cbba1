// The arithmetic of a sliding-window log: a key keeps the times of its hits in the last window, so a
// burst at the edge of a fixed window cannot double the limit. Where the hits are kept (a table
// shared by every backend instance) is server/lib/rateLimits.ts.

/** At most `max` hits per key within any `windowMs` span. */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

export interface WindowDecision {
  allowed: boolean;
  /** When refused: how long until the oldest hit in the window expires and one more is allowed. */
  retryAfterMs: number;
}

export function assertValidLimit(limit: WindowLimit): void {
  if (!(Number.isInteger(limit.max) && limit.max >= 1) || !(limit.windowMs > 0))
    throw new Error("A window needs a whole max >= 1 and windowMs > 0.");
}

/** The hits still inside the window that ends at `now`, oldest first (instances' clocks may disagree by a little). */
export function hitsInWindow(hits: readonly number[], now: number, windowMs: number): number[] {
  const from = now - windowMs;
  return hits.filter((at) => at > from).sort((a, b) => a - b);
}

/** Would one more hit be allowed at `now`, given the hits in the window (oldest first)? */
export function decide(recent: readonly number[], now: number, limit: WindowLimit): WindowDecision {
  if (recent.length < limit.max) return { allowed: true, retryAfterMs: 0 };
  // The hit that must age out before another fits.
  const blocking = recent[recent.length - limit.max]!;
  return { allowed: false, retryAfterMs: Math.max(1, blocking + limit.windowMs - now) };
}
