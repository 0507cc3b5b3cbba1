import { spawn } from "node:child_process";
import { startProcess, stopProcess, waitForHttp } from "../../scripts/processes";
import { freePort } from "./freePort";
import { backendLogDir, teeBackendLog } from "./backendLogs";
import { startThirdPartyPeer, type ThirdPartyPeer } from "./thirdPartyPeer";
import { startBitrixPeer, type BitrixPeer } from "./bitrixPeer";

/** The portal built with every operator switch set, its third parties faked on this machine, served by a backend of its own. */
export interface SwitchedPortal {
  baseUrl: string;
  /** The folder its backend serves the build from. */
  staticDir: string;
  /** Tag manager and analytics (gtm.js, gtag.js), at http://localhost:port. */
  tags: ThirdPartyPeer;
  /** The CRM's tracker and chat widget, at http://127.0.0.1:port. */
  crm: ThirdPartyPeer;
  /** Bitrix24's inbound webhook: the backend's BITRIX_INTEGRATION_REQUIRED is on and sends its leads here. */
  bitrix: BitrixPeer;
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Where a switched portal is built. Each build bakes in its own peers' random ports, so two switched
 * portals alive at once (the whole suite's under E2E_BUILD=all-switches, and switches.test.ts's own)
 * need two folders: rebuilding one under the other's backend would swap its chunks mid-run.
 */
const switchedBuildDir = (name: string) => `.test-data/dist-all-switches-${name}`;

/** Every build-time switch set; the third parties' URLs point at the local peers. */
export function allSwitchesEnv(tagsOrigin: string, crmOrigin: string): Record<string, string> {
  return {
    VITE_TAG_MANAGER_ID: "GTM-TEST01",
    VITE_ANALYTICS_IDS: "G-TEST01,G-TEST02",
    VITE_TAG_SCRIPT_ORIGIN: tagsOrigin,
    VITE_CRM_TRACKER_URL: `${crmOrigin}/crm/tracker.js`,
    VITE_CRM_CHAT_SCRIPT_URL: `${crmOrigin}/crm/chat.js`,
    VITE_CHAT_ACCESS_KEY: "site-key-42",
    VITE_MAPS_PLACES_KEY: "AIzaTestMapsKey_0001",
    VITE_TOPUP_PAYMENT_SETTING: "card",
    VITE_BITRIX_INTEGRATION_REQUIRED: "true",
    // A Firebase app id turns Remote Config's background fetch on; offline here, so its defaults must hold.
    VITE_FIREBASE_APP_ID: "1:1234567890:web:0a1b2c3d4e5f",
  };
}

/** Builds the portal into `outDir` with `env` in a child process (the build reads VITE_* from its environment); skipped when up to date. */
export function buildPortalWith(outDir: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/build.ts", "--if-stale"], {
      stdio: "inherit",
      env: { ...process.env, ...env, PORTAL_OUT_DIR: outDir },
    });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`The build with every switch set failed (exit ${code}).`)),
    );
  });
}

/**
 * Starts the peers, builds (if stale) into a folder of `name`'s own and starts a backend serving that
 * build; the Auth emulator must be running.
 */
export async function startSwitchedPortal(
  name: string,
  backendEnv: Record<string, string> = {},
  logDir = backendLogDir(),
): Promise<SwitchedPortal> {
  const outDir = switchedBuildDir(name);
  const tags = await startThirdPartyPeer("localhost", await freePort());
  const crm = await startThirdPartyPeer("127.0.0.1", await freePort());
  const env = allSwitchesEnv(tags.origin, crm.origin);
  await buildPortalWith(outDir, env);
  const bitrix = await startBitrixPeer();
  const port = await freePort();
  const server = startProcess(
    process.execPath,
    ["--import", "tsx", "server/main.ts"],
    {
      APP_MODE: "local",
      PORT: String(port),
      DATA_DIR: "memory://",
      // With a log folder (e2e), every request is logged there and read for personal data.
      LOG_LEVEL: logDir ? "info" : "warn",
      STATIC_DIR: outDir,
      // The backend's switches too: leads go to the local Bitrix24 stand-in, and this build's version
      // is the minimum the backend serves (an older one would get 426).
      BITRIX_INTEGRATION_REQUIRED: "true",
      BITRIX_WEBHOOK_URL: bitrix.webhookUrl,
      MIN_APP_VERSION: "3.2.1",
      ...backendEnv,
    },
    logDir ? "pipe" : "inherit",
  );
  if (logDir) teeBackendLog(logDir, `switched-${name}`, server.stdout, server.stderr);
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stopProcess(server);
    await tags.close();
    await crm.close();
    await bitrix.close();
  };
  try {
    await waitForHttp(`${baseUrl}/api/health`, 120_000, () => server.exitCode === null);
  } catch (error) {
    await close();
    throw error;
  }
  return { baseUrl, staticDir: outDir, tags, crm, bitrix, env, close };
}
