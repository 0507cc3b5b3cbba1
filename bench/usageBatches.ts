// What both usage-ingest benches send: 1,000 bench lines of the operator and batches of 10,000
// plausible records spread over them (bench/usage-ingest.ts over HTTP, usage-ingest-profile.ts in process).
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../server/db/client";

export const BATCH = 10_000;
export const LINES = 1_000;

/** 1,000 more lines of the operator (the numbers +1202700xxxx), in SQL. */
export async function seedBenchLines(database: Database): Promise<void> {
  await database.db.execute(sql`
    with account as (
      insert into accounts (operator_code, name, type) values ('ATT', 'Bench Fleet', 'postpaid') returning id
    )
    insert into lines (operator_code, account_id, msisdn, iccid, sim_type, plan_id, status, cycle_day)
    select 'ATT', account.id, '+1202700' || lpad(g::text, 4, '0'), '89014109' || lpad(g::text, 11, '0'), 'physical',
      (select id from plans where operator_code = 'ATT' and code = 'POST_50GB'), 'active', 1 + g % 28
    from account, generate_series(0, ${LINES - 1}) as g`);
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
