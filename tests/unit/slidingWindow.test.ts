import { describe, expect, it } from "vitest";
import { assertValidLimit, decide, hitsInWindow, type WindowLimit } from "../../server/lib/slidingWindow";
import { DEFAULT_RATE_LIMITS } from "../../server/lib/rateLimits";

// The window arithmetic; where the hits are kept (the database, shared by instances) is tested in
// tests/integration/rateLimits.test.ts.

/** A key's log as the store keeps it: hits appended when allowed. */
function log(limit: WindowLimit) {
  let hits: number[] = [];
  return {
    take(now: number) {
      const recent = hitsInWindow(hits, now, limit.windowMs);
      const decision = decide(recent, now, limit);
      hits = decision.allowed ? [...recent, now] : recent;
      return decision;
    },
    check: (now: number) => decide(hitsInWindow(hits, now, limit.windowMs), now, limit),
  };
}

describe("sliding window", () => {
  it("allows max hits per window, then tells how long until the oldest expires", () => {
    const t0 = 1_000_000;
    const w = log({ max: 3, windowMs: 10_000 });
    expect(w.take(t0)).toEqual({ allowed: true, retryAfterMs: 0 });
    w.take(t0 + 2_000);
    w.take(t0 + 4_000);
    expect(w.take(t0 + 5_000)).toEqual({ allowed: false, retryAfterMs: 5_000 }); // the hit at t0 leaves at t0+10 s
  });

  it("slides: a hit leaves the window exactly windowMs later, and refusals are not counted", () => {
    const t0 = 1_000_000;
    const w = log({ max: 2, windowMs: 1_000 });
    w.take(t0);
    w.take(t0 + 500);
    for (let i = 0; i < 5; i++) expect(w.take(t0 + 500).allowed).toBe(false);
    expect(w.check(t0 + 999)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(w.take(t0 + 1_000).allowed).toBe(true); // the first hit aged out; the refusals never counted
    expect(w.take(t0 + 1_000)).toEqual({ allowed: false, retryAfterMs: 500 });
  });

  it("hits recorded by instances whose clocks disagree a little are put in order", () => {
    expect(hitsInWindow([5_000, 3_000, 4_000, 100], 6_000, 5_000)).toEqual([3_000, 4_000, 5_000]);
    expect(decide([3_000, 4_000, 5_000], 6_000, { max: 2, windowMs: 5_000 })).toEqual({
      allowed: false,
      retryAfterMs: 3_000,
    });
  });

  it("refuses a nonsensical limit", () => {
    expect(() => assertValidLimit({ max: 0, windowMs: 1_000 })).toThrow();
    expect(() => assertValidLimit({ max: 1.5, windowMs: 1_000 })).toThrow();
    expect(() => assertValidLimit({ max: 1, windowMs: 0 })).toThrow();
    expect(() => assertValidLimit({ max: 1, windowMs: 1 })).not.toThrow();
  });
});

describe("rate limits", () => {
  it("defaults: 3 SMS per number per 10 minutes, 10 per address per hour, 60 sign-in requests and 10 claims a minute; 5 failed vouchers per account in 15 minutes; 10 wrong ingest keys per address a minute; 10 presses of a this-wasn't-me link per address in 15 minutes", () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      smsPerNumber: { max: 3, windowMs: 600_000 },
      smsPerIp: { max: 10, windowMs: 3_600_000 },
      authPerIp: { max: 60, windowMs: 60_000 },
      claimPerUid: { max: 10, windowMs: 60_000 },
      voucherFailuresPerAccount: { max: 5, windowMs: 900_000 },
      serviceKeyFailuresPerIp: { max: 10, windowMs: 60_000 },
      thisWasntMePerIp: { max: 10, windowMs: 900_000 },
    });
  });
});
