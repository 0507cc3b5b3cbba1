import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { traceContexts } from "./browserDiagnostics";

/** Debian's Chromium; a test tool's own browser download cannot work on these machines. */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ||
  ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync) ||
  "/usr/bin/chromium";

/** Without the background-networking flags Chromium keeps dialling Google on this closed network. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's Chromium; in the e2e suite every context is traced, so a failing test can show what its pages did. */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  traceContexts(browser);
  return browser;
}

/**
 * Polls a condition in the page until it returns something truthy, and returns that. Playwright's
 * waitForFunction cannot be used on the portal: it evaluates the condition with eval, which the
 * portal's Content-Security-Policy forbids; page.evaluate is not subject to it.
 */
export async function pollPage<T>(
  page: Page,
  condition: () => T,
  { timeout = 10_000, interval = 100, what = "a condition in the page" } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(condition);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
