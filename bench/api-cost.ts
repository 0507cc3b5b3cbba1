// The API's own cost: the portal's GET /api/v1/lines/{id} against a bare Fastify handler running the
// same SQL after the same token check (on PostgreSQL as a named prepared statement on the same pool,
// as the portal's reads are), side by side in one run, 50 keep-alive connections, on PGlite and (when
// a server answers) on PostgreSQL. Prints req/s of both and the ratio (target ≥ 80 %); never fails on
// the figures. See bench/README.md.
//
//   npm run bench:api-cost                       (ROUNDS=5 DURATION_MS=3000 CONNECTIONS=50)
//   PROFILE=1 ONLY=pglite npm run bench:api-cost (CPU profiles of the servers in bench/results/profiles)
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { createThrowawayPostgresDatabase, postgresAnswers, TEST_DATABASE_URL } from "../tests/support/testDatabase";
import { runLoad, type LoadResult } from "./apiCost/loadLoop";
import type { ServersReady } from "./apiCost/servers";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DURATION_MS = Number(process.env.DURATION_MS ?? 3_000);
const WARMUP_MS = 2_000;
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const PROFILE = process.env.PROFILE === "1";
const ONLY = process.env.ONLY;
/** With PROFILE=1, which server takes load (portal by default), so its profile shows only its own work. */
const PROFILED = process.env.PROFILE_TARGET ?? "portal";
const TARGET = 0.8;
const serversFile = fileURLToPath(new URL("./apiCost/servers.ts", import.meta.url));

