// Lighthouse (mobile preset, performance only) on a page as signed-in alex sees it: what
// lighthouse-home.ts (the home) and destinations.ts (each destination) share. Lighthouse cannot
// type, so Playwright signs alex in first, in a Chromium that also listens on a DevTools port;
// Lighthouse then drives the same browser through that port with `disableStorageReset` so the
// Firebase session (IndexedDB) survives. The HTTP cache is cleared before every run: each one is a
// returning visitor's cold load, not a warm one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/support/browser";
import { freePort } from "../tests/support/freePort";
import { fillAlexSignIn, ROOT, type DemoPortal } from "./demoPortal";

export const LIGHTHOUSE_VERSION = (
  JSON.parse(readFileSync(join(ROOT, "node_modules/lighthouse/package.json"), "utf8")) as { version: string }
).version;

export interface LighthouseRun {
  score: number;
  tbtMs: number;
  lcpMs: number;
  fcpMs: number;
  finalUrl: string;
  /** Same-origin paths requested (API calls included). */
  paths: string[];
  scripts: { url: string; transferKb: number; bootupMs: number }[];
}

type Audit = { numericValue?: number; details?: { items?: Record<string, unknown>[] } };

function summarise(lhr: {
  categories: { performance: { score: number | null } };
  audits: Record<string, Audit>;
  finalDisplayedUrl: string;
}): LighthouseRun {
  const requests = (lhr.audits["network-requests"]?.details?.items ?? []) as {
    url: string;
    resourceType?: string;
    transferSize?: number;
  }[];
  const bootup = new Map(
    ((lhr.audits["bootup-time"]?.details?.items ?? []) as { url: string; total: number }[]).map((i) => [
      i.url,
      i.total,
    ]),
  );
  const scripts = requests
    .filter((r) => r.resourceType === "Script")
    .map((r) => ({
      url: new URL(r.url).pathname,
      transferKb: (r.transferSize ?? 0) / 1024,
      bootupMs: bootup.get(r.url) ?? 0,
    }))
    .sort((a, b) => b.transferKb - a.transferKb);
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    tbtMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? NaN),
    lcpMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN),
    fcpMs: Math.round(lhr.audits["first-contentful-paint"]?.numericValue ?? NaN),
    finalUrl: lhr.finalDisplayedUrl,
    paths: requests.filter((r) => new URL(r.url).origin === origin).map((r) => new URL(r.url).pathname),
    scripts,
  };
}

export interface SignedInLighthouse {
  /**
   * One cold run on `path`. It fails unless it ended on `path` and requested `expectRequest` when
   * given: measuring the sign-in page by mistake would look great and mean nothing.
   */
  run(path: string, expectRequest?: string): Promise<LighthouseRun>;
  close(): Promise<void>;
}

/** A Chromium with a DevTools port in which alex has signed in on `portal`, ready for Lighthouse runs. */
export async function signedInLighthouse(portal: DemoPortal): Promise<SignedInLighthouse> {
  const profile = mkdtempSync(join(tmpdir(), "lighthouse-signed-in-"));
  const port = await freePort();
  // A persistent context is the browser's default one, the same Lighthouse opens its tab in.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  const close = async () => {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    // The build's visitor (a consent choice) goes into the profile's storage with the sign-in.
    await portal.prepare(context);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${portal.baseUrl}/login`);
    await fillAlexSignIn(page);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: /Hello/ }).first().waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    await page.goto("about:blank");
    return {
      async run(path, expectRequest) {
        await cdp.send("Network.clearBrowserCache");
        const result = await lighthouse(`${portal.baseUrl}${path}`, {
          port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance"],
          disableStorageReset: true,
        });
        if (!result) throw new Error("Lighthouse returned no result");
        // LIGHTHOUSE_REPORTS=<dir> keeps each run's whole report (long tasks, request chains, the LCP element).
        const reports = process.env.LIGHTHOUSE_REPORTS;
        if (reports) {
          mkdirSync(reports, { recursive: true });
          const name = `${path.replace(/\W+/g, "-").replace(/^-|-$/g, "") || "home"}-${Date.now()}.json`;
          writeFileSync(join(reports, name), JSON.stringify(result.lhr));
        }
        const run = summarise(result.lhr as never);
        const requested = !expectRequest || run.paths.includes(expectRequest);
        if (new URL(run.finalUrl).pathname !== path || !requested) {
          throw new Error(
            `Lighthouse did not load the signed-in ${path} (ended on ${run.finalUrl}${expectRequest ? `, ${expectRequest} ${requested ? "" : "not "}requested` : ""})`,
          );
        }
        return run;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The ten biggest scripts of a run (transfer KB as served, Lighthouse's boot-up ms), and the total. */
export function biggestScripts(run: LighthouseRun, count = 10): string[] {
  const lines = run.scripts
    .slice(0, count)
    .map(
      (s) => `  ${s.transferKb.toFixed(1).padStart(7)} KB ${String(Math.round(s.bootupMs)).padStart(6)} ms  ${s.url}`,
    );
  const totalKb = run.scripts.reduce((sum, s) => sum + s.transferKb, 0);
  const bootMs = run.scripts.reduce((sum, s) => sum + s.bootupMs, 0);
  return [
    ...lines,
    `  ${totalKb.toFixed(1).padStart(7)} KB ${String(Math.round(bootMs)).padStart(6)} ms  in ${run.scripts.length} scripts`,
  ];
}
