// Generates the care desk's data at operator scale in its own PostgreSQL database (care_bench):
// 1,000,000 subscriber accounts, 1,300,000 lines and 10,000,000 usage records, next to the demo
// operator (alex, sam, agent, admin) so the bench signs in as the demo agent. All rows come from
// generate_series in SQL; the trigram indexes are dropped for the load and built again after
// (building one is much faster than updating it 1.3M times). Re-running keeps what is there.
//
//   npm run bench:care-seed                 (ACCOUNTS=1000000 LINE_SHARE=0.3 USAGE=10000000 RESEED=1)
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openDatabase } from "../server/db/client";
import { attSeed, demoUsers } from "../server/db/seed/demoData";
import { seedOperator } from "../server/db/seed/seedDatabase";
import { seedStaff } from "../server/db/seed/seedStaff";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../server/lib/secretBox";
import { TEST_DATABASE_URL } from "../tests/support/testDatabase";
import { CARE_BENCH_DB, careBenchUrl } from "./careBenchDatabase";

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 1_000_000);
/** Share of accounts with a second line: 0.3 makes 1.3 lines per account. */
const SECOND_LINE_PER_TEN = Math.round(Number(process.env.LINE_SHARE ?? 0.3) * 10);
const USAGE = Number(process.env.USAGE ?? 10_000_000);
const USAGE_BATCH = 1_000_000;

// Common US first and last names: real populations repeat names, which is what makes name search hard.
const FIRST =
  "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth Jose Julie Adam Olivia Nathan Joyce Henry Virginia Douglas Victoria Zachary Kelly Peter Lauren Kyle Christina Ethan Joan Walter Evelyn Noah Judith Jeremy Megan Christian Andrea Keith Cheryl Roger Hannah Terry Jacqueline Gerald Martha Harold Gloria Sean Teresa Austin Ann Carl Sara Arthur Madison Lawrence Frances Dylan Kathryn Jesse Janice Jordan Jean Bryan Abigail Billy Alice Joe Judy Bruce Sophia Gabriel Grace Logan Denise Albert Amber Willie Doris Alan Marilyn Juan Danielle Wayne Beverly Elijah Isabella Randy Theresa Roy Diana Vincent Natalie Ralph Brittany Eugene Charlotte Russell Marie Bobby Kayla Mason Alexis Philip Lori".split(
    " ",
  );
const LAST =
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis Carpenter Lawrence Sandoval".split(
    " ",
  );

/** Ten real US area codes (libphonenumber accepts their numbers); 202 stays the demo's. */
const AREA_CODES = ["212", "213", "305", "312", "404", "415", "512", "617", "702", "713"];

