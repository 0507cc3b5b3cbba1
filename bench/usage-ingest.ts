// How many usage records per second the ingest API counts (issue 10: target ≥ 100,000/s on
// PostgreSQL). Through the real backend over HTTP on a local port: JSON parsing, validation of every
// record, the line lookup, the insert and the counter upsert, in batches of 10,000 records spread over
// 1,000 lines, on PGlite and, when a server answers, on PostgreSQL. Prints figures; never fails on them.
//
// A mediation system sends batches in parallel: each database is measured at every concurrency in
// CONCURRENCY (batches in flight at once), and the best figure is held against the target.
//
// Rating (issue 24) is on, as the API always runs it, and three quarters of the bench lines go past
// their allowances in the first batches (bench/usageBatches.ts), so every measured batch rates: the
// figure held against the target is the rated one. Beside it, the same batches on the same lines
// counted bare (MODES=bare: the backend built with `usageRating: false`, i.e. the ingest as it was
// before rating, statement for statement), so the price of rating is in the output. And the bare
// baseline (MODES=insert, issue 30): the same rows written by the bench itself with one prepared
// multi-row INSERT (unnest of arrays) straight into the same partitioned usage_records, on the same
// pool, with no API, no counters and no rating: what the ingest is held to (≥ 85 %). And the floor
// (MODES=floor): that INSERT, as one statement with the two upserts any ingest that keeps meters and
// charts in step must make (the counters, and the daily sums of issue 30 item 5), summed in SQL from
// the inserted rows as the ingest sums them; the same arrays, no API, no validation, no rating, no
// sort of the records. Its share of the bare INSERT bounds what this design of ingest can reach.
// Every run also prints its CPU per 10,000 records, Node's and PostgreSQL's server processes' (bench/serverCpu.ts):
// with both cores busy, a mode's share of the bare INSERT by CPU is its share by wall time.
//
//   npm run bench:usage-ingest            (BATCHES=30, CONCURRENCY=1,2,3, MODES=rated,bare,insert,floor,
//                                          FLOOR_UPSERTS=counters,daily, DRIVERS=pglite,postgres,
//                                          BATCH_SIZE=10000, LINES=1000: bench/usageBatches.ts)
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { buildApp } from "../server/app";
import { createAdminAuth } from "../server/auth/firebaseAdmin";
import { createTokenVerifier } from "../server/auth/tokenVerifier";
import { LOCAL_INGEST_KEY } from "../server/auth/serviceKeys";
import { openDatabase } from "../server/db/client";
import { attSeed } from "../server/db/seed/demoData";
import { seedOperator } from "../server/db/seed/seedDatabase";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../server/lib/secretBox";
import { createThrowawayPostgresDatabase, postgresAnswers, TEST_DATABASE_URL } from "../tests/support/testDatabase";
import { BATCH, batchBody, seedBenchLines } from "./usageBatches";
import { rowsOf } from "../server/db/rowsOf";
import { cpuMsBetween, cpuMsByPid, databaseBackendPids } from "./serverCpu";

const BATCHES = Number(process.env.BATCHES ?? 30);
const CONCURRENCIES = (process.env.CONCURRENCY ?? "1,2,3").split(",").map(Number);
if (!CONCURRENCIES.every((c) => Number.isInteger(c) && c >= 1))
  throw new Error("CONCURRENCY takes whole numbers of at least 1, comma-separated");
const TARGET_POSTGRES = 100_000;
type Mode = "rated" | "bare" | "insert" | "floor";
const MODES = (process.env.MODES ?? "rated,bare,insert,floor").split(",") as Mode[];
if (!MODES.every((m) => m === "rated" || m === "bare" || m === "insert" || m === "floor"))
  throw new Error("MODES takes rated, bare, insert and/or floor, comma-separated");

