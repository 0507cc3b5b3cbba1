import { afterAll, beforeAll, expect, test, inject } from "vitest";
import type { Browser } from "playwright-core";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import type { BackendProcess } from "../support/backendProcess";
import { startSandboxBackend, type SandboxBackend } from "../support/sandboxBackend";
import { launchChromium } from "../support/browser";
import { accessibilityProblems } from "../support/accessibility";
import { signedInPage } from "../support/portalPages";

// Card top-up in Chromium at 360 px (issue 9 items 4, 7): a backend of its own whose operator's
// setting is "sandbox", so `server/main.ts` (what `npm start` runs) starts the sandbox gateway on
// its own port. The browser posts the card to the gateway's tokenizer, never to our API.
let browser: Browser;
let backend: BackendProcess;
let sandbox: SandboxBackend | undefined;

beforeAll(async () => {
  sandbox = await startSandboxBackend(inject("staticDir"), "card-top-up");
  backend = sandbox.backend;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

const signedIn = (email: string, width: number) => signedInPage(browser, backend.baseUrl, email, { width });

test("at 360 px alex tops up by card through the sandbox, sees it completed, and saves a card", async () => {
  const page = await signedIn("alex@example.com", 360);
  const toOurApi: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${backend.baseUrl}/api/`) && request.postData()) toOurApi.push(request.postData()!);
  });
  await page.goto(`${backend.baseUrl}/top-up`);
  await page.getByText("Top up by card").waitFor();
  await page.getByLabel("Amount").fill("12.50");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill(`12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, "0")}`);
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Top up", exact: true }).click();
  const problems: string[] = [];
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  await page.getByTestId("top-up-result").waitFor().catch(async (error: Error) => {
    const errors = await page.locator(".ant-form-item-explain-error").allInnerTexts();
    throw new Error(`${error.message}\nform errors: ${errors.join(" | ")}\nconsole: ${problems.join(" | ")}`);
  });
  expect(await page.getByTestId("top-up-result").innerText()).toContain("$12.50 was added");
  await page.getByTestId("top-up").filter({ hasText: "Completed" }).first().waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // A declined card: failed, said so.
  await page.getByLabel("Amount").fill("3");
  await page.getByLabel("Card number").fill("4000 0000 0000 0002");
  await page.getByLabel("Expiry (MM/YY)").fill("12/40");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Top up", exact: true }).click();
  await page.getByTestId("top-up-result").filter({ hasText: "did not go through" }).waitFor();

  // Save a card for next time.
  await page.getByRole("button", { name: "Add a card" }).click();
  await page.locator("#save-card-number").fill("4242 4242 4242 4242");
  await page.locator("#save-card-expiry").fill("11/39");
  await page.locator("#save-card-cvc").fill("321");
  await page.getByRole("button", { name: "Save card" }).click();
  await page.getByTestId("payment-method").filter({ hasText: "Visa ending in 4242" }).waitFor();
  await page.getByRole("radio", { name: "Visa ending in 4242" }).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect(await accessibilityProblems(page)).toEqual([]);

  // Card numbers went to the gateway only: not in any request to our API, not in the backend's log.
  for (const number of Object.values(SANDBOX_CARDS)) {
    expect(toOurApi.join("\n")).not.toContain(number);
    expect(backend.logs.join("\n")).not.toContain(number);
  }
  expect(toOurApi.join("\n")).not.toContain("4242 4242");
  await page.context().close();
}, 180_000);