const literalArray = (values: string[]) => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(",")}]`;

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    if (process.env.RESEED) await admin.query(`drop database if exists ${CARE_BENCH_DB} with (force)`);
    const exists = await admin.query("select 1 from pg_database where datname = $1", [CARE_BENCH_DB]);
    if (!exists.rowCount) await admin.query(`create database ${CARE_BENCH_DB}`);
  } finally {
    await admin.end();
  }
}

async function step<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`${label.padEnd(52)} ${((performance.now() - start) / 1000).toFixed(1).padStart(7)} s`);
  return result;
}

/** Drops the trigram (GIN) indexes of a table and returns their definitions, to build them again after a bulk load. */
async function dropGinIndexes(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    "select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = $1 and indexdef ilike '%using gin%'",
    [table],
  );
  for (const row of rows) await client.query(`drop index if exists "${row.indexname}"`);
  return rows.map((r) => r.indexdef);
}

async function main() {
  await step("database care_bench (created unless there)", ensureDatabase);
  const url = careBenchUrl();
  // Migrations and the demo operator, exactly as the app seeds them (idempotent).
  const database = await step("migrations + demo operator and staff", async () => {
    const opened = await openDatabase({ url, dataDir: "" });
    await seedOperator(opened.db, attSeed, createSecretBox(LOCAL_SECRETS_KEY));
    await seedStaff(opened.db, demoUsers);
    return opened;
  });
  await database.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("set maintenance_work_mem = '1GB'");
    // Deterministic ids (line n belongs to account g without a lookup), shaped as RFC 4122 v4 UUIDs.
    await client.query(`create or replace function bench_uuid(seed text) returns uuid language sql immutable
      as $$ select overlay(overlay(md5(seed) placing '4' from 13) placing '8' from 17)::uuid $$`);
    await client.query("set synchronous_commit = off");
    const count = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);

    const haveAccounts = await count("select count(*) as n from accounts where email like '%@bench.example'");
    if (haveAccounts < ACCOUNTS) {
      const indexes = [...(await dropGinIndexes(client, "accounts")), ...(await dropGinIndexes(client, "lines"))];
      // The trigger that keeps subscriber_names in step counts row by row; the load recounts once after.
      await client.query("alter table accounts disable trigger accounts_subscriber_names");
      await step(`accounts: ${ACCOUNTS - haveAccounts} more`, () =>
        client.query(`
          insert into accounts (id, operator_code, owner_uid, name, email, phone, type, status, created_at, updated_at)
          select bench_uuid('account' || g), 'ATT', null,
            f.name || ' ' || l.name,
            lower(f.name || '.' || l.name || '.' || g) || '@bench.example',
            null,
            case when g % 3 = 0 then 'postpaid' else 'prepaid' end,
            case when g % 97 = 0 then 'suspended' else 'active' end,
            now() - (g % 2000) * interval '1 day', now()
          from generate_series(${haveAccounts + 1}, ${ACCOUNTS}) g
          cross join lateral (select (${literalArray(FIRST)})[1 + g % ${FIRST.length}] as name) f
          cross join lateral (select (${literalArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] as name) l`),
      );
      const plans = await client.query<{ id: string; kind: string }>(
        "select id, kind from plans where operator_code = 'ATT' and status = 'active' order by code",
      );
      const prepaid = plans.rows.filter((p) => p.kind === "prepaid").map((p) => p.id);
      const postpaid = plans.rows.filter((p) => p.kind === "postpaid").map((p) => p.id);
      // Line n of account g: n = 2g (every account) and 2g+1 (3 in 10). m = (n × 7919) mod 80M is distinct
      // for every n; it picks one of ten real area codes (not the demo's 202), an exchange 200–999 and
      // the last four digits, so every number passes the numbering-plan check the API's schema makes.
      await step(`lines of accounts ${haveAccounts + 1}..${ACCOUNTS}`, () =>
        client.query(`
          insert into lines (id, operator_code, account_id, msisdn, iccid, sim_type, plan_id, status, suspend_reason, cycle_day, created_at, updated_at)
          select bench_uuid('line' || n), 'ATT', bench_uuid('account' || g),
            '+1' || (${literalArray(AREA_CODES)})[1 + m / 8000000] || (200 + (m / 10000) % 800)::text || lpad((m % 10000)::text, 4, '0'),
            '89019' || lpad(n::text, 14, '0'),
            case when n % 4 = 0 then 'esim' else 'physical' end,
            case when g % 3 = 0 then (${literalArray(postpaid)}::uuid[])[1 + n % ${postpaid.length}] else (${literalArray(prepaid)}::uuid[])[1 + n % ${prepaid.length}] end,
            case when n % 50 = 0 then 'suspended' when n % 53 = 0 then 'terminated' else 'active' end,
            case when n % 50 = 0 then 'request' else null end,
            1 + n % 28, now() - (n % 2000) * interval '1 day', now()
          from generate_series(${haveAccounts + 1}, ${ACCOUNTS}) g
          cross join lateral generate_series(2 * g, 2 * g + case when g % 10 < ${SECOND_LINE_PER_TEN} then 1 else 0 end) n
          cross join lateral (select ((n::bigint * 7919) % 80000000)::int as m) numbering`),
      );
      for (const definition of indexes)
        await step(`index: ${definition.replace(/^CREATE INDEX (\S+).*$/, "$1")}`, () => client.query(definition));
      await step("subscriber_names recounted", () =>
        client.query(`insert into subscriber_names (name, accounts) select name, count(*) from accounts group by name
          on conflict (name) do update set accounts = excluded.accounts`),
      );
      await client.query("alter table accounts enable trigger accounts_subscriber_names");
    }

    // usage_records comes from the migrations; created here only if an older schema lacks it.
    await client.query(`
      create table if not exists usage_records (
        operator_code text not null, id text not null, line_id uuid not null, type text not null,
        started_at timestamptz not null, quantity integer not null, roaming_zone text,
        cycle_start date not null, received_at timestamptz not null default now())`);
    let haveUsage = await count("select count(*) as n from usage_records where id like 'bench-%'");
    if (haveUsage < USAGE) {
      // Bulk load without indexes, then build them once: the primary key by its own name and definition.
      const [pk] = (
        await client.query<{ conname: string; def: string }>(
          "select conname, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'usage_records'::regclass and contype = 'p'",
        )
      ).rows;
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        `select indexname, indexdef from pg_indexes where tablename = 'usage_records'
           and indexname not in (select conname from pg_constraint where conrelid = 'usage_records'::regclass)`,
      );
      for (const row of rows) await client.query(`drop index if exists "${row.indexname}"`);
      if (pk) await client.query(`alter table usage_records drop constraint "${pk.conname}"`);
      while (haveUsage < USAGE) {
        const from = haveUsage + 1;
        const to = Math.min(USAGE, haveUsage + USAGE_BATCH);
        // Record r belongs to the first line (n = 2g) of account g = 1 + r mod ACCOUNTS: ~10 per line.
        await step(`usage records ${from}..${to}`, () =>
          client.query(`
            insert into usage_records (operator_code, id, line_id, type, started_at, quantity, roaming_zone, cycle_start)
            select 'ATT', 'bench-' || r, bench_uuid('line' || (2 * (1 + r % ${ACCOUNTS}))),
              (array['data','voice','sms'])[1 + r % 3],
              now() - (r % 43200) * interval '1 minute',
              case r % 3 when 0 then 1 + r % 500 when 1 then 30 + r % 1800 else 1 end,
              case when r % 40 = 0 then 'canada_mexico' else null end,
              date_trunc('month', now())::date
            from generate_series(${from}, ${to}) r`),
        );
        haveUsage = to;
      }
      await step("usage_records primary key", () =>
        client.query(
          `alter table usage_records add constraint "${pk?.conname ?? "usage_records_pkey"}" ${pk?.def ?? "primary key (operator_code, id)"}`,
        ),
      );
      await step("usage_records (line_id, started_at desc) index", () =>
        client.query(
          "create index if not exists usage_records_line_started_idx on usage_records (line_id, started_at desc)",
        ),
      );
      for (const row of rows) if (row.indexname !== "usage_records_line_started_idx") await client.query(row.indexdef);
      // The chart's daily sums, as the ingest keeps them (migration 0041).
      await step("usage_daily", () =>
        client.query(`
          insert into usage_daily (line_id, cycle_start, day, type, quantity)
          select line_id, cycle_start, (started_at at time zone 'UTC')::date, type, sum(quantity)
          from usage_records group by 1, 2, 3, 4
          on conflict (line_id, cycle_start, day, type) do update set quantity = excluded.quantity`),
      );
    }
    await step("vacuum analyze", () => client.query("vacuum analyze"));
    const totals = (
      await client.query<{ accounts: string; lines: string; usage_records: string; size: string }>(`
      select (select count(*) from accounts) as accounts, (select count(*) from lines) as lines,
             (select count(*) from usage_records) as usage_records,
             pg_size_pretty(pg_database_size(current_database())) as size`)
    ).rows[0];
    console.log(`care_bench holds ${JSON.stringify(totals)}`);
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
