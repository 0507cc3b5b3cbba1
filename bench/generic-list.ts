// How fast the generic API lists a declared resource once it holds many records: device-claims,
// 20,000 of them, through the real backend (in-process requests, real token checks against the Auth
// emulator), on PGlite and, when a server answers, on PostgreSQL. Prints figures; never fails on them.
//
//   npx tsx bench/generic-list.ts            (RECORDS=50000 for more)
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { postgresAnswers, TEST_DATABASE_URL } from "../tests/support/testDatabase";
import { startTestBackend, type TestBackend } from "../tests/support/testBackend";
import { rowsOf } from "../server/db/rowsOf";

const RECORDS = Number(process.env.RECORDS ?? 20_000);
const RUNS = 30;
/** The deep page measured by number and by cursor (issue 30: keyset pages cost what page 1 does). */
const DEEP_PAGE = Number(process.env.DEEP_PAGE ?? 500);

/** Many claims at once, in SQL: spread over the operator's lines, owned by the owners of those lines. */
async function seedClaims(backend: TestBackend, count: number) {
  await backend.database.db.execute(sql`
    insert into resource_documents (operator_code, resource, owner_uid, data, created_by, created_at, updated_at)
    select 'ATT', 'device-claims', a.owner_uid,
      jsonb_build_object(
        'lineId', l.id,
        'incident', (array['damage','theft','loss','malfunction'])[1 + (g % 4)],
        'occurredOn', to_char(date '2026-01-01' + (g % 300), 'YYYY-MM-DD'),
        'description', 'Claim number ' || g || ' about a phone that stopped working',
        'status', (array['submitted','approved','rejected','withdrawn'])[1 + ((g / 4) % 4)],
        'assessment', null),
      'bench', now() - (g || ' minutes')::interval, now()
    from generate_series(1, ${count}) as g
    join lateral (select id, account_id from lines where operator_code = 'ATT' order by id offset (g % 40) limit 1) l on true
    join accounts a on a.id = l.account_id`);
  await backend.database.db.execute(sql`analyze resource_documents`);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(backend: TestBackend, as: string, url: string) {
  const first = await backend.get(url, { as });
  if (first.statusCode !== 200) throw new Error(`${url} as ${as}: ${first.statusCode} ${first.body}`);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const res = await backend.get(url, { as });
    times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  }
  times.sort((a, b) => a - b);
  return {
    total: first.json<{ total: number }>().total,
    p50_ms: +percentile(times, 50).toFixed(1),
    p95_ms: +percentile(times, 95).toFixed(1),
  };
}

const QUERIES: [label: string, as: string, url: string][] = [
  ["agent: newest first, page 1", "agent@att.example", "/api/v1/device-claims?pageSize=20"],
  [
    "agent: status=submitted, newest first",
    "agent@att.example",
    "/api/v1/device-claims?filter[status]=submitted&pageSize=20",
  ],
  [
    "agent: incident in (theft,loss), by date",
    "agent@att.example",
    "/api/v1/device-claims?filter[incident][in]=theft,loss&sort=-occurredOn&pageSize=20",
  ],
  [
    "agent: date between (one month)",
    "agent@att.example",
    "/api/v1/device-claims?filter[occurredOn][between]=2026-03-01,2026-03-31&pageSize=20",
  ],
  [
    `agent: page ${DEEP_PAGE} of the default order`,
    "agent@att.example",
    `/api/v1/device-claims?page=${DEEP_PAGE}&pageSize=20`,
  ],
  ["agent: search q=1234 (a claim number)", "agent@att.example", "/api/v1/device-claims?q=1234&pageSize=20"],
  ["alex (subscriber): own claims", "alex@example.com", "/api/v1/device-claims?pageSize=20"],
];

/** The cursor of page `page` of a list, walked to by keyset pages from the first (`next` after `next`). */
async function cursorOfPage(backend: TestBackend, as: string, url: string, page: number): Promise<string> {
  let cursor = "";
  for (let at = 1; at < page; at++) {
    const res = await backend.get(`${url}&cursor=${encodeURIComponent(cursor)}`, { as });
    const next = res.json<{ next?: string }>().next;
    if (!next) throw new Error(`${url} has no page ${page}`);
    cursor = next;
  }
  return cursor;
}

