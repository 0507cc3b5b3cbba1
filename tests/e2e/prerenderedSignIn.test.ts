import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import { launchChromium } from "../support/browser";
import { newPortalContext } from "../support/portalPages";

// The sign-in form is prerendered into index.html, so a phone shows it long before React owns it.
// Whatever a visitor types, checks or picks in that window must still be there once it does, on a
// mid-range phone's CPU (6x slower than this machine's), in either language.
const baseUrl = inject("baseUrl");
const POLL = { timeout: 30_000, interval: 100 };
const CPU_SLOWDOWN = 6;
/** A phone on a slow mobile network (Lighthouse's "slow 4G"): 150 ms round trips, 1.6 Mbps down. */
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface SlowPhone {
  page: Page;
  /** Lets the held scripts through (a no-op when none were held). */
  release: () => void;
}

/**
 * A phone-sized page on a throttled CPU. `holdScripts` keeps every script from arriving until
 * release(), so what the test does happens provably before any JavaScript of the portal runs;
 * `slowNetwork` leaves the race to the network, as on a real phone; `firstFrame` is a script that
 * acts from inside the page.
 * `savedLanguage` is a language the visitor chose on an earlier visit.
 */
async function slowPhone(
  options: { holdScripts?: boolean; slowNetwork?: boolean; savedLanguage?: string; firstFrame?: string } = {},
): Promise<SlowPhone> {
  const { holdScripts = false, slowNetwork = false, savedLanguage, firstFrame } = options;
  const context = await newPortalContext(browser, { viewport: { width: 360, height: 740 }, locale: "en-US" });
  if (firstFrame) await context.addInitScript({ content: firstFrame });
  if (savedLanguage)
    await context.addInitScript({
      content: `if (!localStorage.getItem("portal.locale")) localStorage.setItem("portal.locale", ${JSON.stringify(savedLanguage)});`,
    });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  if (slowNetwork) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  }
  let release = () => {};
  if (holdScripts) {
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await released;
      await route.continue();
    });
  }
  await page.goto(`${baseUrl}/login`, { waitUntil: "commit" });
  // As soon as the form shows: the prerendered one, long before hydration.
  await page.locator("input[name=email]").waitFor({ state: "visible" });
  return { page, release };
}

const marks = (page: Page) => page.evaluate(() => performance.getEntriesByType("mark").map((m) => m.name));
const ready = (page: Page) =>
  expect.poll(async () => (await marks(page)).includes("portal:sign-in-ready"), POLL).toBe(true);

/** Types into the prerendered form by its names (its labels are English until React owns it). */
async function fillForm(
  page: Page,
  { email, password, language }: { email: string; password: string; language?: string },
) {
  // The language first: a pick the portal's script never heard of is what used to be lost.
  if (language) await page.locator("select[name=locale]").selectOption(language);
  await page.locator("input[name=email]").fill(email);
  await page.locator("input[name=password]").fill(password);
  await page.locator("input[name=remember]").uncheck();
}

async function expectKept(page: Page, email: string, password: string) {
  expect(await page.locator("input[name=email]").inputValue()).toBe(email);
  expect(await page.locator("input[name=password]").inputValue()).toBe(password);
  expect(await page.locator("input[name=remember]").isChecked()).toBe(false);
}

test.each([
  { case: "stays in English", language: undefined, heading: "Sign in", submit: "Sign in", hello: /Hello/ },
  { case: "picks Spanish", language: "es", heading: "Iniciar sesión", submit: "Iniciar sesión", hello: /Hola/ },
])(
  "a visitor who types before any script arrives and $case keeps it all, and signs in with it",
  async ({ language, heading, submit, hello }) => {
    const { page, release } = await slowPhone({ holdScripts: true });
    await fillForm(page, { email: "sam@example.com", password: DEMO_PASSWORD, language });
    expect(await marks(page), "the portal's script ran before the test typed").not.toContain("portal:entry");
    release();
    await ready(page);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText(), POLL).toBe(heading);
    await expectKept(page, "sam@example.com", DEMO_PASSWORD);
    expect(await page.locator("select[name=locale]").inputValue()).toBe(language ?? "en");
    await page.getByRole("button", { name: submit, exact: true }).click();
    await page.getByRole("heading", { name: hello }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem("portal.locale"))).toBe(language ?? null);
    await page.context().close();
  },
);

test("a visitor who chose Spanish on an earlier visit keeps what they typed when the page switches to Spanish", async () => {
  const { page, release } = await slowPhone({ holdScripts: true, savedLanguage: "es" });
  await fillForm(page, { email: "alex@example.com", password: "typed-early" });
  release();
  await ready(page);
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText(), POLL).toBe("Iniciar sesión");
  await expectKept(page, "alex@example.com", "typed-early");
  await page.context().close();
});

test("English picked on the form wins over Spanish chosen on an earlier visit", async () => {
  const { page, release } = await slowPhone({ holdScripts: true, savedLanguage: "es" });
  // The prerendered form already shows English: a visitor switches away and back before any script arrives.
  await page.locator("select[name=locale]").selectOption("es");
  await page.locator("select[name=locale]").selectOption("en");
  release();
  await ready(page);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("portal.locale")), POLL).toBe("en");
  expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Sign in");
  await page.context().close();
});

/**
 * In the very frame the form is first laid out (before the deferred entry can run), a visitor picks
 * Spanish and starts typing their email. Kept as a string: tsx would wrap a function in a helper
 * the page does not have.
 */
const ACT_IN_FIRST_FRAME = `(() => {
  const act = () => {
    const email = document.querySelector("input[name=email]");
    const language = document.querySelector("select[name=locale]");
    // On a slow network the HTML arrives in pieces: the language list may show before its options
    // do, and nobody can pick Spanish from a list without it (setting it then picks nothing, "").
    if (!email || !language || !language.querySelector("option[value=es]") || email.getBoundingClientRect().width === 0) return requestAnimationFrame(act);
    window.__marksAtFirstAction = performance.getEntriesByType("mark").map((m) => m.name);
    language.value = "es";
    language.dispatchEvent(new Event("change", { bubbles: true }));
    email.focus();
    email.value = "alex@ex";
    email.dispatchEvent(new Event("input", { bubbles: true }));
  };
  requestAnimationFrame(act);
})();`;

test("acting the moment the form shows, on a slow phone, loses nothing whenever the portal's script takes over", async () => {
  const { page } = await slowPhone({ slowNetwork: true, firstFrame: ACT_IN_FIRST_FRAME });
  // The rest is typed as it comes: before, during or after hydration, wherever the race puts it.
  const email = page.locator("input[name=email]");
  await email.press("End");
  await email.pressSequentially("ample.com");
  await page.locator("input[name=password]").pressSequentially("typed-at-once");
  await page.locator("input[name=remember]").uncheck();
  await ready(page);
  expect(
    await page.evaluate(() => (window as { __marksAtFirstAction?: string[] }).__marksAtFirstAction),
    "the first action came after the portal's script",
  ).toEqual([]);
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText(), POLL).toBe("Iniciar sesión");
  await expectKept(page, "alex@example.com", "typed-at-once");
  expect(await page.locator("select[name=locale]").inputValue()).toBe("es");
  await page.context().close();
});
