import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/client";
import { operators } from "../../server/db/schema";
import { startBackendProcess, type BackendProcess } from "./backendProcess";
import { freePort } from "./freePort";

export interface SandboxBackend {
  backend: BackendProcess;
  /** The sandbox card gateway's own address (POST /v1/late-charges/release sends held captures now). */
  gatewayUrl: string;
  stop(): Promise<void>;
}

/**
 * A backend of its own (`server/main.ts`, as `npm start` runs it) whose operator's top-up payment
 * setting is "sandbox", so it starts the sandbox card gateway on a port of its own. The first start
 * seeds the demo data into a fresh folder; the setting is then changed and the backend starts again.
 */
export async function startSandboxBackend(
  staticDir: string,
  name: string,
  extraEnv: Record<string, string> = {},
): Promise<SandboxBackend> {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const gatewayPort = await freePort();
  const env = {
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    LOG_LEVEL: "info",
    SANDBOX_GATEWAY_PORT: String(gatewayPort),
    ...extraEnv,
  };
  const first = await startBackendProcess(env);
  first.signal("SIGTERM");
  await first.exited;
  const database = await openDatabase({ dataDir });
  await database.db
    .update(operators)
    .set({ settings: sql`${operators.settings} || '{"topUpPayment":"sandbox"}'::jsonb` })
    .where(eq(operators.code, "ATT"));
  await database.close();
  const backend = await startBackendProcess(env);
  return {
    backend,
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    async stop() {
      backend.signal("SIGTERM");
      await backend.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
