import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { startProcess, stopProcess } from "../../scripts/processes";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { pickOption, signedInPage } from "../support/portalPages";

// What a subscriber opens the app for (issue 10), as its "done when" tells it: alex, on a 360 px
// phone, watches his data meter move while `npm run simulate:usage` sends records, gets the 80 %
// notice live, previews and changes his plan, buys a roaming pass and exports his usage. Real
// Chromium, the real backend seeded with the demo data, the real Auth emulator.
const baseUrl = inject("baseUrl");
const POLL = { timeout: 30_000, interval: 200 };
/** Alex's postpaid line, on "Postpaid Extra 50 GB" in the seed. */
const NUMBER = "+12025550102";
const SHOWN = "(202) 555-0102";
const DATA_ALLOWANCE_MB = 50 * 1024;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser, baseUrl, "alex@example.com", { width: 360, height: 740 });
});
afterAll(async () => {
  await browser?.close();
});

const lineCard = () => page.getByTestId("line-card").filter({ hasText: SHOWN });
/** The data counted on the line's meter, as the page shows it now (MB). */
const dataUsed = async () => Number(await lineCard().getByTestId("meter-data").getAttribute("data-used"));

/** Sends one batch of records to the ingest API, as the operator's mediation system does. */
async function ingest(records: { id: string; type: "data" | "voice" | "sms"; quantity: number }[]) {
  const res = await fetch(`${baseUrl}/api/v1/usage-records/batch`, {
    method: "POST",
    headers: { authorization: `ApiKey ${LOCAL_INGEST_KEY}`, "x-operator": "ATT", "content-type": "application/json" },
    body: JSON.stringify({
      records: records.map((r) => ({ ...r, msisdn: NUMBER, startedAt: new Date().toISOString() })),
    }),
  });
  expect(res.status).toBe(200);
}

test("alex watches his data meter move while simulate:usage runs, without a reload", async () => {
  await lineCard().getByTestId("meter-data").waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  const before = await dataUsed();
  const navigations: string[] = [];
  page.on("framenavigated", (frame) => frame === page.mainFrame() && navigations.push(frame.url()));

  // The very command a person runs beside `npm start`, pointed at this backend and at alex's line.
  const simulator = startProcess(process.execPath, ["--import", "tsx", "scripts/simulate-usage.ts"], {
    BACKEND_URL: baseUrl,
    NUMBERS: NUMBER,
    INTERVAL_MS: "300",
    DATA_MB: "40",
  });
  try {
    await expect.poll(dataUsed, POLL).toBeGreaterThan(before);
  } finally {
    await stopProcess(simulator);
  }
  expect(navigations).toEqual([]);
  // The meter says how fresh it is: the records just counted make it "Updated just now" or "… min ago".
  await lineCard()
    .getByTestId("meter-data")
    .getByText(/Updated (just now|\d+ min ago)/)
    .waitFor();
});

test("crossing 80 % of the data allowance brings the notice live, once", async () => {
  const used = await dataUsed();
  const toEighty = Math.ceil(DATA_ALLOWANCE_MB * 0.8) - used;
  // The seed leaves the line under 80 %; the simulator above added only a little.
  expect(toEighty).toBeGreaterThan(0);
  const bell = page.getByTestId("notification-bell");
  const unreadBefore = Number(await bell.getAttribute("data-unread"));

  await ingest([{ id: `e2e-80-${Date.now()}`, type: "data", quantity: toEighty + 5 }]);
  await expect.poll(dataUsed, POLL).toBeGreaterThanOrEqual(DATA_ALLOWANCE_MB * 0.8);
  await expect.poll(async () => Number(await bell.getAttribute("data-unread")), POLL).toBe(unreadBefore + 1);

  // A second batch over 80 % (but under 100 %) sends nothing more.
  await ingest([{ id: `e2e-80-more-${Date.now()}`, type: "data", quantity: 1 }]);
  await bell.click();
  await page.waitForURL(/\/notifications$/);
  const notice = page
    .getByTestId("notice")
    .filter({ hasText: `You have used 80 % of the data allowance of ${SHOWN} this cycle.` });
  await notice.first().waitFor();
  expect(await notice.count()).toBe(1);
  expect(await accessibilityProblems(page)).toEqual([]);
});

