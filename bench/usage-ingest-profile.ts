// Where one 10,000-record batch of the usage ingest spends its time, phase by phase, in process
// (no HTTP): JSON parse, validation, line lookup, the insert statement, and EXPLAIN (ANALYZE, BUFFERS)
// of the statement on PostgreSQL. The machine is shared: each phase prints its minimum and median.
//
//   npx tsx bench/usage-ingest-profile.ts      (ROUNDS=20; DRIVER=pglite|postgres)
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { rejectUnstorableText } from "../server/lib/storableText";
import { isPlainValidBatch } from "../server/routes/usageBatchValidator";
import { usageBatchSchema } from "../src/resources/usage";
import { openDatabase } from "../server/db/client";
import { attSeed } from "../server/db/seed/demoData";
import { seedOperator } from "../server/db/seed/seedDatabase";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../server/lib/secretBox";
import { ingestUsage } from "../server/domain/usage/ingest";
import { createThrowawayPostgresDatabase } from "../tests/support/testDatabase";
import { batchBody, seedBenchLines } from "./usageBatches";
import { databaseBackendPids, cpuMsByPid } from "./serverCpu";

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const DRIVER = (process.env.DRIVER ?? "postgres") as "pglite" | "postgres";

// Wall time means little on a busy shared machine, so each phase also reports CPU time: this
// process's (process.cpuUsage) and, on PostgreSQL on this machine, that of the database's server
// processes (/proc/<pid>/stat; 10 ms ticks, hence the medians over many rounds).
const stats = new Map<string, { wall: number[]; cpu: number[]; pg: number[] }>();
let backendPids: number[] = [];
const backendCpuMs = () => [...cpuMsByPid(backendPids).values()].reduce((total, ms) => total + ms, 0);
async function time<T>(phase: string, f: () => Promise<T> | T): Promise<T> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const pg = backendCpuMs();
  const out = await f();
  const used = process.cpuUsage(cpu);
  const entry = stats.get(phase) ?? stats.set(phase, { wall: [], cpu: [], pg: [] }).get(phase)!;
  entry.wall.push(performance.now() - t);
  entry.cpu.push((used.user + used.system) / 1000);
  entry.pg.push(backendCpuMs() - pg);
  return out;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const throwaway = DRIVER === "postgres" ? await createThrowawayPostgresDatabase() : undefined;
  const database = await openDatabase({ url: throwaway?.url, dataDir: "memory://" });
  try {
    await seedOperator(database.db, attSeed, createSecretBox(LOCAL_SECRETS_KEY));
    await seedBenchLines(database);
    const bodies = Array.from({ length: ROUNDS + 1 }, batchBody);
    if (DRIVER === "postgres") {
      // Fill the pool so every connection the ingest may use is known, then note their server pids.
      await Promise.all(Array.from({ length: 10 }, () => database.db.execute(sql`select pg_sleep(0.05)`)));
      backendPids = await databaseBackendPids(database);
    }
    for (let round = 0; round <= ROUNDS; round++) {
      const body = bodies[round]!;
      const parsed = await time("json parse", () => JSON.parse(body) as unknown);
      await time("unstorable-text hook", () =>
        rejectUnstorableText({ params: {}, query: {}, body: parsed } as unknown as FastifyRequest),
      );
      await time("zod validation (refusals only now)", () => usageBatchSchema.parse(parsed));
      const valid = await time("body check (fast path)", () => {
        if (!isPlainValidBatch(parsed)) throw new Error("the fast check refused a valid batch");
        return parsed;
      });
      await time("ingestUsage (lookup + statement + alerts)", () => ingestUsage(database.db, "ATT", valid.records));
      if (round === 0) stats.clear(); // warm-up
    }
    const load = loadavg()[0]!.toFixed(2);
    console.log(`${DRIVER}: ${ROUNDS} batches of 10,000 (load ${load})`);
    console.log(
      `  ${"phase".padEnd(45)} ${"wall median".padStart(12)} ${"node CPU median".padStart(16)} ${"PostgreSQL CPU median".padStart(22)}`,
    );
    for (const [phase, { wall, cpu, pg }] of stats) {
      const pgCpu = DRIVER === "postgres" ? `${median(pg).toFixed(0)} ms` : "(in process)";
      console.log(
        `  ${phase.padEnd(45)} ${`${median(wall).toFixed(1)} ms`.padStart(12)} ${`${median(cpu).toFixed(1)} ms`.padStart(16)} ${pgCpu.padStart(22)}`,
      );
    }
  } finally {
    await database.close();
    if (process.env.KEEP && throwaway) console.log(`kept: ${throwaway.url}`);
    else await throwaway?.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
