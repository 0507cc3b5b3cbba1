// Sign-in → meters (issue 10, item 4): how long alex, on a phone over Fast 4G with 4x CPU slowdown,
// waits from pressing "Sign in" until his data meter is on screen, and how much it took over the wire.
// Builds the portal if stale, starts the real backend (demo data on PGlite in memory) and the Auth
// emulator if none answers, then measures five cold browser contexts and prints the medians. The
// measurement itself is bench/signInLoad.ts (shared with bench/destinations.ts).
// A benchmark reports: a missed target does not fail it; only a broken run does.
//
//   npm run bench:home-load          (RUNS=5)
import { loadavg } from "node:os";
import type { Browser } from "playwright-core";
import { launchChromium } from "../tests/support/browser";
import { CPU_SLOWDOWN, median, startDemoPortal } from "./demoPortal";
import { measureSignIn, type SignInRun } from "./signInLoad";

const RUNS = Number(process.env.RUNS ?? 5);
const TARGET_MS = 1000;

async function main(): Promise<void> {
  const portal = await startDemoPortal();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    console.log(
      `Sign-in → meters for alex on ${portal.baseUrl}: 360x740 phone, Fast 4G (9 Mbps, 60 ms), ${CPU_SLOWDOWN}x CPU slowdown, cold cache, ${RUNS} runs; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const results: SignInRun[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const result = await measureSignIn(browser, portal, "/", { card: '[data-testid="meter-data"]' });
      results.push(result);
      console.log(
        `run ${run}: ${result.ms} ms (Playwright saw it at ${result.observedMs} ms), ${result.requestsAfterClick} requests, ${(result.bytesAfterClick / 1024).toFixed(1)} KB after the click`,
      );
    }
    const ms = results.map((r) => r.ms);
    console.log(
      `\nmedian ${median(ms)} ms (min ${Math.min(...ms)}, max ${Math.max(...ms)}); target ${TARGET_MS} ms ${median(ms) <= TARGET_MS ? "met" : "NOT met"}`,
    );
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
