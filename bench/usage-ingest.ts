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
// (MODES=floor, PostgreSQL only): that INSERT plus the two upserts any ingest that keeps meters and
// charts must make in the same transaction (the counters and the daily sums, issue 30 item 5), their
// rows summed in JavaScript before the clock runs; no API, no validation, no rating. No ingest that
// keeps its meters in step with its records can beat it, so its share of the bare INSERT bounds the
// share the ingest can reach.
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
import { cycleStartOf } from "../server/domain/usage/cycles";

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

/** The floor's upserts: the ingest's own (ingest.ts, bare), over rows summed before the clock. */
const FLOOR_DAILY = `
  insert into usage_daily (line_id, cycle_start, day, type, quantity)
  select * from unnest($1::uuid[], $2::date[], $3::date[], $4::text[], $5::bigint[]) order by 1, 2, 3, 4
  on conflict (line_id, cycle_start, day, type) do update set quantity = usage_daily.quantity + excluded.quantity`;
const FLOOR_COUNTERS = `
  insert into usage_counters (line_id, cycle_start, type, used, last_record_at)
  select * from unnest($1::uuid[], $2::date[], $3::text[], $4::bigint[], $5::timestamptz[]) order by 1, 2, 3
  on conflict (line_id, cycle_start, type) do update
    set used = usage_counters.used + excluded.used,
        last_record_at = greatest(usage_counters.last_record_at, excluded.last_record_at),
        updated_at = now()`;

type BenchRecord = {
  id: string;
  msisdn: string;
  type: string;
  startedAt: string;
  quantity: number;
  roamingZone?: string;
};
type BenchLine = { msisdn: string; id: string; cycle_day: number };
type Batch = { insert: unknown[]; daily: unknown[][]; counters: unknown[][] };

/** The batch's daily sums and counter sums, as the floor's upserts take them: one array a column. */
function sumsOf(records: BenchRecord[], lines: Map<string, BenchLine>): Pick<Batch, "daily" | "counters"> {
  const daily = new Map<string, [string, string, string, string, number]>();
  const counters = new Map<string, [string, string, string, number, string]>();
  for (const r of records) {
    const line = lines.get(r.msisdn)!;
    const at = new Date(r.startedAt);
    const cycle = cycleStartOf(at, line.cycle_day);
    const day = at.toISOString().slice(0, 10);
    const d = daily.get(`${line.id} ${cycle} ${day} ${r.type}`);
    if (d) d[4] += r.quantity;
    else daily.set(`${line.id} ${cycle} ${day} ${r.type}`, [line.id, cycle, day, r.type, r.quantity]);
    const c = counters.get(`${line.id} ${cycle} ${r.type}`);
    if (!c) counters.set(`${line.id} ${cycle} ${r.type}`, [line.id, cycle, r.type, r.quantity, r.startedAt]);
    else {
      c[3] += r.quantity;
      if (Date.parse(r.startedAt) > Date.parse(c[4])) c[4] = r.startedAt;
    }
  }
  const columns = (rows: unknown[][]) => rows[0]!.map((_, i) => rows.map((row) => row[i]));
  return { daily: columns([...daily.values()]), counters: columns([...counters.values()]) };
}

/** A batch body as the bare INSERT's arrays and the floor's sums (built before the clock runs, as the bodies are). */
async function insertValues(database: Awaited<ReturnType<typeof openDatabase>>, body: string): Promise<Batch> {
  const { records } = JSON.parse(body) as { records: BenchRecord[] };
  const lines = new Map(
    rowsOf<BenchLine>(
      await database.db.execute(sql`select msisdn, id, cycle_day from lines where operator_code = 'ATT'`),
    ).map((line) => [line.msisdn, line]),
  );
  const insert = [
    records.map((r) => r.id),
    records.map((r) => lines.get(r.msisdn)!.id),
    records.map((r) => r.type),
    records.map((r) => r.startedAt),
    records.map((r) => r.quantity),
    records.map((r) => r.roamingZone ?? null),
    records.map((r) => lines.get(r.msisdn)!.cycle_day),
  ];
  return { insert, ...sumsOf(records, lines) };
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
    const inserts = new Map<string, Batch>();
    if (mode === "insert" || mode === "floor")
      for (const body of bodies) inserts.set(body, await insertValues(database, body));
    const insert = async ({ insert: values }: Batch) => {
      const { pool } = database;
      if (pool) await pool.query({ name: "bench_bare_insert", text: BARE_INSERT, values });
      else await database.executeSql!(BARE_INSERT, values);
    };
    // The floor's three statements in one transaction on one connection of the same pool.
    const floor = async (batch: Batch) => {
      const client = await database.pool!.connect();
      try {
        await client.query("begin");
        await client.query({ name: "bench_bare_insert", text: BARE_INSERT, values: batch.insert });
        if (FLOOR_UPSERTS.includes("daily"))
          await client.query({ name: "bench_floor_daily", text: FLOOR_DAILY, values: batch.daily });
        if (FLOOR_UPSERTS.includes("counters"))
          await client.query({ name: "bench_floor_counters", text: FLOOR_COUNTERS, values: batch.counters });
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw error;
      } finally {
        client.release();
      }
    };
    const send = async (body: string) => {
      if (mode === "insert") return insert(inserts.get(body)!);
      if (mode === "floor") return floor(inserts.get(body)!);
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
      `${driver.padEnd(8)} ${mode.padEnd(5)} ${String(figures.records_per_second).padStart(9)} records/s   batch of ${BATCH}: p50 ${figures.batch_p50_ms} ms, max ${figures.batch_max_ms} ms   (${BATCHES} batches, concurrency ${concurrency}, ${figures.records_stored} rows stored; rated: ${figures.usage_entries} usage entries, ${figures.overage_charges} overage charges, ${figures.caps} caps; load ${figures.load_average_1m} on ${figures.cores} cores)`,
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
      for (const mode of MODES)
        // The floor's transaction needs a connection of its own: PostgreSQL's pool (PGlite has one connection).
        if (mode !== "floor" || driver === "postgres") results.push(await run(driver, concurrency, mode));
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
        const at = (mode: Mode) =>
          results.find((r) => r.driver === driver && r.concurrency === concurrency && r.mode === mode)
            ?.records_per_second;
        const bare = at("insert");
        const share = (mode: Mode) => (at(mode) && bare ? `${Math.round((100 * at(mode)!) / bare)} %` : "-");
        console.log(
          `${driver} concurrency ${concurrency}: rated ${share("rated")}, bare ${share("bare")}, floor ${share("floor")} of the bare INSERT (${bare} records/s)`,
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
