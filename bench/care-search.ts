// The care desk at operator scale (issue 12): search p95 with 20 agents searching at once, and the
// subscriber 360's first request, end to end through the API over HTTP (real backend listening on a
// port, real token checks against the Auth emulator) on the care_bench PostgreSQL database that
// `npm run bench:care-seed` generates. Prints figures; never fails on them.
//
//   npm run bench:care-search               (AGENTS=20 REQUESTS=1000 THINK_MS=1000)
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { buildApp } from "../server/app";
import { createAdminAuth } from "../server/auth/firebaseAdmin";
import { seedAuthUsers } from "../server/auth/seedAuthUsers";
import { createTokenVerifier } from "../server/auth/tokenVerifier";
import { openDatabase } from "../server/db/client";
import { demoUsers } from "../server/db/seed/demoData";
import { EMULATOR_HOST, ensureAuthEmulator, PROJECT_ID } from "../tests/support/authEmulator";
import { signInWithPassword } from "../tests/support/testBackend";
import { careBenchUrl } from "./careBenchDatabase";

const AGENTS = Number(process.env.AGENTS ?? 20);
/** Mean pause of an agent between two requests (exponential): agents read what they found before searching again. */
const THINK_MS = Number(process.env.THINK_MS ?? 1000);
const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const TARGET_SEARCH_P95_MS = 25;
const TARGET_360_P95_MS = 50;

interface Sample {
  id: string;
  name: string;
  email: string;
  msisdn: string;
  iccid: string;
}

/** One letter dropped from the surname: the typo an agent makes while the caller spells it. */
const typo = (name: string) => {
  const [first, last = ""] = name.split(" ");
  const at = Math.max(1, Math.floor(last.length / 2));
  return `${first} ${last.slice(0, at)}${last.slice(at + 1)}`;
};
const national = (msisdn: string) => msisdn.replace(/^\+1/, "");
const formatted = (msisdn: string) => {
  const d = national(msisdn);
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
};

/** What agents type, by kind, each built from a real subscriber of the bench data. */
const KINDS: Record<string, (s: Sample) => string> = {
  "last 4 digits": (s) => s.msisdn.slice(-4),
  "7 digits": (s) => national(s.msisdn).slice(-7),
  "(xxx) xxx-xxxx": (s) => formatted(s.msisdn),
  name: (s) => s.name,
  "name with a typo": (s) => typo(s.name),
  "email prefix": (s) => s.email.slice(0, 12),
  ICCID: (s) => s.iccid,
  "account id": (s) => s.id,
};

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}
const figures = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50_ms: +percentile(sorted, 50).toFixed(1),
    p95_ms: +percentile(sorted, 95).toFixed(1),
    p99_ms: +percentile(sorted, 99).toFixed(1),
  };
};

/** `total` requests from `agents` concurrent workers; each request's time, by label. */
async function load(
  agents: number,
  total: number,
  next: (i: number) => { label: string; url: string },
  call: (url: string) => Promise<{ status: number; rows: number }>,
  thinkMs = 0,
) {
  const times = new Map<string, number[]>();
  const rows = new Map<string, number[]>();
  let issued = 0;
  const worker = async () => {
    while (issued < total) {
      if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, -Math.log(1 - Math.random()) * thinkMs));
      if (issued >= total) break;
      const { label, url } = next(issued++);
      const start = performance.now();
      const answer = await call(url);
      const elapsed = performance.now() - start;
      if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
      (times.get(label) ?? times.set(label, []).get(label)!).push(elapsed);
      (rows.get(label) ?? rows.set(label, []).get(label)!).push(answer.rows);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: agents }, worker));
  return { times, rows, seconds: (performance.now() - start) / 1000 };
}

/** How big the bench database is; counts come back as text (bigint). */
interface DatabaseSize {
  accounts: string;
  lines: string;
  usage_records: string;
  size: string;
}

