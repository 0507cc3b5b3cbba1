import { describe, expect, it } from "vitest";
import {
  lastLineStartsOn,
  newPriceStartsOn,
  planFeeFor,
  priceChangeSettlesOn,
} from "../../server/domain/plans/priceChange";

// A plan's price change reaches each line at its next cycle start (issue 12, item 6).
const changedAt = new Date("2026-11-25T10:00:00Z");
const plan = { priceAmount: 6500, pendingPriceAmount: 7000, priceChangedAt: changedAt };

describe("newPriceStartsOn", () => {
  it("is the start of the line's next cycle after the change", () => {
    expect(newPriceStartsOn(12, changedAt)).toBe("2026-12-12"); // in the cycle of Nov 12
    expect(newPriceStartsOn(28, changedAt)).toBe("2026-11-28"); // in the cycle of Oct 28
    expect(newPriceStartsOn(25, changedAt)).toBe("2026-12-25"); // its cycle started that very day
    expect(newPriceStartsOn(1, new Date("2026-12-31T23:59:59Z"))).toBe("2027-01-01");
  });
});

describe("planFeeFor", () => {
  it("keeps the old price for the cycle the change falls in and charges the new one from the next", () => {
    expect(planFeeFor(plan, 12, "2026-11-12")).toBe(6500);
    expect(planFeeFor(plan, 12, "2026-12-12")).toBe(7000);
    expect(planFeeFor(plan, 12, "2027-01-12")).toBe(7000);
    expect(planFeeFor(plan, 28, "2026-10-28")).toBe(6500);
    expect(planFeeFor(plan, 28, "2026-11-28")).toBe(7000);
  });

  it("is the price when no change is pending", () => {
    expect(planFeeFor({ priceAmount: 6500, pendingPriceAmount: null, priceChangedAt: null }, 12, "2030-01-12")).toBe(
      6500,
    );
  });
});

describe("when a change has reached every line", () => {
  it("the last cycle day to start is within a month, and it settles a cycle later", () => {
    expect(lastLineStartsOn(changedAt)).toBe("2026-12-25");
    expect(priceChangeSettlesOn(changedAt)).toBe("2027-01-25");
  });
});
