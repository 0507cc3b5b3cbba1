import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { waitForHttp } from "../../scripts/processes";
import { freePort } from "./freePort";
import { backendLogDir, teeBackendLog } from "./backendLogs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The real backend (`node --import tsx server/main.ts`) as a child process of a test. */
export interface BackendProcess {
  port: number;
  baseUrl: string;
  /** Its log (pino JSON), one line per entry, as written so far. */
  logs: string[];
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal to the process (and anything it started). */
  signal(name: NodeJS.Signals): void;
  alive(): boolean;
}

/**
 * Starts the backend in local mode (the running Auth emulator, demo data seeded), API only, on a
 * free port, and resolves once /api/health answers. `env` chooses the database: DATA_DIR for PGlite
 * on disk, DATABASE_URL for PostgreSQL.
 */
export async function startBackendProcess(env: Record<string, string>): Promise<BackendProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      APP_MODE: "local",
      PORT: String(port),
      STATIC_DIR: "none",
      LOG_LEVEL: "info",
      DATABASE_URL: "",
      SANDBOX_GATEWAY_PORT: String(await freePort()),
      PORTING_EXCHANGE_PORT: String(await freePort()),
      ...env,
    },
  });
  const logs: string[] = [];
  let partial = "";
  const collect = (chunk: Buffer) => {
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop() ?? "";
    logs.push(...lines);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  // In the e2e suite its log goes to the run's log folder too, read at the end for personal data.
  const logDir = backendLogDir();
  if (logDir) teeBackendLog(logDir, `backend-${port}`, child.stdout, child.stderr);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const baseUrl = `http://127.0.0.1:${port}`;
  const backend: BackendProcess = {
    port,
    baseUrl,
    logs,
    exited,
    alive,
    signal(name) {
      if (alive()) process.kill(-child.pid!, name);
    },
  };
  try {
    await waitForHttp(`${baseUrl}/api/health`, 120_000, alive);
  } catch (error) {
    backend.signal("SIGKILL");
    throw new Error(`${(error as Error).message}\n${logs.slice(-20).join("\n")}`);
  }
  return backend;
}
