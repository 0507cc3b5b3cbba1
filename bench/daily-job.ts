// The carrier's daily job (runBillingDay: prepaid renewals, grace, postpaid cycle close, overdue,
// add-on renewals) on a day when every account is due, on PostgreSQL: how long a day takes, what
// each account costs, and what that makes at 1M and 10M accounts at the same rate (issue 30,
// item 1). The data is care-seed's (accounts, their lines and plans) in a database of its own,
// `daily_bench`, made fresh each run so the day is due again; every line gets the same cycle day,
// half the prepaid accounts can pay their renewal and half cannot (they enter grace).
// Prints figures; never fails on them.
//
// With QUEUE=N (issue 30: "parallel workers through the job queue") the day goes as the daily job
// sends it: `billing.run-day` shares it out as BILLING_DAY_PARTS part jobs through pg-boss, and N
// job queues (N backends, each with its own pool and two part workers) take them; the clock runs
// from the send until every part job has completed, and their outputs are summed.
//
//   npm run bench:daily-job                 (ACCOUNTS=10000; more accounts, a steadier per-account figure)
//   QUEUE=2 npm run bench:daily-job         (through the job queue, two backends)
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openDatabase } from "../server/db/client";
import {
  ACCOUNTS_PER_PAGE,
  PAGES_AT_ONCE,
  runBillingDay,
  type BillingRunResult,
} from "../server/domain/billingRuns/run";
import {
  BILLING_DAY_JOB,
  BILLING_DAY_PART_JOB,
  BILLING_DAY_PARTS,
  billingJobs,
} from "../server/domain/money/billingJobs";
import type { EngineServices } from "../server/engine/services";
import { startJobQueue } from "../server/jobs/jobQueue";
import { TEST_DATABASE_URL } from "../tests/support/testDatabase";

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 10_000);
const QUEUE = Number(process.env.QUEUE ?? 0);
const DB = "daily_bench";
/** The day the bench runs: every line's cycle starts on the 1st. */
const AS_OF = "2026-12-01";

const url = (() => {
  const u = new URL(TEST_DATABASE_URL);
  u.pathname = `/${DB}`;
  return u.toString();
})();

