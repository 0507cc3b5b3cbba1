// What both usage-ingest benches send: 1,000 bench lines of the operator and batches of 10,000
// plausible records spread over them (bench/usage-ingest.ts over HTTP, usage-ingest-profile.ts in process).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../server/db/client";

export const BATCH = 10_000;
export const LINES = 1_000;

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
 * 1,000 more lines of the operator (the numbers +1202700xxxx), in SQL, so that rating has real work
 * in every batch (issue 24): a quarter on a 50 GB postpaid plan that no batch fills (rated: nothing),
 * and three quarters on small bench plans (200 MB, 30 minutes, 10 texts) that the first batch or two
 * fill, so every later batch rates them past the allowance: postpaid overage charges (a fleet account,
 * one charge per line, type and zone per batch), prepaid lines of accounts of their own with $100
 * (rated from the balance, one usage entry per line per batch), and prepaid lines whose data stops at
 * the allowance with $3 (calls and texts rated until the balance runs out, then capped).
 */
export async function seedBenchLines(database: Database): Promise<void> {
  await database.db.execute(sql`
    insert into plans (operator_code, code, name, kind, status, price_amount, currency, data_mb, voice_minutes, sms, overage) values
      ('ATT', 'BENCH_POST', 'Bench postpaid 200 MB', 'postpaid', 'active', 1000, 'USD', 200, 30, 10, ${JSON.stringify(RATED)}::jsonb),
      ('ATT', 'BENCH_PRE', 'Bench prepaid 200 MB', 'prepaid', 'active', 1000, 'USD', 200, 30, 10, ${JSON.stringify(RATED)}::jsonb),
      ('ATT', 'BENCH_PRE_CAP', 'Bench prepaid 200 MB, data capped', 'prepaid', 'active', 1000, 'USD', 200, 30, 10, ${JSON.stringify(DATA_CAPPED)}::jsonb)`);
  await database.db.execute(sql`
    with fleet as (
      insert into accounts (operator_code, name, type) values ('ATT', 'Bench Fleet', 'postpaid') returning id
    ), prepaid as (
      insert into accounts (operator_code, name, type, email)
      select 'ATT', 'Bench Prepaid ' || g, 'prepaid', 'bench' || g || '@example.com' from generate_series(0, ${LINES - 1}) as g where g % 4 >= 2
      returning id, name
    ), owners as (
      select g, coalesce((select id from prepaid where name = 'Bench Prepaid ' || g), (select id from fleet)) as account_id from generate_series(0, ${LINES - 1}) as g
    )
    insert into lines (operator_code, account_id, msisdn, iccid, sim_type, plan_id, status, cycle_day)
    select 'ATT', owners.account_id, '+1202700' || lpad(g::text, 4, '0'), '89014109' || lpad(g::text, 11, '0'), 'physical',
      (select id from plans where operator_code = 'ATT' and code = (array['POST_50GB', 'BENCH_POST', 'BENCH_PRE', 'BENCH_PRE_CAP'])[1 + g % 4]), 'active', 1 + g % 28
    from owners`);
  // The prepaid balances, through the ledger (its trigger moves them).
  await database.db.execute(sql`
    insert into ledger_entries (operator_code, account_id, kind, amount, currency, reason, actor_role)
    select 'ATT', a.id, 'top_up', case when p.code = 'BENCH_PRE' then 10000 else 300 end, 'USD', 'Bench balance', 'system'
    from accounts a join lines l on l.account_id = a.id join plans p on p.id = l.plan_id
    where a.name like 'Bench Prepaid %'`);
}

/** A batch body of 10,000 new records (fresh ids) from the last hour: 60 % data, 30 % voice, 10 % SMS, 4 % roaming. */
export function batchBody(): string {
  const now = Date.now();
  const records = Array.from({ length: BATCH }, (_, i) => {
    const type = i % 10 < 6 ? "data" : i % 10 < 9 ? "voice" : "sms";
    return {
      id: randomUUID(),
      msisdn: `+1202700${String(Math.floor(Math.random() * LINES)).padStart(4, "0")}`,
      type,
      startedAt: new Date(now - Math.floor(Math.random() * 3_600_000)).toISOString(),
      quantity: type === "data" ? 1 + (i % 40) : type === "voice" ? 5 + (i % 600) : 1,
      ...(i % 25 === 0 ? { roamingZone: "europe" } : {}),
    };
  });
  return JSON.stringify({ records });
}
