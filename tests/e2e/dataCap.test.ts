import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import type { Meter } from "../../src/resources/usage";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { signedInPage } from "../support/portalPages";
import { startSandboxBackend, type SandboxBackend } from "../support/sandboxBackend";
import { signInWithPassword } from "../support/testBackend";
import { waitFor } from "../support/waitFor";

// Rating (issue 24) at 360 px: alex's prepaid line (+12025550101, Prepaid 15 GB, whose data stops at
// the allowance) runs out of data through the ingest API (as scripts/simulate-usage.ts sends it), the
// home says so with a Buy data link, he buys a data pass in Shop, and new usage counts again.

const ALEX_PREPAID = "+12025550101";

let browser: Browser;
let sandbox: SandboxBackend;
let page: Page;
let lineId: string;
const problems: string[] = [];

async function ingest(records: { msisdn: string; type: "data"; quantity: number }[]) {
  const res = await fetch(`${sandbox.backend.baseUrl}/api/v1/usage-records/batch`, {
    method: "POST",
    headers: { authorization: `ApiKey ${LOCAL_INGEST_KEY}`, "x-operator": "ATT", "content-type": "application/json" },
    body: JSON.stringify({
      records: records.map((r) => ({ id: `sim-${randomUUID()}`, startedAt: new Date().toISOString(), ...r })),
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function dataMeter(): Promise<Meter> {
  const res = await fetch(`${sandbox.backend.baseUrl}/api/v1/lines/${lineId}/meters`, {
    headers: {
      authorization: `Bearer ${await signInWithPassword("alex@example.com")}`,
      "x-operator": "ATT",
      "x-app-version": "3.2.1",
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Meter[]).find((m) => m.type === "data")!;
}

const prepaidCard = () => page.getByTestId("line-card").filter({ hasText: "(202) 555-0101" });

beforeAll(async () => {
  browser = await launchChromium();
  sandbox = await startSandboxBackend(inject("staticDir"), "data-cap");
  const res = await fetch(`${sandbox.backend.baseUrl}/api/v1/home`, {
    headers: {
      authorization: `Bearer ${await signInWithPassword("alex@example.com")}`,
      "x-operator": "ATT",
      "x-app-version": "3.2.1",
    },
  });
  lineId = ((await res.json()) as { lines: { id: string; msisdn: string }[] }).lines.find(
    (l) => l.msisdn === ALEX_PREPAID,
  )!.id;
  page = await signedInPage(browser, sandbox.backend.baseUrl, "alex@example.com", {
    width: 360,
    height: 740,
    locale: "en-US",
  });
  page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
}, 240_000);

afterAll(async () => {
  await page?.context().close();
  await sandbox?.stop();
  await browser?.close();
});

describe("alex runs out of data on his prepaid line", () => {
  test("the allowance is used up: data stops, the home says so in words and offers Buy data", async () => {
    const before = await dataMeter();
    expect(before).toMatchObject({ allowance: 15_360, capped: false });
    // What is left of 15 GB, and 200 MB more, in sessions of at most 4 GB.
    let left = before.allowance! - before.used + 200;
    const records = [];
    while (left > 0) {
      records.push({ msisdn: ALEX_PREPAID, type: "data" as const, quantity: Math.min(4096, left) });
      left -= 4096;
    }
    await ingest(records);
    expect(await dataMeter()).toMatchObject({ capped: true, charged: { amount: 0, currency: "USD" } });

    await page.reload();
    await prepaidCard()
      .getByTestId("meter-data-capped")
      .getByText("Data stopped for this cycle: the allowance is used up.")
      .waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test("he buys a data pass from the Buy data link and data goes on", async () => {
    await prepaidCard().getByRole("link", { name: "Buy data" }).click();
    await page.getByRole("heading", { level: 1, name: "Shop" }).waitFor();
    await page.getByRole("button", { name: "Buy 1 GB data pass" }).click();
    const dialog = page.getByRole("dialog", { name: /1 GB data pass/ });
    // A prepaid line: the dialog says the price comes off the balance, not "prepaid: …; postpaid: …".
    await dialog.getByText("1 GB for 30 days. $10.00 comes off your balance now.").waitFor();
    await dialog.getByRole("button", { name: /\$10\.00/ }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByTestId("active-add-on").filter({ hasText: "1 GB data pass" }).waitFor();
    expect((await dataMeter()).capped).toBe(false);

    await page.getByRole("navigation").getByRole("link", { name: "Home", exact: true }).click();
    const meter = prepaidCard().getByTestId("meter-data");
    await meter.waitFor();
    await waitFor(
      "the stopped data meter to go on",
      async () => (await prepaidCard().getByTestId("meter-data-capped").count()) === 0,
    );
  });

  test("new usage counts again on the meter", async () => {
    const before = await dataMeter();
    await ingest([{ msisdn: ALEX_PREPAID, type: "data", quantity: 100 }]);
    const after = await dataMeter();
    expect(after).toMatchObject({ used: before.used + 100, capped: false });
    // The home follows the meters live.
    await waitFor(
      "the home's data meter to count the new usage",
      async () => (await prepaidCard().getByTestId("meter-data").getAttribute("data-used")) === String(after.used),
    );
    expect(await prepaidCard().getByTestId("meter-data-capped").count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