function startServers(databaseUrl: string | undefined): Promise<{ child: ChildProcess; ready: ServersReady }> {
  const execArgv = ["--import", "tsx", ...(PROFILE ? ["--cpu-prof", "--cpu-prof-dir=bench/results/profiles"] : [])];
  // The portal logs every request as it does in production; its lines go nowhere (not to this terminal).
  const child = fork(serversFile, [], {
    execArgv,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, ...(databaseUrl ? { BENCH_DATABASE_URL: databaseUrl } : {}) },
  });
  return new Promise((resolve, reject) => {
    child.once("message", (ready) => resolve({ child, ready: ready as ServersReady }));
    child.once("exit", (code) => reject(new Error(`the bench servers exited (${code}) before they were ready`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.send("stop");
  });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(driver: "pglite" | "postgres") {
  const throwaway = driver === "postgres" ? await createThrowawayPostgresDatabase() : undefined;
  const { child, ready } = await startServers(throwaway?.url);
  try {
    const path = `/api/v1/lines/${ready.lineId}`;
    const headers = { authorization: `Bearer ${ready.token}`, "x-operator": "ATT", "x-app-version": "3.2.1" };
    const targets = { portal: ready.portalPort, bare: ready.barePort };
    // Both answer the subscriber's own line, or the comparison means nothing.
    for (const [name, port] of Object.entries(targets)) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
      const body = await res.text();
      if (res.status !== 200 || !body.includes(ready.lineId))
        throw new Error(`${name} answered ${res.status} ${body.slice(0, 200)}`);
    }
    const cpuOf = () =>
      new Promise<number>((resolve) => {
        child.once("message", (reply) => {
          const { user, system } = (reply as { cpu: NodeJS.CpuUsage }).cpu;
          resolve(user + system);
        });
        child.send("cpu");
      });
    const load = async (
      port: number,
      durationMs: number,
      target = path,
    ): Promise<LoadResult & { cpuUsPerRequest: number }> => {
      const before = await cpuOf();
      const result = await runLoad({ port, path: target, headers, connections: CONNECTIONS, durationMs });
      return { ...result, cpuUsPerRequest: Math.round(((await cpuOf()) - before) / result.requests) };
    };
    if (!PROFILE || PROFILED === "portal") await load(targets.portal, WARMUP_MS);
    if (!PROFILE || PROFILED === "bare") await load(targets.bare, WARMUP_MS);

    const runs: Record<"portal" | "bare", (LoadResult & { cpuUsPerRequest: number })[]> = { portal: [], bare: [] };
    // Alternating which goes first, so load from elsewhere on the machine drifting during a round
    // weighs on both alike; the ratio is the median of the rounds' ratios.
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (["portal", "bare"] as const) : (["bare", "portal"] as const);
      for (const name of order)
        if (!PROFILE || PROFILED === name) runs[name].push(await load(targets[name], DURATION_MS));
    }
    if (PROFILE)
      return {
        driver,
        portal: median(runs.portal.map((r) => r.reqPerSec).concat(0)),
        bare: median(runs.bare.map((r) => r.reqPerSec).concat(0)),
        ratio: 0,
        cpu: { portal: 0, bare: 0 },
        health: 0,
        failures: 0,
        runs,
      };
    const health = await load(targets.portal, DURATION_MS, "/api/health");
    const portal = median(runs.portal.map((r) => r.reqPerSec));
    const bare = median(runs.bare.map((r) => r.reqPerSec));
    const failures = [...runs.portal, ...runs.bare].reduce((sum, r) => sum + r.failures, 0);
    const ratio = median(runs.portal.map((r, i) => r.reqPerSec / runs.bare[i]!.reqPerSec));
    // The server's CPU per answer does not depend on how busy the machine is (req/s does).
    const cpu = {
      portal: median(runs.portal.map((r) => r.cpuUsPerRequest)),
      bare: median(runs.bare.map((r) => r.cpuUsPerRequest)),
    };
    return { driver, portal, bare, ratio, cpu, health: health.reqPerSec, failures, runs };
  } finally {
    await stop(child);
    await throwaway?.drop();
  }
}

async function main() {
  const emulator = await ensureAuthEmulator();
  const drivers: ("pglite" | "postgres")[] = ["pglite"];
  if (await postgresAnswers()) drivers.push("postgres");
  else console.log(`PostgreSQL: skipped, no server answers at ${TEST_DATABASE_URL}`);
  const results = [];
  try {
    for (const driver of drivers.filter((d) => !ONLY || d === ONLY)) {
      const result = await measure(driver);
      results.push(result);
      const rounds = (list: (LoadResult & { cpuUsPerRequest: number })[]) =>
        list
          .map((r) => `${r.reqPerSec} (p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, ${r.cpuUsPerRequest} µs CPU)`)
          .join(", ");
      console.log(`${driver}: portal GET /api/v1/lines/{id}: ${rounds(result.runs.portal)}`);
      console.log(`${driver}: bare handler, same SQL and token check: ${rounds(result.runs.bare)}`);
    }
  } finally {
    await emulator.stop();
  }
  console.log(
    `\n${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_MS / 1000} s each, medians in req/s; ratio: median of the rounds' ratios`,
  );
  console.log(
    "| database | portal req/s | bare req/s | ratio | server CPU per answer, portal / bare | GET /api/health req/s | failed answers |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of results)
    console.log(
      `| ${r.driver} | ${r.portal} | ${r.bare} | ${(r.ratio * 100).toFixed(0)} % | ${r.cpu.portal} / ${r.cpu.bare} µs | ${r.health} | ${r.failures} |`,
    );
  for (const r of results)
    console.log(
      `api-cost: ${r.driver} portal=${r.portal} bare=${r.bare} ratio=${(r.ratio * 100).toFixed(0)}% cpu_us=${r.cpu.portal}/${r.cpu.bare} target=${TARGET * 100}% ${r.ratio >= TARGET ? "met" : "missed"}`,
    );
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(
    "bench/results/api-cost.json",
    JSON.stringify(
      { at: new Date().toISOString(), connections: CONNECTIONS, rounds: ROUNDS, durationMs: DURATION_MS, results },
      null,
      2,
    ),
  );
  // A failed answer means the comparison is wrong, not slow.
  if (results.some((r) => r.failures > 0)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
