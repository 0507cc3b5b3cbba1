// The signed-in benchmarks' common ground (home-load.ts, lighthouse-home.ts): the portal built if
// stale, served by the real backend with the demo data on PGlite in memory, the Auth emulator
// (started only if none answers), and the phone conditions issue 10 measures under.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { buildPortalIfStale } from "../scripts/build";
import { startProcess, stopProcess, waitForHttp } from "../scripts/processes";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { freePort } from "../tests/support/freePort";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Fast 4G as Lighthouse defines it (9 Mbps down, 1.5 Mbps up, 60 ms), on a mid-range phone (4x CPU slowdown). */
export const NETWORK = { offline: false, latency: 60, downloadThroughput: 9_000_000 / 8, uploadThroughput: 1_500_000 / 8 };
export const CPU_SLOWDOWN = 4;
export const ALEX = { email: "alex@example.com", password: "Demo-2026!" };

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface DemoPortal {
  baseUrl: string;
  /** Stops the backend, and the Auth emulator if this call started it. */
  stop(): Promise<void>;
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
  return { baseUrl, stop };
}

/** Fills alex's sign-in form on /login (already open) without submitting it. */
export async function fillAlexSignIn(page: Page): Promise<void> {
  await page.getByLabel("Email").fill(ALEX.email);
  await page.getByLabel("Password", { exact: true }).fill(ALEX.password);
}
