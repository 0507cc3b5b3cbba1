// Sign-in → meters (issue 10, item 4): how long alex, on a phone over Fast 4G with 4x CPU slowdown,
// waits from pressing "Sign in" until his data meter is on screen, and how much it took over the wire.
// Builds the portal if stale, starts the real backend (demo data on PGlite in memory) and the Auth
// emulator if none answers, then measures five cold browser contexts and prints the medians.
// A benchmark reports: a missed target does not fail it; only a broken run does.
//
//   npm run bench:home-load          (RUNS=5)
import { loadavg } from "node:os";
import type { Browser } from "playwright-core";
import { launchChromium } from "../tests/support/browser";
import { CPU_SLOWDOWN, fillAlexSignIn, median, NETWORK, startDemoPortal } from "./demoPortal";

const RUNS = Number(process.env.RUNS ?? 5);
const TARGET_MS = 1000;

interface Run {
  run: number;
  /** When each request after the click was sent, ms after the click. */
  timeline: string[];
  /** Click → the first frame with the meter, timed in the page. */
  signInToMetersMs: number;
  /** The same as Playwright's wait from outside sees it (later, by its polling). */
  observedMs: number;
  requestsAfterClick: number;
  bytesAfterClick: number;
  apiCallsAfterClick: string[];
}

async function measureOnce(browser: Browser, baseUrl: string, run: number): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });

  // The sign-in page loads and settles first: the figure is what the person waits for after the click.
  await page.goto(`${baseUrl}/login`);
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
    timeline.push(`${Math.round(performance.now() - started)} ms ${e.request.method} ${url.host === new URL(baseUrl).host ? url.pathname : url.host + url.pathname.slice(0, 40)}`);
  });
  cdp.on("Network.loadingFinished", (e) => {
    if (counting) bytes += e.encodedDataLength;
  });

  // Timed in the page: from the click's own event time to the first frame after the meter entered
  // the DOM. Playwright's own wait, polled from outside a 4x-throttled page, sees it ~400 ms late.
  await page.evaluate(() => {
    const timing: { click?: number; meter?: number } = {};
    (window as unknown as { __homeLoad: typeof timing }).__homeLoad = timing;
    document.addEventListener("click", (event) => (timing.click ??= event.timeStamp), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="meter-data"]')) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (timing.meter = performance.now())));
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  started = performance.now();
  counting = true;
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("meter-data").first().waitFor({ timeout: 60_000 });
  const observedMs = performance.now() - started;
  const inPage = await page.waitForFunction(() => {
    const timing = (window as unknown as { __homeLoad: { click?: number; meter?: number } }).__homeLoad;
    return timing.click !== undefined && timing.meter !== undefined && timing.meter - timing.click;
  });
  const elapsed = (await inPage.jsonValue()) as number;
  counting = false;
  await context.close();
  return {
    run,
    timeline,
    signInToMetersMs: Math.round(elapsed),
    observedMs: Math.round(observedMs),
    requestsAfterClick: urls.length,
    bytesAfterClick: bytes,
    apiCallsAfterClick: urls.filter((u) => u.includes("/api/")).map((u) => new URL(u).pathname.replace(/[0-9a-f-]{36}/g, "{id}")),
  };
}

async function main(): Promise<void> {
  const portal = await startDemoPortal();
  const { baseUrl } = portal;
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    console.log(`Sign-in → meters for alex on ${baseUrl}: 360x740 phone, Fast 4G (9 Mbps, 60 ms), ${CPU_SLOWDOWN}x CPU slowdown, cold cache, ${RUNS} runs; load average ${loadavg()[0]!.toFixed(1)}`);
    const results: Run[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const result = await measureOnce(browser, baseUrl, run);
      results.push(result);
      console.log(`run ${run}: ${result.signInToMetersMs} ms (Playwright saw it at ${result.observedMs} ms), ${result.requestsAfterClick} requests, ${(result.bytesAfterClick / 1024).toFixed(1)} KB after the click`);
    }
    const ms = results.map((r) => r.signInToMetersMs);
    console.log(`\nmedian ${median(ms)} ms (min ${Math.min(...ms)}, max ${Math.max(...ms)}); target ${TARGET_MS} ms ${median(ms) <= TARGET_MS ? "met" : "NOT met"}`);
    console.log(`API calls after the click (run 1): ${results[0]!.apiCallsAfterClick.join(", ")}`);
    console.log(`Requests after the click, last run (ms after it):\n  ${results.at(-1)!.timeline.join("\n  ")}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await portal.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
