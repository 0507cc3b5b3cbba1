import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import type { AccountMeters } from "../../src/resources/usage";
import { SharedPool } from "../../src/components/usage/SharedPool";
import { renderWithRefine } from "../support/renderWithRefine";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const DAD = "22222222-2222-4222-8222-222222222222";
const KID = "33333333-3333-4333-8333-333333333333";

const meters = (overrides: Partial<NonNullable<AccountMeters["pool"]>> = {}): AccountMeters => ({
  accountId: ACCOUNT,
  pool: {
    planId: "44444444-4444-4444-8444-444444444444",
    planName: "Family Share 30 GB",
    allowance: 30 * 1024,
    used: 10 * 1024,
    left: 20 * 1024,
    cycleStart: "2026-11-02",
    cycleEnd: "2026-12-02",
    usedUp: false,
    ...overrides,
  },
  lines: [
    { lineId: DAD, msisdn: "+12025550102", shared: true, used: 8 * 1024, cap: null, capped: false },
    { lineId: KID, msisdn: "+12025550181", shared: true, used: 2 * 1024, cap: 2 * 1024, capped: true },
  ],
});

const renderPool = (answer: AccountMeters) =>
  renderWithRefine(<SharedPool accountId={ACCOUNT} lineId={KID} />, {
    identity: { uid: "demo-alex", role: "subscriber" },
    data: { custom: vi.fn(() => Promise.resolve({ data: answer })) },
  });

afterEach(() => setLocale("en", { remember: false }));

// The shared data card of a line page (issue 28): the pool in words, each line's part and limit.
describe("SharedPool", () => {
  it("says what the family used and has left, and each line's part, limit and stop", async () => {
    renderPool(meters());
    expect(await screen.findByRole("heading", { name: "Shared data" })).toBeTruthy();
    expect(screen.getByTestId("shared-pool-used").textContent).toBe("10 GB of 30 GB · 20 GB left");
    const parts = screen.getAllByTestId("shared-pool-line").map((li) => li.textContent);
    expect(parts).toEqual([
      "(202) 555-0102: 8 GB used",
      "(202) 555-0181: 2 GB used · limit 2 GB a month · data stopped",
    ]);
  });

  it("in Spanish, and says when the pool is used up", async () => {
    setLocale("es", { remember: false });
    renderPool(meters({ used: 30 * 1024, left: 0, usedUp: true }));
    expect(await screen.findByRole("heading", { name: "Datos compartidos" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toContain("Los datos compartidos se agotaron");
  });

  it("shows nothing when the account has no shared plan", async () => {
    const custom = vi.fn(() => Promise.resolve({ data: { ...meters(), pool: null } }));
    renderWithRefine(<SharedPool accountId={ACCOUNT} lineId={KID} />, {
      identity: { uid: "demo-alex", role: "subscriber" },
      data: { custom },
    });
    await waitFor(() => expect(custom).toHaveBeenCalled());
    await custom.mock.results[0]!.value;
    expect(screen.queryByTestId("shared-pool")).toBeNull();
  });
});
