import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { RETRY_BACKOFF, retryDelayMs } from "../../src/config/retryBackoff";

describe("the operator's retry backoff", () => {
  it("starts at 1 s and doubles (with the jitter in the middle)", () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, 0.5))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it("jitter 0.5 moves each delay by at most half of it either way", () => {
    expect(retryDelayMs(3, 0)).toBe(2000);
    expect(retryDelayMs(3, 0.999999)).toBe(6000);
  });

  it("never waits longer than 14,400,000 ms, however many tries failed", () => {
    expect(retryDelayMs(15, 0.5)).toBe(14_400_000);
    expect(retryDelayMs(60, 0.999)).toBe(14_400_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (failures, r) => {
          const delay = retryDelayMs(failures, r);
          return delay >= RETRY_BACKOFF.initialMs / 2 && delay <= RETRY_BACKOFF.capMs;
        },
      ),
    );
  });
});
