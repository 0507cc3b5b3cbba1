// The signed-in benchmarks' common ground (home-load.ts, lighthouse-home.ts, destinations.ts): the
// portal built if stale, served by the real backend with the demo data on PGlite in memory, the Auth
// emulator (started only if none answers), and the phone conditions issue 10 measures under. Either
// build: the default one, or the one with every operator switch set (tests/support/switchedPortal.ts).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { buildPortalIfStale } from "../scripts/build";
import { startProcess, stopProcess, waitForHttp } from "../scripts/processes";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { freePort } from "../tests/support/freePort";
import { CONSENT_KEY } from "../tests/support/portalPages";
import { startSwitchedPortal } from "../tests/support/switchedPortal";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Fast 4G as Lighthouse defines it (9 Mbps down, 1.5 Mbps up, 60 ms), on a mid-range phone (4x CPU slowdown). */
export const NETWORK = {
  offline: false,
  latency: 60,
  downloadThroughput: 9_000_000 / 8,
  uploadThroughput: 1_500_000 / 8,
};
export const CPU_SLOWDOWN = 4;
export const ALEX = { email: "alex@example.com", password: "Demo-2026!" };

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface DemoPortal {
  baseUrl: string;
  /** Which build it serves. */
  build: BenchBuild;
  /**
   * Prepares a browser context for this build before any page opens: in the all-switches build,
   * the visitor's consent choice (see BENCH_CONSENT). Nothing for the default build.
   */
  prepare(context: BrowserContext): Promise<void>;
  /** Stops the backend (and the third parties' stand-ins), and the Auth emulator if this call started it. */
  stop(): Promise<void>;
}

/**
 * `default`: dist/ as `npm start` builds it. `all-switches`: every operator switch set (consent
 * banner, CRM tracker and chat, tags, Remote Config...), as the operator's real build has them, its
 * third parties served by local stand-ins (tests/support/switchedPortal.ts). The light home is off
 * in that build (docs/decisions.md, "The light subscriber home").
 */
export type BenchBuild = "default" | "all-switches";
export const BENCH_BUILDS: readonly BenchBuild[] = ["default", "all-switches"];

/**
 * The all-switches build's visitor: one who said yes to everything on an earlier visit (CONSENT=decline
 * for one who said no, as the e2e suite's phones are). Yes is the heavier of the two for the portal's
 * own code: the tag manager, analytics and the CRM tracker are injected on every page (a no loads
 * none of them), and no banner covers the page either way. The stand-ins are a few hundred bytes, so
 * the real third parties' own weight is not in these figures.
 */
export const BENCH_CONSENT: "accept" | "decline" = process.env.CONSENT === "decline" ? "decline" : "accept";

/** Builds (if stale) and starts `build` with the demo data; resolves once /api/health answers. */
export async function startBenchPortal(build: BenchBuild): Promise<DemoPortal> {
  if (build === "default") return startDemoPortal();
  process.chdir(ROOT);
  const emulator = await ensureAuthEmulator();
  // Local mode seeds the demo data; its log at warn unless BACKEND_LOG_DIR asks for a file.
  const switched = await startSwitchedPortal("bench", { SEED_DEMO_DATA: "true" }).catch(async (error: unknown) => {
    await emulator.stop();
    throw error;
  });
  const yes = BENCH_CONSENT === "accept";
  return {
    baseUrl: switched.baseUrl,
    build,
    prepare: async (context) => {
      await context.addInitScript(
        ({ key, choice }) => {
          if (localStorage.getItem(key) === null) localStorage.setItem(key, JSON.stringify(choice));
        },
        { key: CONSENT_KEY, choice: { analytics: yes, chat: yes, decidedAt: "2026-01-01T00:00:00.000Z" } },
      );
    },
    stop: async () => {
      await switched.close();
      await emulator.stop();
    },
  };
}

/** Builds the portal if stale and starts the backend serving it with demo data; resolves once /api/health answers. */
export async function startDemoPortal(): Promise<DemoPortal> {
  process.chdir(ROOT);
  if (await buildPortalIfStale()) console.log("(portal was stale: rebuilt)");
  const emulator = await ensureAuthEmulator();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startProcess(process.execPath, ["--import", "tsx", "server/main.ts"], {
    APP_MODE: "local",
    SEED_DEMO_DATA: "true",
    DATA_DIR: "memory://",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
  });
  const stop = async () => {
    await stopProcess(server);
    await emulator.stop();
  };
  try {
    await waitForHttp(`${baseUrl}/api/health`, 120_000, () => server.exitCode === null && server.signalCode === null);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, build: "default", prepare: () => Promise.resolve(), stop };
}

/** Fills alex's sign-in form on /login (already open) without submitting it. */
export async function fillAlexSignIn(page: Page): Promise<void> {
  await page.getByLabel("Email").fill(ALEX.email);
  await page.getByLabel("Password", { exact: true }).fill(ALEX.password);
}