/** The bare baseline's one statement: the ingest's rows, its cycle, no counters. */
const BARE_INSERT = `
  insert into usage_records (operator_code, id, line_id, type, started_at, quantity, roaming_zone, cycle_start)
  select 'ATT', r.id, r.line_id, r.type, r.started_at, r.quantity, r.roaming_zone,
    (date_trunc('month', (r.started_at at time zone 'UTC') - make_interval(days => r.cycle_day - 1))::date + (r.cycle_day - 1))
  from unnest($1::text[], $2::uuid[], $3::text[], $4::timestamptz[], $5::int[], $6::text[], $7::int[])
    as r(id, line_id, type, started_at, quantity, roaming_zone, cycle_day)`;

/**
 * Which upserts the floor makes (FLOOR_UPSERTS, both unless told): rating in the ingest's transaction
 * needs the counters (a running total per line and type, under a lock); the daily sums could be made
 * later, by a job, at the price of charts that lag.
 */
const FLOOR_UPSERTS = (process.env.FLOOR_UPSERTS ?? "counters,daily").split(",");
if (!FLOOR_UPSERTS.every((u) => u === "counters" || u === "daily"))
  throw new Error("FLOOR_UPSERTS takes counters and/or daily, comma-separated");

/** The floor's one statement: the bare INSERT, and the ingest's own upserts (ingest.ts, bare) of what it inserted. */
const FLOOR = `
  with inserted as (${BARE_INSERT}
    returning line_id, cycle_start, type, quantity, started_at
  )${
    FLOOR_UPSERTS.includes("daily")
      ? `, daily as (
    insert into usage_daily (line_id, cycle_start, day, type, quantity)
    select line_id, cycle_start, (started_at at time zone 'UTC')::date, type, sum(quantity)
    from inserted group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (line_id, cycle_start, day, type) do update set quantity = usage_daily.quantity + excluded.quantity
  )`
      : ""
  }
  ${
    FLOOR_UPSERTS.includes("counters")
      ? `insert into usage_counters (line_id, cycle_start, type, used, last_record_at)
  select line_id, cycle_start, type, sum(quantity)::bigint, max(started_at)
  from inserted group by 1, 2, 3 order by 1, 2, 3
  on conflict (line_id, cycle_start, type) do update
    set used = usage_counters.used + excluded.used,
        last_record_at = greatest(usage_counters.last_record_at, excluded.last_record_at),
        updated_at = now()`
      : "select count(*) from inserted"
  }`;

type BenchRecord = {
  id: string;
  msisdn: string;
  type: string;
  startedAt: string;
  quantity: number;
  roamingZone?: string;
};
type BenchLine = { msisdn: string; id: string; cycle_day: number };

/** A batch body as the bare INSERT's arrays (built before the clock runs, as the bodies are). */
async function insertValues(database: Awaited<ReturnType<typeof openDatabase>>, body: string): Promise<unknown[]> {
  const { records } = JSON.parse(body) as { records: BenchRecord[] };
  const lines = new Map(
    rowsOf<BenchLine>(
      await database.db.execute(sql`select msisdn, id, cycle_day from lines where operator_code = 'ATT'`),
    ).map((line) => [line.msisdn, line]),
  );
  return [
    records.map((r) => r.id),
    records.map((r) => lines.get(r.msisdn)!.id),
    records.map((r) => r.type),
    records.map((r) => r.startedAt),
    records.map((r) => r.quantity),
    records.map((r) => r.roamingZone ?? null),
    records.map((r) => lines.get(r.msisdn)!.cycle_day),
  ];
}

