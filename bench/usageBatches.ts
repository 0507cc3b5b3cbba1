// What both usage-ingest benches send: 1,000 bench lines of the operator and batches of 10,000
// plausible records spread over them (bench/usage-ingest.ts over HTTP, usage-ingest-profile.ts in process).
// BATCH_SIZE (at most the API's 10,000) and LINES change both; with fewer records a line per batch
// the bench plans' allowances shrink in proportion, so the same share of lines is past its allowance
// after the first batch whatever the spread. RATED_PERCENT (75) is that share.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../server/db/client";
import { MAX_INGEST_BATCH } from "../src/resources/usage";

export const BATCH = Number(process.env.BATCH_SIZE ?? 10_000);
export const LINES = Number(process.env.LINES ?? 1_000);
/** Of the bench lines, the percentage on the small bench plans that every batch takes past their allowance (75 unless told). */
export const RATED_PERCENT = Number(process.env.RATED_PERCENT ?? 75);
if (!Number.isInteger(RATED_PERCENT) || RATED_PERCENT < 0 || RATED_PERCENT > 100)
  throw new Error("RATED_PERCENT takes a whole number from 0 to 100");
if (!Number.isInteger(BATCH) || BATCH < 1 || BATCH > MAX_INGEST_BATCH)
  throw new Error(`BATCH_SIZE takes a whole number from 1 to ${MAX_INGEST_BATCH}`);
if (!Number.isInteger(LINES) || LINES < 4 || LINES > 100_000)
  throw new Error("LINES takes a whole number from 4 to 100,000");
/** The bench plans' allowances: 200 MB, 30 minutes and 10 texts for batches of 10,000 over 1,000 lines, less for fewer records a line. */
const SCALE = Math.min(1, (1_000 / LINES) * (BATCH / 10_000));
const ALLOWANCE = {
  dataMb: Math.max(1, Math.round(200 * SCALE)),
  minutes: Math.max(1, Math.round(30 * SCALE)),
  sms: Math.max(1, Math.round(10 * SCALE)),
};
/** The bench lines' numbers: +1202700 and four digits, or +120270 and five past 10,000 lines. */
const DIGITS = LINES > 10_000 ? 5 : 4;
const PREFIX = LINES > 10_000 ? "+120270" : "+1202700";

const usd = (amount: number) => ({ amount, currency: "USD" });
/** What the bench plans charge past their allowance (issue 24): per MB, minute and text; dearer in Europe. */
const RATED = {
  data: { unitMb: 1, price: usd(1) },
  voice: { price: usd(10) },
  sms: { price: usd(5) },
  roaming: { europe: { data: { unitMb: 1, price: usd(5) }, voice: null, sms: null } },
};
const DATA_CAPPED = { ...RATED, data: null, roaming: {} };

/**
 * LINES more lines of the operator (1,000 unless told: the numbers +1202700xxxx), in SQL, so that
 * rating has real work in every batch (issue 24): RATED_PERCENT of them (three quarters unless told)
 * on small bench plans (200 MB, 30 minutes, 10 texts, less: see SCALE) that the first batch or two
 * fill, so every later batch rates them past the allowance: postpaid overage charges (a fleet account,
 * one charge per line, type and zone per batch), prepaid lines of accounts of their own with $100
 * (rated from the balance, one usage entry per line per batch), and prepaid lines whose data stops at
 * the allowance with $3 (calls and texts rated until the balance runs out, then capped). The rest are
 * on a 50 GB postpaid plan that no batch fills (rated: nothing).
 */
export async function seedBenchLines(database: Database): Promise<void> {
  await database.db.execute(sql`
    insert into plans (operator_code, code, name, kind, status, price_amount, currency, data_mb, voice_minutes, sms, overage) values
      ('ATT', 'BENCH_POST', 'Bench postpaid', 'postpaid', 'active', 1000, 'USD', ${ALLOWANCE.dataMb}, ${ALLOWANCE.minutes}, ${ALLOWANCE.sms}, ${JSON.stringify(RATED)}::jsonb),
      ('ATT', 'BENCH_PRE', 'Bench prepaid', 'prepaid', 'active', 1000, 'USD', ${ALLOWANCE.dataMb}, ${ALLOWANCE.minutes}, ${ALLOWANCE.sms}, ${JSON.stringify(RATED)}::jsonb),
      ('ATT', 'BENCH_PRE_CAP', 'Bench prepaid, data capped', 'prepaid', 'active', 1000, 'USD', ${ALLOWANCE.dataMb}, ${ALLOWANCE.minutes}, ${ALLOWANCE.sms}, ${JSON.stringify(DATA_CAPPED)}::jsonb)`);
  // Each line's plan: RATED_PERCENT of them on the three bench plans in turn, the rest on the 50 GB plan.
  const planOf = sql`(case when g % 100 < ${RATED_PERCENT} then 1 + g % 3 else 0 end)`;
  await database.db.execute(sql`
    with fleet as (
      insert into accounts (operator_code, name, type) values ('ATT', 'Bench Fleet', 'postpaid') returning id
    ), prepaid as (
      insert into accounts (operator_code, name, type, email)
      select 'ATT', 'Bench Prepaid ' || g, 'prepaid', 'bench' || g || '@example.com' from generate_series(0, ${LINES - 1}) as g where ${planOf} >= 2
      returning id, name
    ), owners as (
      select g, coalesce(prepaid.id, (select id from fleet)) as account_id
      from generate_series(0, ${LINES - 1}) as g left join prepaid on prepaid.name = 'Bench Prepaid ' || g
    )
    insert into lines (operator_code, account_id, msisdn, iccid, sim_type, plan_id, status, cycle_day)
    select 'ATT', owners.account_id, ${PREFIX} || lpad(g::text, ${DIGITS}, '0'), '89014109' || lpad(g::text, 11, '0'), 'physical',
      (select id from plans where operator_code = 'ATT' and code = (array['POST_50GB', 'BENCH_POST', 'BENCH_PRE', 'BENCH_PRE_CAP'])[1 + ${planOf}]), 'active', 1 + g % 28
    from owners`);
  // The prepaid balances, through the ledger (its trigger moves them). Statistics first: the
  // trigger's plan, made while accounts held a few rows, scans them all (at 100,000 lines: minutes).
  await database.db.execute(sql`analyze accounts, lines`);
  await database.db.execute(sql`
    insert into ledger_entries (operator_code, account_id, kind, amount, currency, reason, actor_role)
    select 'ATT', a.id, 'top_up', case when p.code = 'BENCH_PRE' then 10000 else 300 end, 'USD', 'Bench balance', 'system'
    from accounts a join lines l on l.account_id = a.id join plans p on p.id = l.plan_id
    where a.name like 'Bench Prepaid %'`);
}

/** A batch body of BATCH new records (fresh ids) from the last hour: 60 % data, 30 % voice, 10 % SMS, 4 % roaming. */
export function batchBody(): string {
  const now = Date.now();
  const records = Array.from({ length: BATCH }, (_, i) => {
    const type = i % 10 < 6 ? "data" : i % 10 < 9 ? "voice" : "sms";
    return {
      id: randomUUID(),
      msisdn: `${PREFIX}${String(Math.floor(Math.random() * LINES)).padStart(DIGITS, "0")}`,
      type,
      startedAt: new Date(now - Math.floor(Math.random() * 3_600_000)).toISOString(),
      quantity: type === "data" ? 1 + (i % 40) : type === "voice" ? 5 + (i % 600) : 1,
      ...(i % 25 === 0 ? { roamingZone: "europe" } : {}),
    };
  });
  return JSON.stringify({ records });
}
