import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { accountRanges } from "../../server/domain/billingRuns/accountRanges";

// The daily job's parts (issue 30): slices of the account ids that cover every id once.
const holds = (range: { from: string; to: string | null }, id: string) =>
  id >= range.from && (range.to === null || id < range.to);

describe("accountRanges", () => {
  it("cuts the id space into slices that follow one another, from the first id to the last", () => {
    const ranges = accountRanges(16);
    expect(ranges).toHaveLength(16);
    expect(ranges[0]!.from).toBe("00000000-0000-0000-0000-000000000000");
    expect(ranges[1]!.from).toBe("10000000-0000-0000-0000-000000000000");
    expect(ranges.at(-1)!.to).toBeNull();
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.from).toBe(ranges[i - 1]!.to);
    expect(accountRanges(1)).toEqual([{ from: "00000000-0000-0000-0000-000000000000", to: null }]);
  });

  it("puts every id in exactly one slice, whatever the number of parts", () => {
    const ids = [
      ...Array.from({ length: 2000 }, () => randomUUID()),
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "55555555-0000-0000-0000-000000000000",
    ];
    for (const parts of [1, 3, 7, 16, 100]) {
      const ranges = accountRanges(parts);
      for (const id of ids) expect(ranges.filter((r) => holds(r, id))).toHaveLength(1);
    }
  });

  it("refuses a number of parts that is not a whole number from 1 to 4096", () => {
    for (const parts of [0, -1, 1.5, 4097, Number.NaN]) expect(() => accountRanges(parts)).toThrow(/whole number/);
  });
});