async function main() {
  const emulator = await ensureAuthEmulator();
  const url = careBenchUrl();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const size = (
    await client.query<DatabaseSize>(`select (select count(*) from accounts) as accounts, (select count(*) from lines) as lines,
    (select count(*) from usage_records) as usage_records, pg_size_pretty(pg_database_size(current_database())) as size`)
  ).rows[0]!;
  // Subscribers to look for: a random sample of the generated ones (bernoulli keeps it cheap at 1M).
  const samples = (
    await client.query<Sample>(`select a.id, a.name, a.email, l.msisdn, l.iccid from accounts a tablesample bernoulli (${Math.min(100, Math.max(0.1, 50000 / Number(size.accounts)))})
      join lines l on l.account_id = a.id and l.msisdn = (select min(msisdn) from lines m where m.account_id = a.id)
      where a.email like '%@bench.example' limit 500`)
  ).rows;
  // An agent opens a 360 once the caller is verified (issue 27): the demo agent has verified each sampled caller.
  await client.query(
    `insert into caller_verifications (operator_code, agent_uid, subscriber_uid, verified_until, method)
     select 'ATT', 'demo-agent', coalesce(owner_uid, id::text), now() + interval '1 day', 'override' from accounts where id = any($1::uuid[])
     on conflict (operator_code, agent_uid, subscriber_uid) do update set verified_until = excluded.verified_until`,
    [samples.map((s) => s.id)],
  );
  await client.end();
  if (samples.length < 50)
    throw new Error(
      `care_bench holds too few subscribers (${samples.length} sampled): run npm run bench:care-seed first`,
    );

  console.log("opening the database and starting the backend…");
  const database = await openDatabase({ url, dataDir: "" });
  const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
  await seedAuthUsers(auth, demoUsers);
  const app = await buildApp({
    database,
    verifier: createTokenVerifier(auth),
    auth,
    operator: "ATT",
    logLevel: process.env.LOG_LEVEL ?? "silent",
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  console.log(`backend listening at ${address}`);
  try {
    const token = await signInWithPassword("agent@att.example");
    const headers = { authorization: `Bearer ${token}`, "x-operator": "ATT", "x-app-version": "3.2.1" };
    const call = async (path: string) => {
      const res = await fetch(`${address}${path}`, { headers });
      const body = (await res.json()) as { data?: unknown[]; lines?: unknown[] };
      if (res.status !== 200) console.error(`${path}: ${res.status} ${JSON.stringify(body)}`);
      return { status: res.status, rows: body.data?.length ?? body.lines?.length ?? 0 };
    };
    const kinds = Object.entries(KINDS);
    const searchAt = (i: number) => {
      const [label, make] = kinds[i % kinds.length]!;
      const sample = samples[Math.floor(i / kinds.length) % samples.length]!;
      return { label, url: `/api/v1/subscribers?q=${encodeURIComponent(make(sample))}&pageSize=20` };
    };
    console.log(`care_bench: ${JSON.stringify(size)}; ${samples.length} sampled subscribers; ${AGENTS} agents at once`);

    await load(AGENTS, Math.min(200, REQUESTS), searchAt, call); // warm-up: caches, pools, JIT

    const measureSearch = async (thinkMs: number) => {
      const search = await load(AGENTS, REQUESTS, (i) => searchAt(i + 7), call, thinkMs);
      console.log(
        `\nsearch, ${AGENTS} agents, ${thinkMs ? `${thinkMs} ms mean think time` : "no think time (saturation)"}: ${REQUESTS} requests in ${search.seconds.toFixed(1)} s (${(REQUESTS / search.seconds).toFixed(0)}/s)`,
      );
      console.log(
        `${"kind".padEnd(18)} ${"n".padStart(5)} ${"rows".padStart(6)} ${"p50".padStart(7)} ${"p95".padStart(7)} ${"p99".padStart(7)}`,
      );
      const byKind: Record<string, unknown> = {};
      for (const [label] of kinds) {
        const f = figures(search.times.get(label) ?? []);
        const rows = search.rows.get(label) ?? [];
        const meanRows = rows.reduce((a, b) => a + b, 0) / Math.max(1, rows.length);
        byKind[label] = { ...f, mean_rows: +meanRows.toFixed(1) };
        console.log(
          `${label.padEnd(18)} ${String(f.n).padStart(5)} ${meanRows.toFixed(1).padStart(6)} ${String(f.p50_ms).padStart(7)} ${String(f.p95_ms).padStart(7)} ${String(f.p99_ms).padStart(7)}`,
        );
      }
      const all = figures([...search.times.values()].flat());
      console.log(
        `${"all".padEnd(18)} ${String(all.n).padStart(5)} ${"".padStart(6)} ${String(all.p50_ms).padStart(7)} ${String(all.p95_ms).padStart(7)} ${String(all.p99_ms).padStart(7)}`,
      );
      return { think_ms: thinkMs, requests_per_s: +(REQUESTS / search.seconds).toFixed(1), all, byKind };
    };

    // The 360's first request (the account with its lines), then the sections it loads lazily after.
    const views = [
      ["360 first request: GET /subscribers/{id}", (s: Sample) => `/api/v1/subscribers/${s.id}`],
      ["section: lines of the account", (s: Sample) => `/api/v1/lines?filter[accountId]=${s.id}&pageSize=10`],
      ["section: orders of the account", (s: Sample) => `/api/v1/orders?filter[accountId]=${s.id}&pageSize=10`],
      ["section: notifications sent", (s: Sample) => `/api/v1/subscribers/${s.id}/notifications?pageSize=10`],
    ] as const;
    const viewAt = (view: number) => (i: number) => ({
      label: views[view]![0],
      url: views[view]![1](samples[(i * 31) % samples.length]!),
    });
    const measureViews = async (thinkMs: number) => {
      const view360: Record<string, ReturnType<typeof figures>> = {};
      console.log(
        `\n360 view, ${AGENTS} agents, ${thinkMs ? `${thinkMs} ms mean think time` : "no think time (saturation)"}`,
      );
      for (let v = 0; v < views.length; v++) {
        await load(AGENTS, 50, viewAt(v), call);
        const run = await load(AGENTS, Math.max(200, REQUESTS / 4), viewAt(v), call, thinkMs);
        const f = figures([...run.times.values()].flat());
        view360[views[v]![0]] = f;
        console.log(`${views[v]![0].padEnd(44)} p50 ${f.p50_ms} ms  p95 ${f.p95_ms} ms  p99 ${f.p99_ms} ms`);
      }
      return view360;
    };

    // The admins' KPIs over periods of growing length, one admin at a time (issue 12, item 8: no full scans).
    const adminHeaders = { ...headers, authorization: `Bearer ${await signInWithPassword("admin@att.example")}` };
    const measureKpis = async () => {
      const kpis: Record<string, ReturnType<typeof figures>> = {};
      console.log("\nKPIs, one admin");
      for (const days of [30, 90, 366]) {
        const to = new Date().toISOString().slice(0, 10);
        const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
        const times: number[] = [];
        for (let i = 0; i < 12; i++) {
          const started = performance.now();
          const res = await fetch(`${address}/api/v1/kpis?from=${from}&to=${to}`, { headers: adminHeaders });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`GET /kpis answered ${res.status}`);
          if (i >= 2) times.push(performance.now() - started); // the first two warm the plans and caches
        }
        const f = figures(times);
        kpis[`${days} days`] = f;
        console.log(`${`GET /kpis over ${days} days`.padEnd(44)} p50 ${f.p50_ms} ms  p95 ${f.p95_ms} ms`);
      }
      return kpis;
    };

    const working = {
      search: await measureSearch(THINK_MS),
      view360: await measureViews(THINK_MS),
      kpis: await measureKpis(),
    };
    const saturated = { search: await measureSearch(0), view360: await measureViews(0) };
    const first = (run: typeof saturated) => run.view360[views[0][0]]!.p95_ms;
    console.log(
      `\ncare-search: search_p95_ms=${working.search.all.p95_ms} view360_first_p95_ms=${first(working)} (agents=${AGENTS}, think ${THINK_MS} ms; targets ${TARGET_SEARCH_P95_MS} / ${TARGET_360_P95_MS})` +
        ` saturated_search_p95_ms=${saturated.search.all.p95_ms} saturated_view360_first_p95_ms=${first(saturated)} accounts=${size.accounts} lines=${size.lines} usage_records=${size.usage_records}`,
    );
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(
      "bench/results/care-search.json",
      JSON.stringify(
        {
          at: new Date().toISOString(),
          database: size,
          agents: AGENTS,
          requests: REQUESTS,
          working,
          saturated,
          targets: { search_p95_ms: TARGET_SEARCH_P95_MS, view360_first_p95_ms: TARGET_360_P95_MS },
        },
        null,
        2,
      ),
    );
    console.log("written: bench/results/care-search.json");
  } finally {
    await app.close();
    await database.close();
    await emulator.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
