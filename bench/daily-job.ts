// The carrier's daily job (runBillingDay: prepaid renewals, grace, postpaid cycle close, overdue,
// add-on renewals) on a day when every account is due, on PostgreSQL: how long a day takes, what
// each account costs, and what that makes at 1M and 10M accounts at the same rate (issue 30,
// item 1). The data is care-seed's (accounts, their lines and plans) in a database of its own,
// `daily_bench`, made fresh each run so the day is due again; every line gets the same cycle day,
// half the prepaid accounts can pay their renewal and half cannot (they enter grace).
// Prints figures; never fails on them.
//
//   npm run bench:daily-job                 (ACCOUNTS=10000; more accounts, a steadier per-account figure)
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openDatabase } from "../server/db/client";
import { ACCOUNTS_PER_PAGE, PAGES_AT_ONCE, runBillingDay } from "../server/domain/billingRuns/run";
import { TEST_DATABASE_URL } from "../tests/support/testDatabase";

const ACCOUNTS = Number(process.env.ACCOUNTS ?? 10_000);
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
    await client.query("vacuum analyze");
    const { rows } = await client.query<{ prepaid: string; postpaid: string; lines: string }>(`
      select count(*) filter (where type = 'prepaid') as prepaid, count(*) filter (where type = 'postpaid') as postpaid,
        (select count(*) from lines where status = 'active') as lines from accounts where email like '%@bench.example'`);
    return { prepaid: Number(rows[0]!.prepaid), postpaid: Number(rows[0]!.postpaid), lines: Number(rows[0]!.lines) };
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
    const run = async () => {
      const started = performance.now();
      const result = await runBillingDay({ db: database.db }, { operatorCode: "ATT", asOf: AS_OF, log: quiet });
      return { ms: performance.now() - started, result };
    };
    const first = await run();
    const again = await run();
    const accounts = due.prepaid + due.postpaid;
    const perAccount = first.ms / accounts;
    const perAccountAgain = again.ms / accounts;
    const hours = (ms: number) =>
      ms < 7_200_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 3_600_000).toFixed(1)} h`;
    console.log(
      `\nDaily job as of ${AS_OF}, every account due: ${due.prepaid} prepaid and ${due.postpaid} postpaid accounts, ${due.lines} active lines`,
    );
    console.log(
      `first run     ${(first.ms / 1000).toFixed(1)} s  ${perAccount.toFixed(2)} ms per account  ${JSON.stringify(first.result)}`,
    );
    console.log(
      `same day again ${(again.ms / 1000).toFixed(1)} s  ${perAccountAgain.toFixed(2)} ms per account  ${JSON.stringify(again.result)}`,
    );
    console.log(
      `projected at this rate (pages of ${ACCOUNTS_PER_PAGE} accounts, ${PAGES_AT_ONCE} at once, on this machine): 1M accounts ${hours(perAccount * 1e6)}, 10M accounts ${hours(perAccount * 1e7)} (target: 5 min at 1M)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
