import { describe, expect, it } from "vitest";
import { slaState } from "../../src/resources/tickets";

describe("a ticket against its SLA", () => {
  const createdAt = "2026-11-23T00:00:00.000Z";
  const slaDueAt = "2026-11-23T08:00:00.000Z"; // 8 hours: amber from 6 h on, red from 8 h on
  const at = (hours: number) => Date.parse(createdAt) + hours * 3_600_000;

  it("is green, then amber at 75 % of its time, then red once due", () => {
    expect(slaState({ createdAt, slaDueAt }, at(0))).toBe("ok");
    expect(slaState({ createdAt, slaDueAt }, at(5.99))).toBe("ok");
    expect(slaState({ createdAt, slaDueAt }, at(6))).toBe("amber");
    expect(slaState({ createdAt, slaDueAt }, at(7.99))).toBe("amber");
    expect(slaState({ createdAt, slaDueAt }, at(8))).toBe("red");
  });

  it("stops once resolved, closed or cancelled (no due time)", () => {
    expect(slaState({ createdAt, slaDueAt: null }, at(100))).toBe("stopped");
  });
});
