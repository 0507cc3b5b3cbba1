import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Line } from "../../src/resources/lines";
import type { Meter } from "../../src/resources/usage";
import { LineCycleCell } from "../../src/pages/care/sections/LineCycleCell";
import { renderWithRefine } from "../support/renderWithRefine";

// The care 360's lines say what the cycle did (issue 24): barred usage, overage charged, pay-as-you-go
// off, grace; an agent reads "why does my data not work?" without opening the line.
const meter = (type: Meter["type"], over: Partial<Meter> = {}): Meter => ({
  type,
  used: 100,
  allowance: 1000,
  unit: type === "data" ? "MB" : type === "voice" ? "minutes" : "messages",
  asOf: null,
  cycleStart: "2026-11-05",
  cycleEnd: "2026-12-05",
  capped: false,
  charged: { amount: 0, currency: "USD" },
  ...over,
});
const line = (over: Partial<Line> = {}) =>
  ({ id: "line-1", status: "active", graceEndsOn: null, payAsYouGo: true, ...over }) as Line;

function renderCell(l: Line, meters: Meter[]) {
  const custom = vi.fn<(params: { url: string; method: string }) => Promise<{ data: Meter[] }>>(() =>
    Promise.resolve({ data: meters }),
  );
  renderWithRefine(<LineCycleCell line={l} />, { identity: { uid: "demo-agent", role: "agent" }, data: { custom } });
  return custom;
}

describe("the care 360's cycle cell", () => {
  it("names the barred usage and the overage charged, in words", async () => {
    const custom = renderCell(line({ payAsYouGo: false }), [
      meter("data", { capped: true }),
      meter("voice", { charged: { amount: 250, currency: "USD" } }),
      meter("sms"),
    ]);
    await screen.findByText("Data stopped at the allowance");
    expect(screen.getByText("Calls beyond the allowance: $2.50")).toBeTruthy();
    expect(screen.getByText("Pay-as-you-go off")).toBeTruthy();
    expect(custom.mock.calls[0]![0]).toMatchObject({ url: "/lines/line-1/meters", method: "get" });
  });

  it("says a line in grace has not renewed its plan, and until when", async () => {
    renderCell(line({ status: "grace", graceEndsOn: "2026-12-27" }), [meter("data")]);
    await screen.findByText("Plan not renewed, grace until Dec 27, 2026");
  });

  it("says a line with nothing to report is within its plan", async () => {
    renderCell(line(), [meter("data"), meter("voice")]);
    expect(await screen.findByText("Within the plan")).toBeTruthy();
  });
});
