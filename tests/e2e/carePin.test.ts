import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser } from "playwright-core";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { freshEmail } from "../support/emulatorCodes";
import { newPortalContext } from "../support/portalPages";

// The care PIN on the Security page (issue 27 item 1), on a phone: a new subscriber sets one and
// changes it; an easy PIN is refused at the field before anything is sent.
const baseUrl = inject("baseUrl");
const PASSWORD = "Test-2026!pass";
const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test("a subscriber sets a care PIN on the security page at 360 px, then changes it", async () => {
  const email = freshEmail("care-pin");
  const user = await auth.createUser({ email, password: PASSWORD, emailVerified: true, displayName: "Test PIN" });
  await auth.setCustomUserClaims(user.uid, { role: "subscriber", operator: "ATT" });
  const context = await newPortalContext(browser, { viewport: { width: 360, height: 740 }, locale: "en-US" });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: /Hello/ }).waitFor();

  await page.goto(`${baseUrl}/security`);
  await page.getByText("You have not set a PIN yet.").waitFor();
  await page.getByRole("button", { name: "Set a PIN" }).click();
  const field = page.getByLabel("New PIN");
  expect(await field.getAttribute("type")).toBe("password");
  expect(await field.getAttribute("inputmode")).toBe("numeric");
  expect(await accessibilityProblems(page)).toEqual([]);

  let puts = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && request.url().endsWith("/api/v1/me/care-pin")) puts++;
  });
  await field.fill("1234");
  await page.getByRole("button", { name: "Save PIN" }).click();
  await page.getByText("New PIN: too easy to guess", { exact: false }).waitFor();
  expect(puts).toBe(0);

  await field.fill("2580");
  await page.getByRole("button", { name: "Save PIN" }).click();
  await page.getByText("Your care PIN is set. Care will ask for it when you call.").waitFor();
  await page.getByText(/Your PIN is set\. Last changed/).waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.getByRole("button", { name: "Change PIN" }).click();
  await page.getByLabel("New PIN").fill("739164");
  await page.getByRole("button", { name: "Save PIN" }).click();
  await page.getByText("Your care PIN is changed.").waitFor();
  expect(puts).toBe(2);
  await context.close();
});
