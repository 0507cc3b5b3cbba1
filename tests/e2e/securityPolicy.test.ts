import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { parsePolicy } from "../../src/config/contentSecurityPolicy";
import { resources } from "../../src/resources";
import { launchChromium } from "../support/browser";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import { newPortalContext } from "../support/portalPages";

// The built portal under the Content-Security-Policy the backend really sends (Playwright does not
// bypass it): every page a visitor opens loads without a single violation, and a script that was
// not part of the build does not run.
const baseUrl = inject("baseUrl");
const POLL = { timeout: 20_000, interval: 200 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface Violation {
  page: string;
  /** The `securitypolicyviolation` event, or Chromium's message on the console. */
  via: "event" | "console";
  /** The directive broken (events) or the message (console). */
  what: string;
  blocked?: string;
}

/** A browser context that reports every CSP violation, by event and by console message, to the test, and any complaint about the policy headers. */
async function watchedContext(
  width: number,
): Promise<{ context: BrowserContext; page: Page; violations: Violation[] }> {
  const context = await newPortalContext(browser, { viewport: { width, height: 800 }, locale: "en-US" });
  const violations: Violation[] = [];
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  await context.exposeBinding(
    "__reportCspViolation",
    ({ page }, what: string, blocked: string) =>
      void violations.push({ page: pathOf(page), via: "event", what, blocked }),
  );
  // Init scripts and bindings come through the DevTools protocol, which the policy does not govern.
  await context.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) => window.__reportCspViolation(e.effectiveDirective, e.blockedURI), true);`,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("console", (message) => {
    // A policy header the browser cannot read ("Error with Permissions-Policy header") counts too.
    if (/Content Security Policy|Refused to|Permissions-Policy/i.test(message.text()))
      violations.push({ page: pathOf(page), via: "console", what: message.text() });
  });
  return { context, page, violations };
}

/** Opens a path with a full page load and waits until its heading shows and the network is quiet. */
async function visit(page: Page, path: string, { signedIn = true } = {}) {
  const response = await page.goto(`${baseUrl}${path}`);
  expect(response?.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
  const headings = "main h1, main h2, main h3, main h4, .ant-page-header-heading-title, .ant-card-head-title";
  await page
    // Signed in, the portal's own heading: the sign-in page's can stay on screen until the portal commits.
    .locator(signedIn ? `:is(${headings}):not(.signin *)` : headings)
    .first()
    // A full page load per page: on a machine loaded to both cores it can take longer than the default 20 s.
    .waitFor({ timeout: 60_000 })
    .catch((error: Error) => {
      throw new Error(`${path} showed no heading: ${error.message}`);
    });
  await page.waitForLoadState("networkidle");
}

const SIGNED_OUT_PAGES = ["/login", "/register", "/forgot-password", "/login/phone", "/login/email-link"];

test("the HTML carries a policy without inline or eval scripts, and every signed-out page loads without a violation", async () => {
  const { context, page, violations } = await watchedContext(360);
  const response = await page.goto(`${baseUrl}/login`);
  const policy = parsePolicy(response!.headers()["content-security-policy"]!);
  expect(policy["script-src"]).not.toContain("'unsafe-inline'");
  expect(policy["script-src"]).not.toContain("'unsafe-eval'");
  expect(policy["frame-ancestors"]).toEqual(["'none'"]);
  for (const path of SIGNED_OUT_PAGES) await visit(page, path, { signedIn: false });
  expect(violations).toEqual([]);
  await context.close();
});

/** Signs in through the form, then opens every list of the registry, the staff-only pages, and one record, create and edit page per list. */
async function visitSignedIn(page: Page, email: string, extraPages: string[]): Promise<string[]> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: /Hello/ }).waitFor();
  const visited: string[] = [];
  const lists = ["/", ...resources.map((r) => `/${r.name}`), "/security", ...extraPages];
  for (const path of lists) {
    await visit(page, path);
    visited.push(path);
    const records = await page
      .locator("a[href]")
      .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    const deeper = new Map<string, string>();
    for (const href of records) {
      const view = /^\/[\w-]+\/(show|create|edit)\b/.exec(href);
      if (view && href.startsWith(`${path}/`) && !deeper.has(view[1]!)) deeper.set(view[1]!, href);
    }
    for (const href of deeper.values()) {
      await visit(page, href);
      visited.push(href);
    }
  }
  return visited;
}

test.each([
  { who: "a subscriber on a phone", email: "alex@example.com", width: 360, extraPages: [] },
  { who: "an admin at a desk", email: "admin@att.example", width: 1280, extraPages: ["/staff", "/kpis"] },
])(
  "every page $who opens loads without a violation",
  async ({ email, width, extraPages }) => {
    const { context, page, violations } = await watchedContext(width);
    const visited = await visitSignedIn(page, email, extraPages);
    // The record pages were found and opened, not just the lists.
    expect(visited.some((path) => path.includes("/show/"))).toBe(true);
    expect(violations).toEqual([]);
    await context.close();
  },
  180_000,
);

test("an inline script that was not part of the build does not run, in the page's HTML or added to it", async () => {
  const { context, page, violations } = await watchedContext(360);
  // The backend's own response, with a script slipped into its HTML (as a reflected injection would) and its headers untouched.
  await page.route(`${baseUrl}/login`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("</head>", "<script>window.__injected = 'html'</script></head>");
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").waitFor();
  const added = await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = 'dom'";
    document.body.append(script);
    const image = document.createElement("div");
    image.innerHTML = `<img src="/missing.png" onerror="window.__injected = 'handler'">`;
    document.body.append(image);
    return (window as { __injected?: string }).__injected ?? null;
  });
  expect(added).toBeNull();
  // Both ways of noticing it see all three: the two scripts and the event handler.
  await expect
    .poll(
      () =>
        violations
          .filter((v) => v.via === "event")
          .map((v) => v.what)
          .sort(),
      POLL,
    )
    .toEqual(["script-src-attr", "script-src-elem", "script-src-elem"]);
  await expect.poll(() => violations.filter((v) => v.via === "console").length, POLL).toBe(3);
  expect(await page.evaluate(() => (window as { __injected?: string }).__injected ?? null)).toBeNull();
  // The portal's own scripts still run: the form becomes usable.
  await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isEnabled(), POLL).toBe(true);
  await context.close();
});
