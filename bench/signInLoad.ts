// Sign-in → a signed-in page ready, on a phone over Fast 4G with 4x CPU slowdown: the measurement
// home-load.ts (sign-in → meters) and destinations.ts (sign-in → each destination) share. One cold
// browser context per run: /login (with `?to=` for a page other than the home) opens and settles,
// alex's email and password are typed, then the clock runs from the click on "Sign in" to the first
// frame after the page's real content is on screen (`ReadyCheck`).
import type { Browser } from "playwright-core";
import { pollPage } from "../tests/support/browser";
import { CPU_SLOWDOWN, fillAlexSignIn, NETWORK, type DemoPortal } from "./demoPortal";

/**
 * What "ready" means for a page: a `card` (CSS selector: the first card of real data) on screen
 * with no skeleton inside it (antd's, or the light pages' loading block), and, when given, a heading (h1 or h2: the home greets in an h2) whose text matches `heading` (a RegExp source).
 */
export interface ReadyCheck {
  heading?: string;
  card: string;
}

export interface SignInRun {
  /** Click → the first frame with the page ready, timed in the page. */
  ms: number;
  /** The same as Playwright's wait from outside sees it (later, by its polling). */
  observedMs: number;
  /** Where the page ended (its path). */
  path: string;
  /** When each request after the click was sent, ms after the click. */
  timeline: string[];
  requestsAfterClick: number;
  bytesAfterClick: number;
  apiCallsAfterClick: string[];
}

/** `/login`, or `/login?to=<path>` for a page other than the home (main.tsx's afterSignInPath). */
export const loginPathFor = (path: string) => (path === "/" ? "/login" : `/login?to=${encodeURIComponent(path)}`);

/** Signs alex in from `loginPathFor(path)` in a new phone context and times it until `ready` holds. */
export async function measureSignIn(
  browser: Browser,
  portal: DemoPortal,
  path: string,
  ready: ReadyCheck,
): Promise<SignInRun> {
  const { baseUrl } = portal;
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "en-US",
  });
  try {
    await portal.prepare(context);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", NETWORK);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });

    // The sign-in page loads and settles first: the figure is what the person waits for after the click.
    await page.goto(`${baseUrl}${loginPathFor(path)}`);
    await fillAlexSignIn(page);
    await page.waitForLoadState("networkidle");

    let counting = false;
    const urls: string[] = [];
    const timeline: string[] = [];
    let bytes = 0;
    let started = 0;
    cdp.on("Network.requestWillBeSent", (e) => {
      if (!counting) return;
      urls.push(e.request.url);
      const url = new URL(e.request.url);
      timeline.push(
        `${Math.round(performance.now() - started)} ms ${e.request.method} ${url.host === new URL(baseUrl).host ? url.pathname : url.host + url.pathname.slice(0, 40)}`,
      );
    });
    cdp.on("Network.loadingFinished", (e) => {
      if (counting) bytes += e.encodedDataLength;
    });

    // Timed in the page: from the click's own event time to the first frame after the page became
    // ready. Playwright's own wait, polled from outside a 4x-throttled page, sees it ~400 ms late.
    // No named functions in here: tsx would wrap them in a __name() helper the page does not have.
    await page.evaluate(({ heading, card }) => {
      const timing: { click?: number; ready?: number; path?: string } = {};
      (window as unknown as { __signInLoad: typeof timing }).__signInLoad = timing;
      document.addEventListener("click", (event) => (timing.click ??= event.timeStamp), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        const found = document.querySelector(card);
        if (!found || found.querySelector(".ant-skeleton, .home__loading")) return;
        if (
          heading &&
          !Array.from(document.querySelectorAll("h1, h2")).some((h) => new RegExp(heading).test(h.textContent ?? ""))
        )
          return;
        observer.disconnect();
        requestAnimationFrame(() =>
          setTimeout(() => ((timing.path = location.pathname), (timing.ready = performance.now()))),
        );
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    }, ready);
    started = performance.now();
    counting = true;
    await page.getByRole("button", { name: "Sign in" }).click();
    // Polled through page.evaluate: waitForFunction evaluates with eval, which the portal's policy forbids.
    const { ms, path: endedOn } = await pollPage(
      page,
      () => {
        const t = (window as unknown as { __signInLoad: { click?: number; ready?: number; path?: string } })
          .__signInLoad;
        return t.click !== undefined && t.ready !== undefined ? { ms: t.ready - t.click, path: t.path! } : null;
      },
      { timeout: 60_000, interval: 50, what: `${path} to be ready after sign-in` },
    );
    const observedMs = performance.now() - started;
    counting = false;
    return {
      ms: Math.round(ms),
      observedMs: Math.round(observedMs),
      path: endedOn,
      timeline,
      requestsAfterClick: urls.length,
      bytesAfterClick: bytes,
      apiCallsAfterClick: urls
        .filter((u) => u.includes("/api/"))
        .map((u) => new URL(u).pathname.replace(/[0-9a-f-]{36}/g, "{id}")),
    };
  } finally {
    await context.close();
  }
}
