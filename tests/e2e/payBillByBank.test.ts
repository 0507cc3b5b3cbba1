import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser } from "playwright-core";
import { startBackendProcess, type BackendProcess } from "../support/backendProcess";
import { freePort } from "../support/freePort";
import { launchChromium } from "../support/browser";
import { signedInPage } from "../support/portalPages";
import { LOCAL_SANDBOX_API_KEY } from "../../server/config";

// Issue 24: in the ATT build (no card top-ups) alex pays his postpaid bill, which lists its overage,
// at 360 px with a bank account added in the pay dialog; the payment settles later by webhook.
let browser: Browser;
let backend: BackendProcess;
let dataDir: string;
let gatewayUrl: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "pay-bill-bank-"));
  const gatewayPort = await freePort();
  gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  // As `npm start` runs it: the seed's empty top-up setting, bills through BILL_PAYMENT_GATEWAY's local default (the sandbox).
  backend = await startBackendProcess({
    DATA_DIR: dataDir,
    STATIC_DIR: inject("staticDir"),
    SANDBOX_GATEWAY_PORT: String(gatewayPort),
    SANDBOX_ACH_SETTLE_MS: "never",
  });
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  backend?.signal("SIGTERM");
  await backend?.exited;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("at 360 px alex pays his postpaid bill, overage listed, with a bank account added in the pay dialog", async () => {
  const page = await signedInPage(browser, backend.baseUrl, "alex@example.com", { width: 360 });
  await page.goto(
    `${backend.baseUrl}/invoices?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=overdue`,
  );
  const billLink = page.locator("a[href*='/invoices/show/']").first();
  await billLink.waitFor();
  await page.goto(`${backend.baseUrl}${await billLink.getAttribute("href")}`);

  // The bill lists its lines in words: the plan, the overage by type and zone, and last bill's total.
  await page.getByTestId("bill-status").getByText("Overdue").waitFor();
  await page.getByTestId("bill-items-overage").getByText("Data beyond the allowance (Canada & Mexico)").waitFor();
  await expect.poll(() => page.getByTestId("bill-items-overage").textContent()).toContain("$15.00");
  await page.getByTestId("bill-last").getByText("Last bill: $70.36").waitFor();
  await page.getByTestId("bill-due").getByText("$86.60").waitFor();

  await page.getByRole("button", { name: "Pay now", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Pay your bill" });
  // No saved method yet: adding one is chosen; a bank account this time.
  await dialog.getByRole("radio", { name: "Add a card or bank account" }).waitFor();
  expect(await dialog.getByRole("radio", { name: "Add a card or bank account" }).isChecked()).toBe(true);
  // A card the bank declines: the dialog says so in words and what to do, and does not keep the card.
  await dialog.locator("#pay-card-number").fill("4000 0000 0000 0002");
  await dialog.locator("#pay-card-expiry").fill("11/39");
  await dialog.locator("#pay-card-cvc").fill("321");
  await dialog.getByRole("button", { name: "Pay $86.60" }).click();
  await dialog
    .getByRole("alert")
    .getByText(
      "The card ending 0002 was declined: nothing was charged and the bill is unchanged. Try another card or a bank account.",
    )
    .waitFor();
  await expect.poll(() => dialog.getByRole("radio", { name: "Add a card or bank account" }).isChecked()).toBe(true);
  expect(await dialog.getByRole("radio", { name: /ending in 0002/ }).count()).toBe(0);
  expect(await dialog.textContent()).not.toMatch(/card_declined/);
  await dialog.getByText("Bank account", { exact: true }).click();
  // A mistyped routing number is caught before anything leaves the browser.
  await dialog.getByLabel("Routing number").fill("110000001");
  await dialog.getByLabel("Account number").fill("000123456789");
  await dialog.getByRole("button", { name: "Pay $86.60" }).click();
  await dialog.getByText("This is not a valid routing number: check the 9 digits.").waitFor();
  await dialog.getByLabel("Routing number").fill("110000000");
  await dialog.getByRole("button", { name: "Pay $86.60" }).click();
  await dialog
    .getByTestId("pay-result")
    .getByText("Your bank payment of $86.60 is on its way; it takes 1–3 days.", { exact: false })
    .waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.waitFor({ state: "hidden" });

  // On its way: the bill is still open until the bank settles it (the sandbox's control sends the signed webhook).
  await page.getByTestId("bill-status").getByText("Overdue").waitFor();
  const settled = await fetch(`${gatewayUrl}/v1/ach/settle`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${LOCAL_SANDBOX_API_KEY}` },
    body: "{}",
  });
  expect(await settled.json()).toEqual({ settled: 1 });
  await expect
    .poll(
      async () => {
        await page.reload();
        await page.getByTestId("bill-status").waitFor();
        return page.getByTestId("bill-status").textContent();
      },
      { timeout: 30_000 },
    )
    .toBe("Paid");
  await page.getByRole("button", { name: "Pay now", exact: true }).waitFor({ state: "detached" });

  // Money: the last bills side by side, as a chart, with the totals in a table for screen readers.
  await page.goto(`${backend.baseUrl}/money`);
  const totals = page.getByTestId("bill-totals");
  await totals.locator("[data-testid=bill-totals-chart] canvas").waitFor();
  // This bill ($86.60) beside the two before it (the table for screen readers, not the chart's legend).
  const table = totals.locator("figcaption table");
  await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
  const rows = await table.locator("tbody").innerText();
  expect(rows).toContain("$70.36");
  expect(rows).toContain("$86.60");
  expect(await table.locator("caption").innerText()).toMatch(/^Bill totals from the bill ending .+ to the one ending /);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Money → Payment methods: the account added in the dialog, in words, the default, with Remove; the
  // declined card is not there.
  await page.goto(`${backend.baseUrl}/payment-methods`);
  const saved = page.locator(".ant-card").filter({ has: page.getByRole("link", { name: /account ending in 6789$/ }) });
  await saved.getByText("Your default: bills you pay and automatic payments use it.").waitFor();
  await saved.getByRole("button", { name: /Remove/ }).waitFor();
  expect(await page.getByText(/ending in 0002/).count()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.context().close();
}, 180_000);