async function run(driver: "pglite" | "postgres", concurrency: number, mode: Mode) {
  const throwaway = driver === "postgres" ? await createThrowawayPostgresDatabase() : undefined;
  const database = await openDatabase({ url: throwaway?.url, dataDir: "memory://" });
  const { auth } = createAdminAuth({ projectId: "demo-att-portal", emulatorHost: "127.0.0.1:9099" }); // never called: ingest takes API keys
  const app = await buildApp({
    database,
    verifier: createTokenVerifier(auth),
    auth,
    operator: "ATT",
    logLevel: "warn",
    usageRating: mode === "rated",
  });
  try {
    await seedOperator(database.db, attSeed, createSecretBox(LOCAL_SECRETS_KEY));
    await seedBenchLines(database);
    await app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1/usage-records/batch`;
    const bodies = Array.from({ length: BATCHES + 1 }, batchBody); // built before the clock runs
    const inserts = new Map<string, unknown[]>();
    if (mode === "insert" || mode === "floor")
      for (const body of bodies) inserts.set(body, await insertValues(database, body));
    // The bare INSERT, or the floor's statement, prepared on the same pool.
    const insert = async (name: string, text: string, values: unknown[]) => {
      const { pool } = database;
      if (pool) await pool.query({ name, text, values });
      else await database.executeSql!(text, values);
    };
    const send = async (body: string) => {
      if (mode === "insert") return insert("bench_bare_insert", BARE_INSERT, inserts.get(body)!);
      if (mode === "floor") return insert("bench_floor", FLOOR, inserts.get(body)!);
      const res = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `ApiKey ${LOCAL_INGEST_KEY}`,
          "x-operator": "ATT",
          "content-type": "application/json",
        },
        body,
      });
      const result = (await res.json()) as { counted?: number };
      if (res.status !== 200 || result.counted !== BATCH)
        throw new Error(`batch refused or short: ${res.status} ${JSON.stringify(result).slice(0, 300)}`);
    };
    await send(bodies.pop()!); // warm-up
    const latencies: number[] = [];
    // CPU beside wall time: this process's (the backend, and the bench's client or driver calls) and,
    // on PostgreSQL, the database's server processes: the primary's share is what does not scale out.
    const pidsBefore = driver === "postgres" ? await databaseBackendPids(database) : [];
    const serverCpuBefore = cpuMsByPid(pidsBefore);
    const nodeCpuBefore = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const t = performance.now();
          await send(body);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const nodeCpu = process.cpuUsage(nodeCpuBefore);
    const serverCpu =
      driver === "postgres"
        ? cpuMsBetween(
            serverCpuBefore,
            cpuMsByPid([...new Set([...pidsBefore, ...(await databaseBackendPids(database))])]),
          )
        : NaN;
    const per10k = (ms: number) => Math.round((ms * 10_000) / (BATCHES * BATCH));
    const rows = rowsOf<{
      records: number;
      counted: string;
      usage_entries: number;
      overage_charges: number;
      caps: number;
    }>(
      await database.db.execute(sql`
      select count(*)::int as records, (select sum(used)::bigint from usage_counters) as counted,
        (select count(*)::int from ledger_entries where kind = 'usage') as usage_entries,
        (select count(*)::int from ledger_entries where reference_type = 'overage') as overage_charges,
        (select count(*)::int from usage_caps) as caps
      from usage_records`),
    );
    latencies.sort((a, b) => a - b);
    const figures = {
      driver,
      mode,
      batches: BATCHES,
      batch_size: BATCH,
      concurrency,
      records_per_second: Math.round((BATCHES * BATCH) / seconds),
      batch_p50_ms: Math.round(latencies[Math.floor(latencies.length / 2)]!),
      batch_max_ms: Math.round(latencies.at(-1)!),
      // CPU per 10,000 records: Node's (on PGlite the database's too) and PostgreSQL's server processes'.
      node_cpu_ms_per_10k: per10k((nodeCpu.user + nodeCpu.system) / 1000),
      postgres_cpu_ms_per_10k: Number.isNaN(serverCpu) ? null : per10k(serverCpu),
      records_stored: rows[0]!.records,
      // What rating did (0 when bare): prepaid usage entries, postpaid overage charges, capped meters.
      usage_entries: rows[0]!.usage_entries,
      overage_charges: rows[0]!.overage_charges,
      caps: rows[0]!.caps,
      // The machine is shared: the figure means little without how busy its cores were.
      load_average_1m: +loadavg()[0]!.toFixed(2),
      cores: cpus().length,
    };
    console.log(
      `${driver.padEnd(8)} ${mode.padEnd(5)} ${String(figures.records_per_second).padStart(9)} records/s   batch of ${BATCH}: p50 ${figures.batch_p50_ms} ms, max ${figures.batch_max_ms} ms   CPU per 10,000: node ${figures.node_cpu_ms_per_10k} ms${figures.postgres_cpu_ms_per_10k === null ? "" : `, PostgreSQL ${figures.postgres_cpu_ms_per_10k} ms`}   (${BATCHES} batches, concurrency ${concurrency}, ${figures.records_stored} rows stored; rated: ${figures.usage_entries} usage entries, ${figures.overage_charges} overage charges, ${figures.caps} caps; load ${figures.load_average_1m} on ${figures.cores} cores)`,
    );
    return figures;
  } finally {
    await app.close();
    await database.close();
    await throwaway?.drop();
  }
}

async function main() {
  // DRIVERS=postgres measures PostgreSQL alone (PGlite is not held to the target).
  const wanted = (process.env.DRIVERS ?? "pglite,postgres").split(",");
  const drivers: ("pglite" | "postgres")[] = wanted.includes("pglite") ? ["pglite"] : [];
  if (!wanted.includes("postgres")) {
    // PGlite only, as asked.
  } else if (await postgresAnswers()) drivers.push("postgres");
  else console.log(`PostgreSQL: no server at ${TEST_DATABASE_URL}; PGlite only`);
  const results: Awaited<ReturnType<typeof run>>[] = [];
  // Rated and bare alternate at each setting, so a change in the machine's load hits both alike.
  for (const driver of drivers)
    for (const concurrency of CONCURRENCIES)
      for (const mode of MODES) results.push(await run(driver, concurrency, mode));
  for (const driver of drivers) {
    for (const mode of MODES) {
      const measured = results.filter((r) => r.driver === driver && r.mode === mode);
      if (!measured.length) continue;
      const best = measured.reduce((a, b) => (b.records_per_second > a.records_per_second ? b : a));
      const verdict =
        driver === "postgres" && mode === "rated"
          ? `; target ${TARGET_POSTGRES} ${best.records_per_second >= TARGET_POSTGRES ? "met" : "NOT met"}`
          : "";
      console.log(
        `best ${driver} ${mode}: ${best.records_per_second} records/s at concurrency ${best.concurrency}${verdict}`,
      );
    }
  }
  // The ingest against the bare INSERT of the same rows, setting by setting (issue 30: ≥ 85 %).
  if (MODES.includes("insert"))
    for (const driver of drivers)
      for (const concurrency of CONCURRENCIES) {
        const of = (mode: Mode) =>
          results.find((r) => r.driver === driver && r.concurrency === concurrency && r.mode === mode);
        const at = (mode: Mode) => of(mode)?.records_per_second;
        const bare = at("insert");
        const share = (mode: Mode) => (at(mode) && bare ? `${Math.round((100 * at(mode)!) / bare)} %` : "-");
        console.log(
          `${driver} concurrency ${concurrency}: rated ${share("rated")}, bare ${share("bare")}, floor ${share("floor")} of the bare INSERT (${bare} records/s)`,
        );
        // The same comparison on the database's CPU alone: what a primary whose backends run elsewhere would see.
        const cpuOf = (mode: Mode) => of(mode)?.postgres_cpu_ms_per_10k;
        const bareCpu = cpuOf("insert");
        if (bareCpu)
          console.log(
            `${driver} concurrency ${concurrency}: PostgreSQL CPU per 10,000 records, bare INSERT ${bareCpu} ms = ` +
              MODES.filter((m) => m !== "insert" && cpuOf(m))
                .map((m) => `${Math.round((100 * bareCpu) / cpuOf(m)!)} % of ${m} (${cpuOf(m)} ms)`)
                .join(", "),
          );
      }
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/usage-ingest.json", JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
  console.log("written: bench/results/usage-ingest.json");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