async function run(driver: "pglite" | "postgres") {
  process.env.TEST_DB = driver;
  const backend = await startTestBackend();
  try {
    for (const email of new Set(QUERIES.map(([, as]) => as))) await backend.tokenFor(email); // sign in before the clock runs
    const seeded = performance.now();
    await seedClaims(backend, RECORDS);
    const seedMs = Math.round(performance.now() - seeded);
    const plan = rowsOf<Record<string, string>>(
      await backend.database.db.execute(
        sql.raw(
          "explain select * from resource_documents where operator_code = 'ATT' and resource_documents.resource = 'device-claims' and (data->>'status') = 'submitted' order by created_at desc limit 20",
        ),
      ),
    );
    const planText = plan.map((r) => Object.values(r)[0]).join("\n");
    const searchPlan = rowsOf<Record<string, string>>(
      await backend.database.db.execute(
        sql.raw(
          "explain analyze select count(*) from resource_documents where operator_code = 'ATT' and resource_documents.resource = 'device-claims' and ((data->>'description') ilike '%1234%' or (data->>'assessment') ilike '%1234%')",
        ),
      ),
    );
    const searchPlanText = searchPlan.map((r) => Object.values(r)[0]).join("\n");
    if (process.env.SHOW_PLANS) console.log(`${planText}\n${searchPlanText}`);
    const results: Record<string, unknown> = {};
    console.log(`\n${driver}: ${RECORDS} claims seeded in ${seedMs} ms; ${RUNS} requests each (after one warm-up)`);
    console.log(`${"query".padEnd(44)} ${"rows".padStart(6)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}`);
    for (const [label, as, url] of QUERIES) {
      const figures = await measure(backend, as, url);
      results[label] = figures;
      console.log(
        `${label.padEnd(44)} ${String(figures.total).padStart(6)} ${String(figures.p50_ms).padStart(8)} ${String(figures.p95_ms).padStart(8)}`,
      );
    }
    const deepLabel = `agent: page ${DEEP_PAGE} by cursor (keyset)`;
    const deepUrl = "/api/v1/device-claims?pageSize=20";
    const cursor = await cursorOfPage(backend, "agent@att.example", deepUrl, DEEP_PAGE);
    const deep = await measure(backend, "agent@att.example", `${deepUrl}&cursor=${encodeURIComponent(cursor)}`);
    results[deepLabel] = deep;
    console.log(
      `${deepLabel.padEnd(44)} ${String(deep.total).padStart(6)} ${String(deep.p50_ms).padStart(8)} ${String(deep.p95_ms).padStart(8)}`,
    );
    const usesIndex = /resource_documents_device_claims_status_idx|resource_documents_list_idx/.test(planText);
    console.log(`plan of the status filter uses a declared or list index: ${usesIndex}`);
    console.log(`plan of the search uses the trigram index: ${/trgm_idx/.test(searchPlanText)}`);
    return {
      driver,
      records: RECORDS,
      seed_ms: seedMs,
      runs: RUNS,
      queries: results,
      status_filter_plan: planText,
      search_plan: searchPlanText,
    };
  } finally {
    await backend.close();
  }
}

async function main() {
  const emulator = await ensureAuthEmulator();
  try {
    const drivers: ("pglite" | "postgres")[] = ["pglite"];
    if (await postgresAnswers()) drivers.push("postgres");
    else console.log(`PostgreSQL: no server at ${TEST_DATABASE_URL}; PGlite only`);
    const results = [];
    for (const driver of drivers) results.push(await run(driver));
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(
      "bench/results/generic-list.json",
      JSON.stringify({ at: new Date().toISOString(), results }, null, 2),
    );
    console.log("\nwritten: bench/results/generic-list.json");
  } finally {
    await emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
