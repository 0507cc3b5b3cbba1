// `npm start`: builds the portal when its sources changed, starts the Firebase Auth emulator
// (users kept in .data/auth between runs) and the backend serving portal + API on :8080, with
// PGlite under .data/ seeded on first start. Ctrl-C stops everything it started.
import { mkdirSync } from "node:fs";
import { DEMO_PASSWORD, demoUsers } from "../server/db/seed/demoData";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { buildPortalIfStale } from "./build";
import { startProcess, stopProcess, waitForHttp } from "./processes";

const port = process.env.PORT ?? "8080";
const url = `http://127.0.0.1:${port}`;

async function main() {
  const t0 = Date.now();
  if (await buildPortalIfStale()) console.log(`Built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  else console.log("Portal build is up to date");

  mkdirSync(".data", { recursive: true });
  const emulator = await ensureAuthEmulator({ importDir: ".data/auth", exportDir: ".data/auth" });
  const server = startProcess(process.execPath, ["--import", "tsx", "server/main.ts"], {
    PORT: port,
    APP_MODE: "local",
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping the backend and the Auth emulator…");
    await stopProcess(server);
    await emulator.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  server.on("exit", (code) => !stopping && void stop(code ?? 1));

  await waitForHttp(`${url}/api/health`, 120_000, () => server.exitCode === null);
  // The backend starts the sandbox card gateway on its own port when the operator's top-up payment setting is "sandbox".
  const sandboxUrl = `http://127.0.0.1:${process.env.SANDBOX_GATEWAY_PORT ?? "8090"}`;
  const sandboxRuns = await fetch(`${sandboxUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
    (res) => res.ok,
    () => false,
  );
  // …and the number portability exchange's stand-in, unless PORTING_EXCHANGE_URL names a real one.
  const exchangeUrl = `http://127.0.0.1:${process.env.PORTING_EXCHANGE_PORT ?? "8091"}`;
  const exchangeRuns =
    !process.env.PORTING_EXCHANGE_URL &&
    (await fetch(`${exchangeUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    ));
  console.log(`
Portal ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${url}
Demo sign-ins (password ${DEMO_PASSWORD}):
${demoUsers.map((u) => `  ${u.role.padEnd(10)} ${u.email}`).join("\n")}
API: ${url}/api/v1 · OpenAPI: ${url}/api/openapi.json · Ctrl-C stops everything.${
    sandboxRuns
      ? `\nSandbox card gateway: ${sandboxUrl} (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 0119 times out)`
      : ""
  }${
    exchangeRuns
      ? `\nNumber portability exchange (stand-in): ${exchangeUrl} (transfer PIN 0000 or ZIP 00000 is rejected; +1 202 555 0188 ports with account 55501, PIN 2468, ZIP 20001)`
      : ""
  }`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