function seed() {
  // care-seed makes the accounts and lines (its own database name, its own sizes); no usage records.
  const started = performance.now();
  const seeded = spawnSync("npx", ["tsx", "bench/care-seed.ts"], {
    env: { ...process.env, CARE_BENCH_DB: DB, ACCOUNTS: String(ACCOUNTS), USAGE: "0", RESEED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (seeded.status !== 0) throw new Error(`care-seed failed (${seeded.status})`);
  console.log(`seeded ${ACCOUNTS} accounts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** Every line due on AS_OF; half the prepaid accounts hold enough for their renewals, half hold nothing. */
async function makeTheDayDue() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`update lines set cycle_day = 1, renewed_cycle_start = null, created_at = '2026-10-15'
      where status in ('active', 'suspended')`);
    // Money only moves through the ledger (the balance follows its entries): a top-up for half of them.
    await client.query(`insert into ledger_entries (operator_code, account_id, kind, amount, currency, reason, actor_role)
      select 'ATT', id, 'top_up', 100000, 'USD', 'bench top-up', 'admin' from accounts
      where type = 'prepaid' and email like '%@bench.example' and hashtext(id::text) % 2 = 0`);
    // One line in five has an auto-renewing 1 GB pass that runs out on the day (after the plan renews,
    // so prepaid lines in grace let theirs expire): the add-on step works at scale too.
    await client.query(`
      with pass as (
        select id, price_amount, data_mb from add_ons where operator_code = 'ATT' and code = 'DATA_1GB'
      ), bought as (
        insert into orders (operator_code, account_id, line_id, type, state, requested_by, requested_by_role, created_at)
        select 'ATT', l.account_id, l.id, 'add_on', 'completed', 'bench', 'subscriber', '2026-11-01'
        from lines l where l.status = 'active' and hashtext(l.id::text) % 5 = 0
        returning id, account_id, line_id
      )
      insert into add_on_purchases (operator_code, line_id, account_id, add_on_id, order_id, data_mb, auto_renew, starts_at, expires_at)
      select 'ATT', b.line_id, b.account_id, pass.id, b.id, pass.data_mb, true, '${AS_OF}'::timestamptz - interval '30 days',
        '${AS_OF}'::timestamptz + interval '6 hours'
      from bought b, pass`);
    await client.query("vacuum analyze");
    const { rows } = await client.query<{ prepaid: string; postpaid: string; lines: string; add_ons: string }>(`
      select count(*) filter (where type = 'prepaid') as prepaid, count(*) filter (where type = 'postpaid') as postpaid,
        (select count(*) from lines where status = 'active') as lines, (select count(*) from add_on_purchases) as add_ons
      from accounts where email like '%@bench.example'`);
    return {
      prepaid: Number(rows[0]!.prepaid),
      postpaid: Number(rows[0]!.postpaid),
      lines: Number(rows[0]!.lines),
      addOns: Number(rows[0]!.add_ons),
    };
  } finally {
    await client.end();
  }
}

async function main() {
  seed();
  const due = await makeTheDayDue();
  const database = await openDatabase({ url, dataDir: "" });
  try {
    const quiet = { error: () => undefined, warn: () => undefined };
    const inProcess = async () => {
      const started = performance.now();
      const result = await runBillingDay({ db: database.db }, { operatorCode: "ATT", asOf: AS_OF, log: quiet });
      return { ms: performance.now() - started, result };
    };
    const run = QUEUE > 0 ? () => throughTheQueue(database) : inProcess;
    const first = await run();
    const addOns = (
      await database.executeSql!(
        `select count(*) filter (where renewals > 0) as renewed, count(*) filter (where status = 'expired') as expired from add_on_purchases`,
        [],
      )
    ).rows[0] as { renewed: string; expired: string };
    const again = await run();
    const accounts = due.prepaid + due.postpaid;
    const perAccount = first.ms / accounts;
    const perAccountAgain = again.ms / accounts;
    const hours = (ms: number) =>
      ms < 7_200_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`;
    console.log(
      `\nDaily job as of ${AS_OF}, every account due: ${due.prepaid} prepaid and ${due.postpaid} postpaid accounts, ${due.lines} active lines, ${due.addOns} add-ons running out`,
    );
    console.log(
      `first run     ${(first.ms / 1000).toFixed(1)} s  ${perAccount.toFixed(2)} ms per account  ${JSON.stringify(first.result)}`,
    );
    console.log(`add-ons        ${addOns.renewed} renewed, ${addOns.expired} expired (of ${due.addOns})`);
    console.log(
      `same day again ${(again.ms / 1000).toFixed(1)} s  ${perAccountAgain.toFixed(2)} ms per account  ${JSON.stringify(again.result)}`,
    );
    const how =
      QUEUE > 0
        ? `${BILLING_DAY_PARTS} part jobs through pg-boss, ${QUEUE} backend${QUEUE > 1 ? "s" : ""} with 2 part workers each, 2 pages of ${ACCOUNTS_PER_PAGE} at once in a part`
        : `pages of ${ACCOUNTS_PER_PAGE} accounts, ${PAGES_AT_ONCE} at once, in one process`;
    console.log(
      `projected at this rate (${how}, on this machine): 1M accounts ${hours(perAccount * 1e6)}, 10M accounts ${hours(perAccount * 1e7)} (target: 5 min at 1M)`,
    );
  } finally {
    await database.close();
  }
}

/**
 * The day as the daily job runs it: QUEUE backends (each its own pool and job queue with the billing
 * jobs) on the bench database; one sends `billing.run-day` for AS_OF, and the clock stops when every
 * part job of that day has completed. Answers the parts' counters summed (their jobs' outputs).
 */
async function throughTheQueue(first: Awaited<ReturnType<typeof openDatabase>>) {
  // One after the other: two pg-boss instances creating their schema at once on a new database collide.
  const backends: { database: Awaited<ReturnType<typeof openDatabase>>; services: EngineServices }[] = [];
  for (let i = 0; i < QUEUE; i++) {
    const database = i === 0 ? first : await openDatabase({ url, dataDir: "" });
    const services = { db: database.db } as EngineServices;
    const quiet = { error: () => undefined, info: () => undefined };
    services.jobs = await startJobQueue(database, billingJobs(services), { log: quiet, pollingIntervalSeconds: 0.5 });
    backends.push({ database, services });
  }
  const parts = async () =>
    (
      await first.executeSql!(
        `select id, state, output from pgboss.job where name = $1 and data->>'asOf' = $2 and data->>'operatorCode' = 'ATT'`,
        [BILLING_DAY_PART_JOB, AS_OF],
      )
    ).rows as { id: string; state: string; output: BillingRunResult | null }[];
  // A second run of the day sends parts again: this run's are the ones not there before it.
  const earlier = new Set((await parts()).map((p) => p.id));
  try {
    const started = performance.now();
    await backends[0]!.services.jobs!.send(BILLING_DAY_JOB, { asOf: AS_OF });
    for (;;) {
      const mine = (await parts()).filter((p) => !earlier.has(p.id));
      if (mine.some((p) => p.state === "failed")) throw new Error("a part of the day failed");
      const done = mine.filter((p) => p.state === "completed");
      if (done.length === BILLING_DAY_PARTS) {
        const ms = performance.now() - started;
        const result: BillingRunResult = { renewed: 0, enteredGrace: 0, suspended: 0, billsIssued: 0, overdue: 0 };
        for (const p of done)
          for (const k of Object.keys(result) as (keyof BillingRunResult)[]) result[k] += p.output?.[k] ?? 0;
        return { ms, result };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    for (const [i, b] of backends.entries()) {
      await b.services.jobs!.stop();
      if (i > 0) await b.database.close();
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
