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

/**
 * An in-memory sliding-window log: each key keeps the times of its hits in the last window, so a
 * burst at the edge of a fixed window cannot double the limit. One process only: behind several
 * backend instances each keeps its own counts (documented in the report; a shared store is the
 * production follow-up). Memory is bounded by `maxKeys`: beyond it, expired keys are swept, then
 * the oldest keys are dropped.
 */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: WindowLimit,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 50_000,
  ) {
    if (!(limit.max >= 1) || !(limit.windowMs > 0)) throw new Error("A window needs max >= 1 and windowMs > 0.");
  }

  /** Would one more hit for the key be allowed right now? Records nothing. */
  check(key: string): WindowDecision {
    const recent = this.recent(key, this.now());
    if (recent.length < this.limit.max) return { allowed: true, retryAfterMs: 0 };
    // The hit that must age out before another fits.
    const blocking = recent[recent.length - this.limit.max]!;
    return { allowed: false, retryAfterMs: Math.max(1, blocking + this.limit.windowMs - this.now()) };
  }

  /** Records a hit for the key. */
  hit(key: string): void {
    const now = this.now();
    const recent = this.recent(key, now);
    recent.push(now);
    this.hits.delete(key); // re-insert: Map order is then least recently hit first
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) this.shrink(now);
  }

  /** check() and, when allowed, hit(). */
  take(key: string): WindowDecision {
    const decision = this.check(key);
    if (decision.allowed) this.hit(key);
    return decision;
  }

  get size(): number {
    return this.hits.size;
  }

  private recent(key: string, now: number): number[] {
    const all = this.hits.get(key);
    if (!all) return [];
    const from = now - this.limit.windowMs;
    let i = 0;
    while (i < all.length && all[i]! <= from) i++;
    const recent = i === 0 ? all : all.slice(i);
    if (recent.length === 0) this.hits.delete(key);
    else if (i > 0) this.hits.set(key, recent);
    return recent;
  }

  private shrink(now: number): void {
    const from = now - this.limit.windowMs;
    for (const [key, times] of this.hits) if (times[times.length - 1]! <= from) this.hits.delete(key);
    for (const key of this.hits.keys()) {
      if (this.hits.size <= this.maxKeys) break;
      this.hits.delete(key);
    }
  }
}
