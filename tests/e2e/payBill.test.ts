import { afterAll, beforeAll, expect, test, inject } from "vitest";
import type { Browser } from "playwright-core";
import type { BackendProcess } from "../support/backendProcess";
import { startSandboxBackend, type SandboxBackend } from "../support/sandboxBackend";
import { launchChromium } from "../support/browser";
import { signedInPage } from "../support/portalPages";

// Pay a bill in Chromium at 360 px (issue 9 item 9): the declared `pay` action shows on the bill's
// page; the subscriber picks a saved card and the bill becomes paid.
let browser: Browser;
let backend: BackendProcess;
let sandbox: SandboxBackend | undefined;

beforeAll(async () => {
  sandbox = await startSandboxBackend(inject("staticDir"), "pay-bill");
  backend = sandbox.backend;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

test("at 360 px alex pays his overdue bill with a saved card", async () => {
  const page = await signedInPage(browser, backend.baseUrl, "alex@example.com", { width: 360 });

  // Save a card (through the gateway's tokenizer, as on the top-up page).
  await page.goto(`${backend.baseUrl}/top-up`);
  await page.getByRole("button", { name: "Add a card" }).click();
  await page.locator("#save-card-number").fill("4242 4242 4242 4242");
  await page.locator("#save-card-expiry").fill("11/39");
  await page.locator("#save-card-cvc").fill("321");
  await page.getByRole("button", { name: "Save card" }).click();
  await page.getByTestId("payment-method").filter({ hasText: "Visa ending in 4242" }).waitFor();

  // The overdue bill: its page offers Pay.
  await page.goto(
    `${backend.baseUrl}/invoices?filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=overdue`,
  );
  // The bill's link itself: "Overdue" on the page did not mean the table had its rows (a loaded run read none).
  const billLink = page.locator("a[href*='/invoices/show/']").first();
  await billLink.waitFor();
  const bill = await billLink.getAttribute("href");
  expect(bill).toBeTruthy();
  await page.goto(`${backend.baseUrl}${bill}`);
  // The bill's own page: overdue in red, with Pay now.
  await page.getByTestId("bill-status").getByText("Overdue").waitFor();
  await page.getByTestId("bill-items").waitFor();
  await page.getByRole("button", { name: "Pay now", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Pay your bill" });
  await dialog.getByRole("radio", { name: "Visa ending in 4242" }).check();
  await dialog.getByRole("button", { name: /^Pay \$/ }).click();
  // Paid: the dialog says so in words, then closes; the action is gone (it is offered only on
  // issued or overdue bills) and the status says so.
  await dialog
    .getByTestId("pay-result")
    .getByText(/paid\. Nothing left to pay\./)
    .waitFor();
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.getByRole("button", { name: "Pay now", exact: true }).waitFor({ state: "detached" });
  await page.getByTestId("bill-status").getByText("Paid", { exact: true }).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Autopay on his postpaid account, with that card; then auto top-up on his prepaid one.
  await page.goto(`${backend.baseUrl}/accounts`);
  await expect
    .poll(() => page.locator("a[href*='/accounts/show/']").count(), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  const accountLinks = await page.evaluate(() =>
    Array.from(document.querySelectorAll("a[href*='/accounts/show/']")).map((a) => a.getAttribute("href")!),
  );
  expect(new Set(accountLinks).size).toBe(2);
  for (const link of new Set(accountLinks)) {
    await page.goto(`${backend.baseUrl}${link}`);
    await page
      .getByRole("button", { name: /^(Autopay|Auto top-up)$/ })
      .first()
      .waitFor();
    if (await page.getByRole("button", { name: "Autopay", exact: true }).count()) {
      await page.getByRole("button", { name: "Autopay", exact: true }).click();
      const autopay = page.getByRole("dialog", { name: /^Autopay · / });
      await autopay.getByRole("switch", { name: "Pay my bills automatically" }).click();
      await autopay.getByRole("button", { name: "Autopay", exact: true }).click();
      await page.getByText("Autopay: done.").waitFor();
      await page
        .locator("th.ant-descriptions-item-label")
        .filter({ hasText: /^Autopay card$/ })
        .locator("xpath=following-sibling::td[1]")
        .getByText(/4242/)
        .waitFor();
    } else {
      await page.getByRole("button", { name: "Auto top-up", exact: true }).click();
      const auto = page.getByRole("dialog", { name: /^Auto top-up · / });
      await auto.getByRole("switch", { name: "Top up automatically" }).click();
      await auto.getByLabel("When the balance falls below").fill("5");
      await auto.getByLabel("Top up by").fill("20");
      await auto.getByLabel("At most this many times a month").fill("2");
      await auto.getByRole("button", { name: "Auto top-up", exact: true }).click();
      await page.getByText("Auto top-up: done.").waitFor();
    }
  }
  await page.context().close();
}, 180_000);
