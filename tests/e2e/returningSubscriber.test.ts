import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import { launchChromium } from "../support/browser";
import { newPortalContext, signedInPage } from "../support/portalPages";

// A returning subscriber on a phone: the page asks for its data with the ID token Firebase issued
// last (src/providers/earlySession.ts) before the Firebase SDK has loaded, and the copy of that
// token follows the session: gone at sign-out, kept for this tab only without "Keep me signed in".
const baseUrl = inject("baseUrl");
const PHONE = { width: 360, height: 740, locale: "en-US" };
const KEY = "portal.idToken";
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const keptTokens = (page: Page) =>
  page.evaluate((key) => ({ local: localStorage.getItem(key), session: sessionStorage.getItem(key) }), KEY);

test("a returning subscriber's Usage asks for its data before Firebase loads, and draws it", async () => {
  const page = await signedInPage(browser, baseUrl, "alex@example.com", PHONE);
  const problems: string[] = [];
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  try {
    expect((await keptTokens(page)).local).toMatch(/^eyJ/);
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.goto(`${baseUrl}/usage`);
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
    await page.locator('.sub-card [data-testid="meter-data"]').first().waitFor();
    const home = requested.findIndex((url) => url.endsWith("/api/v1/home"));
    // Firebase's own code, and its question to the Auth server about the stored user.
    const firebase = requested.findIndex((url) => /\/assets\/firebase-|identitytoolkit|accounts:lookup/.test(url));
    expect(home, requested.join("\n")).toBeGreaterThanOrEqual(0);
    expect(firebase === -1 || home < firebase, requested.join("\n")).toBe(true);
    // Firebase still restores the session behind the page (its request may be out already: look in the record).
    await expect.poll(() => requested.some((url) => /identitytoolkit|accounts:lookup/.test(url))).toBe(true);
    await page.getByRole("navigation").getByRole("link", { name: "Money", exact: true }).click();
    await page.getByTestId("postpaid-money").waitFor();
    expect(problems).toEqual([]);
  } finally {
    await page.context().close();
  }
});

test("signing out forgets the kept token: the next visit starts at the sign-in", async () => {
  const page = await signedInPage(browser, baseUrl, "alex@example.com", PHONE);
  try {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.locator("input[type=email]").waitFor();
    await expect.poll(() => keptTokens(page)).toEqual({ local: null, session: null });
    await page.goto(`${baseUrl}/usage`);
    await page.locator("input[type=email]").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  } finally {
    await page.context().close();
  }
});

test("without Keep me signed in, the token is kept for this tab only", async () => {
  const context = await newPortalContext(browser, { viewport: { width: 360, height: 740 }, locale: "en-US" });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  try {
    await page.goto(`${baseUrl}/`);
    await page.locator("input[type=email]").fill("alex@example.com");
    await page.locator("input[type=password]").fill(DEMO_PASSWORD);
    await page.getByLabel("Keep me signed in on this device").uncheck();
    await page.locator("button[type=submit]").click();
    await page.getByRole("heading", { name: /Hello/ }).waitFor();
    await expect.poll(async () => (await keptTokens(page)).session).toMatch(/^eyJ/);
    expect((await keptTokens(page)).local).toBeNull();
    // A reload in the same tab keeps the session (Firebase finds it in this tab too) and the copy.
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.reload();
    await page.getByRole("heading", { name: /Hello/ }).waitFor();
    await expect.poll(() => requested.some((url) => /identitytoolkit|accounts:lookup/.test(url))).toBe(true);
    await page.locator('[data-testid="line-card"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect((await keptTokens(page)).local).toBeNull();
  } finally {
    await context.close();
  }
});