test("alex previews a plan change, sees the prorated quote, and changes his plan now", async () => {
  await page.goto(`${baseUrl}/`);
  await lineCard().getByRole("link").first().click();
  await page.waitForURL(/\/lines\/show\//);
  // The line's own page names its plan; Change plan leads to the line's plans in Shop.
  await page.getByRole("region", { name: "Plan" }).getByText("Postpaid Extra 50 GB").waitFor();
  await page.getByRole("region", { name: "Plan" }).getByRole("button", { name: "Change plan" }).click();
  await page.waitForURL(/\/shop\?line=/);

  // The plans he can move to, as cards to compare: postpaid ones on sale, his own marked.
  const cards = page.getByTestId("plan-card");
  await cards.first().waitFor();
  const names = await cards.getByRole("heading").allInnerTexts();
  expect(names).toEqual([
    "Family Share 30 GB",
    "Postpaid Starter 10 GB",
    "Postpaid Extra 50 GB",
    "Postpaid Premium Unlimited",
  ]);
  await cards.filter({ hasText: "Postpaid Extra 50 GB" }).getByText("Your plan").waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);

  await page.getByRole("button", { name: "Choose Postpaid Premium Unlimited" }).click();
  const dialog = page.getByRole("dialog", { name: /^Change plan · / });
  // The dialog opens with the card's plan already picked (its select's own options are limited the
  // same way by the declaration: reference.matching and reference.where).
  await dialog.getByTitle("Postpaid Premium Unlimited").waitFor();
  await pickOption(page, dialog, "When", "Now (prorated)");
  await dialog.getByRole("button", { name: "Review" }).click();

  // The quote, before anything changes: the move, then a credit and a charge in dollars and cents.
  const quote = dialog.getByTestId("action-quote");
  await quote.getByText(`${SHOWN} moves to Postpaid Premium Unlimited now.`).waitFor();
  expect(await quote.innerText()).toMatch(/\$\d+\.\d{2}/);
  expect(await accessibilityProblems(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Change plan" }).click();
  await page.getByText("Change plan: done.").waitFor();
  await cards.filter({ hasText: "Postpaid Premium Unlimited" }).getByText("Your plan").waitFor();
});

test("alex buys a roaming pass, which appears among his active add-ons", async () => {
  await page.getByRole("button", { name: "Buy Europe pass, 7 days" }).click();
  const dialog = page.getByRole("dialog", { name: /Europe pass, 7 days/ });
  await dialog.getByRole("button", { name: "Add $35.00 to my bill" }).click();
  await page.getByText("Europe pass, 7 days was added.").waitFor();
  await page.getByTestId("active-add-on").filter({ hasText: "Europe pass, 7 days" }).waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
});

test("alex orders a SIM by post: a wrong ZIP is named at its field, then the order waits with his address", async () => {
  // From the line's page: Manage lists what the line allows, each with a sentence of what it does.
  await page.goto(`${baseUrl}/`);
  await lineCard().getByRole("link").first().click();
  await page
    .getByRole("region", { name: "Manage" })
    .getByRole("button", { name: /^Order a SIM by post/ })
    .click();
  const dialog = page.getByRole("dialog", { name: /^Order a SIM by post · / });
  await dialog.getByRole("group", { name: "Delivery address" }).waitFor();
  await dialog.getByLabel("Street and number").fill("1600 Pennsylvania Ave NW");
  await dialog.getByLabel("City").fill("Washington");
  await dialog.getByRole("combobox", { name: "State" }).fill("DC");
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option").filter({ hasText: /^DC$/ }).click();
  await dialog.getByLabel("ZIP code").fill("2050");
  await dialog.getByRole("button", { name: "Review" }).click();
  await dialog.getByText("5 digits, or ZIP+4 like 20001-1234").waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);

  // Leave the field and see its error go before asking again, so Review never races the re-check.
  await dialog.getByLabel("ZIP code").fill("20500");
  await dialog.getByLabel("ZIP code").press("Tab");
  await dialog.getByText("5 digits, or ZIP+4 like 20001-1234").waitFor({ state: "hidden" });
  await dialog.getByRole("button", { name: "Review" }).click();
  await dialog
    .getByTestId("action-quote")
    .getByText(`A new SIM for ${SHOWN} is posted to 1600 Pennsylvania Ave NW, Washington, DC 20500.`)
    .waitFor();
  await dialog.getByRole("button", { name: "Order a SIM by post" }).click();
  await page.getByText("Order a SIM by post: done.").waitFor();
});

test("alex's usage history charts the cycle by day and exports his records as CSV", async () => {
  await page.goto(`${baseUrl}/usage-records`);
  await page.getByTestId("daily-usage-chart").locator("canvas").first().waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...rows] = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  expect(header!.length).toBeGreaterThan(0);
  expect(rows.length).toBeGreaterThan(0);
  // Only alex's own lines: sam's and others' numbers never appear.
  expect(
    rows.every(
      (row) =>
        row.includes("555-0101") || row.includes("555-0102") || row.includes("5550101") || row.includes("5550102"),
    ),
  ).toBe(true);
});
