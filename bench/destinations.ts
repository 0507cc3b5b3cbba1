// Every subscriber destination measured (issue 23, item 7): for each build (the default one, and the
// one with every operator switch set, where the light home is off) and each of the five destinations
// (src/components/layout/destinations.ts), as alex on a phone:
//
// - Lighthouse's mobile performance score on the signed-in destination, cold HTTP cache (target ≥ 90;
//   bench/lighthouseSignedIn.ts);
// - sign-in → the destination ready: from pressing "Sign in" on /login?to=<destination> until its h1
//   and its first card of real data (no skeleton) are on screen, Fast 4G + 4x CPU, cold cache (target
//   ≤ 1.0 s; bench/signInLoad.ts). The sign-in page has loaded and settled before the click, as in
//   home-load.ts. Signing in where the link pointed is how a person reaches a destination from a
//   notification, a bookmark or a reload; tapping a tab after the home would time the home plus a tap.
//
// Medians of RUNS (default 3); each line also gives the load average, since the machine is shared.
// A benchmark reports: a missed target does not fail it; only a broken run does.
//
//   npm run bench:destinations                       (RUNS=3)
//   RUNS=1 BUILDS=default DESTINATIONS=/usage,/money ONLY=signin npm run bench:destinations
//   CONSENT=decline npm run bench:destinations       (the all-switches visitor said no; see demoPortal.ts)
//   DETAILS=1 ...                                    (biggest scripts, requests after the click)
//   LIGHTHOUSE_REPORTS=/tmp/lhr ...                  (each Lighthouse run's whole report, as JSON)
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "../tests/support/browser";
import {
  BENCH_BUILDS,
  BENCH_CONSENT,
  CPU_SLOWDOWN,
  median,
  ROOT,
  startBenchPortal,
  type BenchBuild,
} from "./demoPortal";
import { biggestScripts, LIGHTHOUSE_VERSION, signedInLighthouse, type LighthouseRun } from "./lighthouseSignedIn";
import { measureSignIn, type ReadyCheck, type SignInRun } from "./signInLoad";

const RUNS = Number(process.env.RUNS ?? 3);
const TARGET_SCORE = 90;
const TARGET_MS = 1000;
const DETAILS = process.env.DETAILS === "1";
const ONLY = process.env.ONLY as "lighthouse" | "signin" | undefined;

interface Destination {
  path: string;
  ready: ReadyCheck;
  /** A request Lighthouse's run must have made, proof it measured the signed-in page. */
  expectRequest?: string;
}

/** The five destinations and what "ready" is on each: its h1 and its first card of data. */
const DESTINATIONS: readonly Destination[] = [
  // The light home (default build, phone) or the portal's DashboardPage: the greeting and a line's data meter.
  { path: "/", ready: { heading: "^Hello", card: '[data-testid="meter-data"]' }, expectRequest: "/api/v1/home" },
  // Each line's allowances: the first line's card with its data meter.
  {
    path: "/usage",
    ready: { heading: "^Usage$", card: '.sub-card [data-testid="meter-data"]' },
    expectRequest: "/api/v1/home",
  },
  // The first account's card (alex's prepaid: balance and latest movements, loaded).
  { path: "/money", ready: { heading: "^Money$", card: ".sub-page .sub-card" }, expectRequest: "/api/v1/home" },
  // The first line's plans.
  { path: "/shop", ready: { heading: "^Shop$", card: '[data-testid="plan-card"]' }, expectRequest: "/api/v1/home" },
  // Who is signed in.
  { path: "/account", ready: { heading: "^Account$", card: ".sub-page .sub-card" } },
];

interface Row {
  build: BenchBuild;
  path: string;
  lighthouse: LighthouseRun[];
  signIn: SignInRun[];
  load: number[];
}

const selected = <T>(list: readonly T[], names: string | undefined, name: (item: T) => string) =>
  names ? list.filter((item) => names.split(",").includes(name(item))) : [...list];
const verdict = (met: boolean) => (met ? "met" : "NOT met");

