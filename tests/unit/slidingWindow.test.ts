import { describe, expect, it } from "vitest";
import { SlidingWindow } from "../../server/lib/slidingWindow";
import { createLimiters, DEFAULT_RATE_LIMITS, enforce } from "../../server/lib/rateLimits";
import { ProblemError } from "../../server/errors";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("SlidingWindow", () => {
  it("allows max hits per window, then tells how long until the oldest expires", () => {
    const c = clock();
    const w = new SlidingWindow({ max: 3, windowMs: 10_000 }, c.now);
    expect(w.take("a")).toEqual({ allowed: true, retryAfterMs: 0 });
    c.advance(2_000);
    w.take("a");
    c.advance(2_000);
    w.take("a");
    c.advance(1_000);
    expect(w.take("a")).toEqual({ allowed: false, retryAfterMs: 5_000 }); // first hit at t0 expires at t0+10 s, now t0+5 s
    expect(w.take("b").allowed).toBe(true); // keys are independent
  });

  it("slides: a hit leaves the window exactly windowMs later, and refusals are not counted", () => {
    const c = clock();
    const w = new SlidingWindow({ max: 2, windowMs: 1_000 }, c.now);
    w.take("k");
    c.advance(500);
    w.take("k");
    for (let i = 0; i < 5; i++) expect(w.take("k").allowed).toBe(false);
    c.advance(499);
    expect(w.check("k")).toEqual({ allowed: false, retryAfterMs: 1 });
    c.advance(1);
    expect(w.take("k").allowed).toBe(true); // the first hit aged out; the refusals never counted
    expect(w.take("k")).toEqual({ allowed: false, retryAfterMs: 500 });
  });

  it("check() records nothing", () => {
    const w = new SlidingWindow({ max: 1, windowMs: 1_000 });
    for (let i = 0; i < 3; i++) expect(w.check("k").allowed).toBe(true);
    w.hit("k");
    expect(w.check("k").allowed).toBe(false);
  });

  it("keeps memory bounded: expired keys go first, then the least recently hit", () => {
    const c = clock();
    const w = new SlidingWindow({ max: 5, windowMs: 1_000 }, c.now, 3);
    w.hit("old");
    c.advance(2_000);
    w.hit("a");
    w.hit("b");
    w.hit("c");
    expect(w.size).toBe(3);
    w.hit("d");
    expect(w.size).toBe(3);
    expect(w.check("a")).toEqual({ allowed: true, retryAfterMs: 0 });
  });

  it("refuses a nonsensical limit", () => {
    expect(() => new SlidingWindow({ max: 0, windowMs: 1_000 })).toThrow();
    expect(() => new SlidingWindow({ max: 1, windowMs: 0 })).toThrow();
  });
});

describe("rate limits", () => {
  it("defaults: 3 SMS per number per 10 minutes, 10 per address per hour, 10 claims a minute", () => {
    expect(DEFAULT_RATE_LIMITS.smsPerNumber).toEqual({ max: 3, windowMs: 600_000 });
    expect(DEFAULT_RATE_LIMITS.smsPerIp).toEqual({ max: 10, windowMs: 3_600_000 });
    expect(DEFAULT_RATE_LIMITS.claimPerUid).toEqual({ max: 10, windowMs: 60_000 });
  });

  it("enforce() throws a 429 problem with Retry-After in whole seconds", () => {
    const c = clock();
    const limiters = createLimiters({ claimPerUid: { max: 1, windowMs: 60_000 } }, c.now);
    enforce(limiters.claimPerUid, "u", "slow down");
    c.advance(10_500);
    const error = (() => {
      try {
        enforce(limiters.claimPerUid, "u", "slow down");
      } catch (e) {
        return e;
      }
    })() as ProblemError;
    expect(error).toBeInstanceOf(ProblemError);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ "retry-after": "50" });
  });
});
