import { describe, expect, it } from "vitest";
import { prorate, quotePlanChange } from "../../server/domain/plans/proration";

describe("prorate: price × days / cycle days, half-up to the cent", () => {
  it("rounds halves up and everything else to the nearest cent", () => {
    expect(prorate(100, 1, 8)).toBe(13); // 12.5
    expect(prorate(300, 1, 8)).toBe(38); // 37.5
    expect(prorate(3500, 12, 30)).toBe(1400);
    expect(prorate(5000, 7, 31)).toBe(1129); // 1129.03…
    expect(prorate(4999, 1, 3)).toBe(1666); // 1666.33…
    expect(prorate(5000, 1, 3)).toBe(1667); // 1666.67…
    expect(prorate(0, 10, 30)).toBe(0);
    expect(prorate(2500, 30, 30)).toBe(2500);
  });
});

describe("quotePlanChange", () => {
  it("credits the old plan's unused days and charges the new plan's, today included", () => {
    // Cycle day 5; on 23 Nov the cycle runs 5 Nov – 5 Dec (30 days) and 12 days are left (23 Nov – 4 Dec).
    const quote = quotePlanChange(3500, 5000, 5, new Date("2026-11-23T10:00:00Z"));
    expect(quote).toEqual({
      cycleStart: "2026-11-05",
      cycleEnd: "2026-12-05",
      cycleDays: 30,
      remainingDays: 12,
      credit: 1400,
      charge: 2000,
      net: 600,
    });
  });

  it("on the cycle's first day every day is left; on its last, one", () => {
    expect(quotePlanChange(3000, 3000, 1, new Date("2026-02-01T00:00:00Z"))).toMatchObject({
      cycleDays: 28,
      remainingDays: 28,
      credit: 3000,
      charge: 3000,
      net: 0,
    });
    expect(quotePlanChange(3100, 6200, 1, new Date("2026-01-31T23:59:00Z"))).toMatchObject({
      cycleDays: 31,
      remainingDays: 1,
      credit: 100,
      charge: 200,
      net: 100,
    });
  });

  it("a cheaper plan nets a credit", () => {
    expect(quotePlanChange(6500, 4500, 12, new Date("2026-11-23T08:00:00Z")).net).toBeLessThan(0);
  });
});
