import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { signedInPage } from "../support/portalPages";
import { startSandboxBackend, type SandboxBackend } from "../support/sandboxBackend";
import { signInWithPassword } from "../support/testBackend";

// The carrier's cycle turns (issue 24) in Chromium at 360 px, on a backend of its own (fresh demo
// data): the admin's billing run on alex's cycle day (his prepaid line has cycle day 5) renews his
// plan from his balance; sam's line (cycle day 20, no balance) enters grace on his, sam's home says
// how much is missing and until when, he tops up with a voucher and is renewed at once.

const DAY_MS = 86_400_000;
const isoToday = () => new Date().toISOString().slice(0, 10);
/** The first day after today on which a line with this cycle day renews (cycles roll over in UTC). */
function nextCycleDay(cycleDay: number): string {
  const now = new Date();
  const month = now.getUTCDate() >= cycleDay ? now.getUTCMonth() + 1 : now.getUTCMonth();
  return new Date(Date.UTC(now.getUTCFullYear(), month, cycleDay)).toISOString().slice(0, 10);
}
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const shownDate = (day: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

let browser: Browser;
let sandbox: SandboxBackend;

beforeAll(async () => {
  browser = await launchChromium();
  sandbox = await startSandboxBackend(inject("staticDir"), "prepaid-renewal");
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

async function api<T>(
  method: "GET" | "POST",
  path: string,
  as: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${sandbox.backend.baseUrl}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await signInWithPassword(as)}`,
      "x-operator": "ATT",
      "x-app-version": "3.2.1",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as T };
}

type RunResult = { renewed: number; enteredGrace: number; suspended: number; billsIssued: number; overdue: number };
type Entries = { data: { kind: string; amount: { amount: number }; reason: string }[] };

describe("prepaid renewal at 360 px", () => {
  let page: Page;
  const problems: string[] = [];
  const alexDay = nextCycleDay(5);
  const samDay = nextCycleDay(20);

  afterAll(async () => {
    await page?.context().close();
  });

  test("the admin's billing run renews alex's plan on his cycle day and puts sam's line in grace on his", async () => {
    // The two days in the order they come; each run as admin@att.example.
    const results = new Map<string, RunResult>();
    for (const day of [alexDay, samDay].sort()) {
      const run = await api<RunResult>("POST", "/billing-runs", "admin@att.example", { asOf: day });
      expect(run.status, JSON.stringify(run.json)).toBe(200);
      results.set(day, run.json);
    }
    expect(results.get(alexDay)!.renewed).toBeGreaterThanOrEqual(1);
    // Once more for alex's day: nothing changes.
    expect((await api<RunResult>("POST", "/billing-runs", "admin@att.example", { asOf: alexDay })).json).toEqual({
      renewed: 0,
      enteredGrace: 0,
      suspended: 0,
      billsIssued: 0,
      overdue: 0,
    });

    const accounts = await api<{ data: { id: string; type: string; balance: { amount: number } | null }[] }>(
      "GET",
      "/accounts",
      "alex@example.com",
    );
    const prepaid = accounts.json.data.find((a) => a.type === "prepaid")!;
    // $40.00 on the balance, $35.00 for Prepaid 15 GB: one renewal entry, $5.00 left.
    expect(prepaid.balance!.amount).toBe(500);
    const entries = await api<Entries>(
      "GET",
      `/ledger-entries?filter[accountId]=${prepaid.id}&filter[kind]=renewal`,
      "alex@example.com",
    );
    expect(entries.json.data.map((e) => e.amount.amount)).toEqual([3500]);

    const sam = await api<{ data: { status: string; graceEndsOn: string | null }[] }>(
      "GET",
      "/lines",
      "sam@example.com",
    );
    expect(sam.json.data[0]).toMatchObject({ status: "grace", graceEndsOn: addDays(samDay, 7) });
  });

  test("sam sees on his home how much is missing and until when, tops up with a voucher and is renewed", async () => {
    const voucher = await api<{ codes: string[] }>("POST", "/voucher-batches", "admin@att.example", {
      count: 1,
      value: { amount: 3000, currency: "USD" },
      expiresOn: addDays(isoToday(), 30),
    });
    expect(voucher.status).toBe(201);

    page = await signedInPage(browser, sandbox.backend.baseUrl, "sam@example.com", {
      width: 360,
      height: 740,
      locale: "en-US",
    });
    page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
    page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));

    // The home: the line in grace, and the one thing to do.
    const card = page.getByTestId("line-card");
    await card.getByText("Grace period", { exact: true }).waitFor();
    const step = page.getByTestId("next-step");
    await step
      .getByText(`$25.00 missing to renew your plan on (202) 555-0103, until ${shownDate(addDays(samDay, 7))}.`, {
        exact: false,
      })
      .waitFor();
    // A plan that has not renewed has no allowance: no "of 0 MB" meters on the card.
    expect(await card.getByText(/ of 0 (MB|min)/).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Top up → redeem the voucher.
    await step.getByRole("link", { name: "Top up" }).click();
    await page.getByTestId("voucher-top-up").getByRole("button", { name: "Redeem a voucher" }).click();
    const dialog = page.getByRole("dialog", { name: "Redeem a voucher · (202) 555-0103" });
    await dialog.getByLabel("Voucher code").fill(voucher.json.codes[0]!);
    await dialog.getByRole("button", { name: "Redeem a voucher" }).click();
    await dialog.waitFor({ state: "hidden" });
    // $30.00 in, $25.00 renewed the plan at once: $5.00 left (the message names the balance's net move).
    await page.getByText(/Your balance is \$5\.00\.$/).waitFor();

    // Home again: active; what is left to do is the next cycle's renewal ($25.00 with $5.00 on the balance).
    await page.getByRole("navigation").getByRole("link", { name: "Home", exact: true }).click();
    await page.getByTestId("line-card").getByText("Active", { exact: true }).waitFor();
    const next = new Date(Date.UTC(Number(samDay.slice(0, 4)), Number(samDay.slice(5, 7)), 20))
      .toISOString()
      .slice(0, 10);
    await page
      .getByTestId("next-step")
      .getByText(`Your plan renews on ${shownDate(next)}: top up at least $20.00 to cover it.`)
      .waitFor();
    expect(await page.getByTestId("next-step").count()).toBe(1);
    expect(await page.getByTestId("line-grace").count()).toBe(0);
    const lines = await api<{ data: { status: string; graceEndsOn: string | null }[] }>(
      "GET",
      "/lines",
      "sam@example.com",
    );
    expect(lines.json.data[0]).toMatchObject({ status: "active", graceEndsOn: null });
    expect(problems).toEqual([]);

    // A $10.00 pass with $5.00 on the balance: said before Pay, which waits, with the way on (top up what is missing).
    await page.getByRole("navigation").getByRole("link", { name: "Shop", exact: true }).click();
    await page.getByRole("button", { name: "Buy 1 GB data pass" }).click();
    const buy = page.getByRole("dialog", { name: /1 GB data pass/ });
    await buy.getByText("Your balance ($5.00) is $5.00 short of this pass.").waitFor();
    expect(await buy.getByRole("button", { name: "Pay $10.00" }).isDisabled()).toBe(true);
    await buy.getByRole("link", { name: "Top up at least $5.00" }).click();
    await page.getByTestId("voucher-top-up").waitFor();
    expect(new URL(page.url()).pathname).toBe("/top-up");
    expect(problems).toEqual([]);
  });
});
