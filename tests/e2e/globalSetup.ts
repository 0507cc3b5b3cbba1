import type { TestProject } from "vitest/node";
import { buildPortalIfStale } from "../../scripts/build";
import { startProcess, stopProcess, waitForHttp } from "../../scripts/processes";
import { ensureAuthEmulator } from "../support/authEmulator";
import { E2E_BACKEND_LOG_DIR, resetBackendLogs, teeBackendLog } from "../support/backendLogs";
import { freePort } from "../support/freePort";
import { startSwitchedPortal } from "../support/switchedPortal";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The built portal the suite's backend serves (e2e files that start a backend of their own serve it too). */
    staticDir: string;
  }
}

/**
 * The whole stack as `npm start` runs it: the built portal served by the real backend (local mode,
 * in-memory PGlite seeded with the demo data) and the real Auth emulator.
 */
export default async function setup(project: TestProject) {
  // E2E_BUILD=all-switches: the whole suite against the build with every operator switch set, its
  // third parties faked locally (tests/support/switchedPortal.ts); the issue asks both builds to pass.
  if (process.env.E2E_BUILD === "all-switches") {
    const emulator = await ensureAuthEmulator();
    resetBackendLogs();
    const switched = await startSwitchedPortal("suite", {}, E2E_BACKEND_LOG_DIR);
    project.provide("baseUrl", switched.baseUrl);
    project.provide("staticDir", switched.staticDir);
    return async () => {
      await switched.close();
      await emulator.stop();
    };
  }
  await buildPortalIfStale();
  const emulator = await ensureAuthEmulator();
  const port = await freePort();
  // Its log goes to a file at info level, requests and all: the run's last file reads it for personal data.
  resetBackendLogs();
  const server = startProcess(
    process.execPath,
    ["--import", "tsx", "server/main.ts"],
    {
      APP_MODE: "local",
      PORT: String(port),
      DATA_DIR: "memory://",
      LOG_LEVEL: "info",
    },
    "pipe",
  );
  teeBackendLog(E2E_BACKEND_LOG_DIR, "suite", server.stdout, server.stderr);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${baseUrl}/api/health`, 120_000, () => server.exitCode === null);
  } catch (error) {
    await stopProcess(server);
    await emulator.stop();
    throw error;
  }
  project.provide("baseUrl", baseUrl);
  project.provide("staticDir", "dist");
  return async () => {
    await stopProcess(server);
    await emulator.stop();
  };
}
