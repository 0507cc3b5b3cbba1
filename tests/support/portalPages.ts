import { expect } from "vitest";
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from "playwright-core";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";

/** The key the portal keeps a visitor's consent under (src/consent/consent.ts). */
export const CONSENT_KEY = "portal.consent.v1";

/**
 * A new browser context for a test's phone or desk (en-US unless `locale` says otherwise, asking
 * for less motion unless `reducedMotion` says otherwise).
 *
 * Under E2E_BUILD=all-switches the build asks for consent on a visitor's first page, and its banner
 * sits over the bottom of the screen and over dialogs. Every phone but those of the consent tests
 * (tests/e2e/switches.test.ts, which use browser.newContext themselves) is a visitor who declined on
 * an earlier visit: the choice is in the browser before the portal's scripts run, so nothing waits
 * on the banner and nothing third-party loads.
 */
export async function newPortalContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  // Every phone and desk asks for less motion, as many people do (MotionPreference): antd's dialogs
  // then come and go at once. antd keeps a closing dialog, old content and all, until its leave
  // animation reports its end; in a loaded round a result dialog was still there 20 s after its
  // close button was clicked, just after it had zoomed in (docs/decisions.md, "Less motion").
  const context = await browser.newContext({ locale: "en-US", reducedMotion: "reduce", ...options });
  if (process.env.E2E_BUILD === "all-switches") {
    await context.addInitScript((key) => {
      if (localStorage.getItem(key) === null)
        localStorage.setItem(
          key,
          JSON.stringify({ analytics: false, chat: false, decidedAt: "2026-01-01T00:00:00.000Z" }),
        );
    }, CONSENT_KEY);
  }
  return context;
}

export interface SignedInOptions extends BrowserContextOptions {
  width: number;
  height?: number;
  password?: string;
}

/** A new context signed in as `email` through the sign-in form, on the home page once it greets them. */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  options: SignedInOptions,
): Promise<Page> {
  const { width, height = 800, password = DEMO_PASSWORD, ...contextOptions } = options;
  const context = await newPortalContext(browser, { viewport: { width, height }, ...contextOptions });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${baseUrl}/`);
  await page.locator("input[type=email]").fill(email);
  await page.locator("input[type=password]").fill(password);
  await page.locator("button[type=submit]").click();
  await page.getByRole("heading", { name: /Hello|Hola/ }).waitFor();
  return page;
}

/** The open dialog of a declared action, by the action's label (its title is "<label> · <record>"). */
export const actionDialog = (page: Page, action: string) =>
  page.getByRole("dialog", { name: new RegExp(`^${action} · `) });

/**
 * Picks an option of an antd select, found by its label within `scope`: clicks the select's own box
 * (with a value chosen, its input is hidden), then the option in the open dropdown, and waits until
 * the select shows it. On a loaded machine the click can land while the dropdown is still opening
 * and be lost; then the dropdown is opened and the option clicked again (three tries at most).
 */
export async function pickOption(page: Page, scope: Page | Locator, label: string, option: string): Promise<void> {
  const select = scope
    .getByRole("combobox", { name: label })
    .locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' ant-select ')][1]");
  const chosen = select.locator(".ant-select-selection-item").getByText(option, { exact: true });
  const dropdown = page.locator(".ant-select-dropdown:visible");
  for (let attempt = 1; ; attempt++) {
    if ((await dropdown.count()) === 0) await select.click();
    await dropdown.getByText(option, { exact: true }).click();
    try {
      await chosen.waitFor({ timeout: attempt < 3 ? 5_000 : undefined });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Types a day ("YYYY-MM-DD") into an antd date picker and leaves the field, as a person does. The
 * picker opens a frame after the click and, as it opens, shows its current value again: on a loaded
 * machine text typed before that is lost. So the calendar is waited for before typing, and the
 * field must show the typed day once left (three tries at most).
 */
export async function typeDate(page: Page, input: Locator, day: string): Promise<void> {
  const calendar = page.locator(".ant-picker-dropdown:visible");
  for (let attempt = 1; ; attempt++) {
    await input.click();
    await calendar.waitFor();
    await input.fill(day);
    await input.press("Enter");
    await input.press("Tab");
    try {
      await expect.poll(() => input.inputValue(), { timeout: attempt < 3 ? 5_000 : 20_000 }).toBe(day);
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