async function measureBuild(build: BenchBuild, destinations: readonly Destination[]): Promise<Row[]> {
  const portal = await startBenchPortal(build);
  const rows: Row[] = destinations.map((d) => ({ build, path: d.path, lighthouse: [], signIn: [], load: [] }));
  let browser: Browser | undefined;
  try {
    console.log(
      `\n== ${build} build on ${portal.baseUrl}${build === "all-switches" ? ` (a visitor who chose to ${BENCH_CONSENT} every consent category)` : ""}; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    // Runs go round the destinations, so the machine's load drifts over all of them alike.
    if (ONLY !== "signin") {
      const lighthouse = await signedInLighthouse(portal);
      try {
        for (let i = 1; i <= RUNS; i++)
          for (const [n, d] of destinations.entries()) {
            const run = await lighthouse.run(d.path, d.expectRequest);
            rows[n]!.lighthouse.push(run);
            rows[n]!.load.push(loadavg()[0]!);
            console.log(
              `lighthouse ${build} ${d.path} run ${i}: score ${run.score}, TBT ${run.tbtMs} ms, LCP ${run.lcpMs} ms, FCP ${run.fcpMs} ms; load average ${loadavg()[0]!.toFixed(1)}`,
            );
          }
      } finally {
        await lighthouse.close();
      }
    }
    if (ONLY !== "lighthouse") {
      browser = await launchChromium();
      for (let i = 1; i <= RUNS; i++)
        for (const [n, d] of destinations.entries()) {
          const run = await measureSignIn(browser, portal, d.path, d.ready);
          if (run.path !== d.path) throw new Error(`sign-in towards ${d.path} ended on ${run.path}`);
          rows[n]!.signIn.push(run);
          rows[n]!.load.push(loadavg()[0]!);
          console.log(
            `sign-in ${build} ${d.path} run ${i}: ${run.ms} ms (Playwright saw it at ${run.observedMs} ms), ${run.requestsAfterClick} requests, ${(run.bytesAfterClick / 1024).toFixed(1)} KB after the click; load average ${loadavg()[0]!.toFixed(1)}`,
          );
        }
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await portal.stop();
  }
  if (DETAILS)
    for (const row of rows) {
      const lh = row.lighthouse.at(-1);
      if (lh)
        console.log(
          `\n${build} ${row.path}: biggest scripts in Lighthouse's last run (transfer KB, boot-up ms):\n${biggestScripts(lh).join("\n")}`,
        );
      const si = row.signIn.at(-1);
      if (si)
        console.log(
          `\n${build} ${row.path}: API calls after the click: ${si.apiCallsAfterClick.join(", ")}\nrequests after the click (ms after it):\n  ${si.timeline.join("\n  ")}`,
        );
    }
  return rows;
}

function summaryLine(row: Row): string {
  const parts = [`destinations: ${row.build.padEnd(12)} ${row.path.padEnd(8)}`];
  if (row.lighthouse.length) {
    const score = median(row.lighthouse.map((r) => r.score));
    const scores = row.lighthouse.map((r) => r.score);
    parts.push(
      `lighthouse=${score} (${Math.min(...scores)}–${Math.max(...scores)}, LCP ${median(row.lighthouse.map((r) => r.lcpMs))} ms, TBT ${median(row.lighthouse.map((r) => r.tbtMs))} ms; target ≥ ${TARGET_SCORE} ${verdict(score >= TARGET_SCORE)})`,
    );
  }
  if (row.signIn.length) {
    const ms = median(row.signIn.map((r) => r.ms));
    const all = row.signIn.map((r) => r.ms);
    parts.push(
      `sign_in_to_ready_ms=${ms} (${Math.min(...all)}–${Math.max(...all)}; target ≤ ${TARGET_MS} ${verdict(ms <= TARGET_MS)})`,
    );
  }
  parts.push(`load ${Math.min(...row.load).toFixed(1)}–${Math.max(...row.load).toFixed(1)}`);
  return parts.join("  ");
}

async function main(): Promise<void> {
  const builds = selected(BENCH_BUILDS, process.env.BUILDS, (b) => b);
  const destinations = selected(DESTINATIONS, process.env.DESTINATIONS, (d) => d.path);
  if (!builds.length || !destinations.length)
    throw new Error(
      `nothing to measure: BUILDS=${process.env.BUILDS ?? ""} DESTINATIONS=${process.env.DESTINATIONS ?? ""}`,
    );
  console.log(
    `Every destination as signed-in alex: Lighthouse ${LIGHTHOUSE_VERSION} mobile preset (simulated Slow 4G, 4x CPU), cold HTTP cache; sign-in → ready at 360x740, Fast 4G (9 Mbps, 60 ms), ${CPU_SLOWDOWN}x CPU, cold cache. ${RUNS} runs each; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  const rows: Row[] = [];
  for (const build of builds) rows.push(...(await measureBuild(build, destinations)));
  console.log("");
  for (const row of rows) console.log(summaryLine(row));
  const dir = join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "destinations.json"),
    JSON.stringify(
      {
        measured_at: new Date().toISOString(),
        runs: RUNS,
        consent: BENCH_CONSENT,
        targets: { lighthouse_score: TARGET_SCORE, sign_in_to_ready_ms: TARGET_MS },
        rows: rows.map((r) => ({
          build: r.build,
          path: r.path,
          lighthouse_score: r.lighthouse.length ? median(r.lighthouse.map((x) => x.score)) : null,
          lighthouse_runs: r.lighthouse.map(({ score, tbtMs, lcpMs, fcpMs }) => ({ score, tbtMs, lcpMs, fcpMs })),
          sign_in_to_ready_ms: r.signIn.length ? median(r.signIn.map((x) => x.ms)) : null,
          sign_in_runs: r.signIn.map(({ ms, observedMs, requestsAfterClick, bytesAfterClick, apiCallsAfterClick }) => ({
            ms,
            observedMs,
            requestsAfterClick,
            bytesAfterClick,
            apiCallsAfterClick,
          })),
          load_average: r.load,
        })),
      },
      null,
      2,
    ) + "\n",
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
