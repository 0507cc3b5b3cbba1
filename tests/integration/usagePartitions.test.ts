import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../server/db/rowsOf";
import { maintainUsagePartitions, MONTHS_AHEAD, usageMonths } from "../../server/domain/usage/partitions";
import type { DailyUsage } from "../../src/resources/usage";
import { ALEX } from "../support/fixtures";
import { sendNetworkUsage } from "../support/networkUsage";
import { startTestBackend, type TestBackend } from "../support/testBackend";

// Issue 30, item 5: usage_records by month (migration 0040), on PGlite and PostgreSQL alike. Records
// land in their month's partition; the daily maintenance makes the months ahead, moves strays out of
// the default partition, and drops months past the retention once every cycle that can hold them is
// billed. usage_daily, the chart's sums, by month of the cycle (0042), dropped past their own retention.
let backend: TestBackend;
const ALEX_PREPAID = "+12025550101";
const POSTPAID = "+12025550102";
const lineIds: Record<string, { id: string; accountId: string; type: string }> = {};

const db = () => backend.database.db;
const query = async <T>(text: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(text));
const monthsFrom = (date: Date, months: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
/** Where each record of these ids is stored. */
const placeOf = async (ids: string[]) =>
  Object.fromEntries(
    (
      await query<{ id: string; place: string }>(
        sql`select id, tableoid::regclass::text as place from usage_records where id = any(${sql.param(ids)}::text[])`,
      )
    ).map((row) => [row.id, row.place]),
  );
/** A record written straight to the table, as a month of old data would be. */
const storeRecord = (id: string, lineId: string, startedAt: string, cycleStart: string) =>
  db().execute(sql`
    insert into usage_records (operator_code, id, line_id, type, started_at, quantity, cycle_start)
    values ('ATT', ${id}, ${lineId}, 'data', ${startedAt}::timestamptz, 10, ${cycleStart}::date)`);

beforeAll(async () => {
  backend = await startTestBackend();
  for (const msisdn of [ALEX_PREPAID, POSTPAID]) {
    const [line] = await query<{ id: string; account_id: string; type: string }>(
      sql`select lines.id, lines.account_id, accounts.type from lines join accounts on accounts.id = lines.account_id
          where lines.msisdn = ${msisdn} and lines.operator_code = 'ATT'`,
    );
    lineIds[msisdn] = { id: line!.id, accountId: line!.account_id, type: line!.type };
  }
  expect(lineIds[POSTPAID]!.type).toBe("postpaid");
});

afterAll(async () => {
  await backend?.close();
});

describe("usage_records by month", () => {
  it("is partitioned by month, with last month to three ahead made, and the ingest writes into the month", async () => {
    const [kind] = await query<{ partitioned: boolean }>(
      sql`select relkind = 'p' as partitioned from pg_class where relname = 'usage_records'`,
    );
    expect(kind!.partitioned).toBe(true);
    const now = new Date();
    const months = await usageMonths(db());
    for (let ahead = -1; ahead <= MONTHS_AHEAD; ahead++) expect(months).toContain(monthsFrom(now, ahead));

    const id = `p-${randomUUID()}`;
    const res = await sendNetworkUsage(backend.app, [
      { id, msisdn: ALEX_PREPAID, type: "data", startedAt: new Date().toISOString(), quantity: 3 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const month = monthsFrom(now, 0);
    expect(await placeOf([id])).toEqual({ [id]: `usage_records_${month.slice(0, 4)}_${month.slice(5, 7)}` });
    // A replay is still a duplicate: the key holds the start time, which a replay repeats.
    const replay = await sendNetworkUsage(backend.app, [
      {
        id,
        msisdn: ALEX_PREPAID,
        type: "data",
        startedAt: rowsOf<{ at: string }>(
          await db().execute(sql`select to_json(started_at)#>>'{}' as at from usage_records where id = ${id}`),
        )[0]!.at,
        quantity: 3,
      },
    ]);
    expect(replay.json()).toMatchObject({ counted: 0, duplicates: 1 });
  });

  it("moves a record that fell outside every month into its month when the month is made", async () => {
    const line = lineIds[ALEX_PREPAID]!;
    const old = new Date(Date.UTC(new Date().getUTCFullYear() - 3, 4, 20, 12));
    const id = `p-${randomUUID()}`;
    await storeRecord(id, line.id, old.toISOString(), old.toISOString().slice(0, 10));
    expect(await placeOf([id])).toEqual({ [id]: "usage_records_default" });

    const made = await maintainUsagePartitions(db(), { today: old, retentionMonths: 120, dailyRetentionMonths: 120 });
    const may = `${old.getUTCFullYear()}-05-01`;
    expect(made.created).toContain(may);
    expect(await placeOf([id])).toEqual({ [id]: `usage_records_${old.getUTCFullYear()}_05` });
    // Twice is once.
    expect(
      await maintainUsagePartitions(db(), { today: old, retentionMonths: 120, dailyRetentionMonths: 120 }),
    ).toEqual({
      created: [],
      dropped: [],
      keptUnbilled: [],
      daily: { created: [], dropped: [] },
    });
  });

  it("drops a month past the retention once its postpaid cycles are billed, and keeps it until then", async () => {
    const now = new Date();
    const month = monthsFrom(now, -16); // 16 months ago: past a 13-month retention
    await maintainUsagePartitions(db(), { today: new Date(`${month}T00:00:00Z`), retentionMonths: 120 });
    const postpaid = lineIds[POSTPAID]!;
    const prepaid = lineIds[ALEX_PREPAID]!;
    const cycleStart = `${month.slice(0, 8)}10`;
    const ids = [`p-${randomUUID()}`, `p-${randomUUID()}`];
    await storeRecord(ids[0]!, postpaid.id, `${month.slice(0, 8)}12T08:00:00Z`, cycleStart);
    await storeRecord(ids[1]!, prepaid.id, `${month.slice(0, 8)}12T09:00:00Z`, cycleStart);
    // The postpaid line's cycle was counted and not billed.
    await db().execute(sql`
      insert into usage_counters (line_id, cycle_start, type, used, last_record_at) values (${postpaid.id}, ${cycleStart}::date, 'data', 10, now())
      on conflict do nothing`);
    const name = `usage_records_${month.slice(0, 4)}_${month.slice(5, 7)}`;

    const waiting = await maintainUsagePartitions(db(), { today: now, retentionMonths: 13 });
    expect(waiting.keptUnbilled).toContain(month);
    expect(waiting.dropped).not.toContain(month);
    expect(Object.keys(await placeOf(ids))).toHaveLength(2);

    await db().execute(sql`
      insert into invoices (operator_code, account_id, number, period_start, period_end, currency, subtotal_amount, tax_amount, total_amount, tax_rate_bps, due_on, status)
      select 'ATT', ${postpaid.accountId}, ${`P-${randomUUID().slice(0, 8)}`}, ${cycleStart}, ${cycleStart}, 'USD', 0, 0, 0, 0, ${cycleStart}, 'issued'`);
    const billed = await maintainUsagePartitions(db(), { today: now, retentionMonths: 13 });
    expect(billed.dropped).toContain(month);
    expect(await placeOf(ids)).toEqual({});
    expect(await usageMonths(db())).not.toContain(month);
    const [gone] = await query<{ n: number }>(sql`select count(*)::int as n from pg_class where relname = ${name}`);
    expect(gone!.n).toBe(0);
    // The months within the retention and those ahead stay.
    const months = await usageMonths(db());
    expect(months).toContain(monthsFrom(now, 0));
    expect(months).toContain(monthsFrom(now, MONTHS_AHEAD));
  });

  it("keeps each line's usage per day as it ingests, and the chart reads those sums, not the records", async () => {
    const line = lineIds[ALEX_PREPAID]!;
    const chart = async () => {
      const res = await backend.get(`/api/v1/lines/${line.id}/usage-daily`, { as: ALEX });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DailyUsage>();
    };
    const before = await chart();
    const today = new Date().toISOString().slice(0, 10);
    const dayOf = (usage: DailyUsage) => usage.days.find((d) => d.day === today) ?? { data: 0, voice: 0, sms: 0 };
    const ids = [`d-${randomUUID()}`, `d-${randomUUID()}`, `d-${randomUUID()}`] as const;
    const at = new Date().toISOString();
    const res = await sendNetworkUsage(backend.app, [
      { id: ids[0], msisdn: ALEX_PREPAID, type: "data", startedAt: at, quantity: 40 },
      { id: ids[1], msisdn: ALEX_PREPAID, type: "data", startedAt: at, quantity: 2 },
      { id: ids[2], msisdn: ALEX_PREPAID, type: "sms", startedAt: at, quantity: 1 },
    ]);
    expect(res.json()).toMatchObject({ counted: 3 });
    const after = await chart();
    expect(dayOf(after).data - dayOf(before).data).toBe(42);
    expect(dayOf(after).sms - dayOf(before).sms).toBe(1);
    // Without the records (as once their month is past the retention) the chart is the same.
    await db().execute(sql`delete from usage_records where id = any(${sql.param(ids)}::text[])`);
    expect(await chart()).toEqual(after);
  });

  /** A table's storage parameters, comma-separated ("" when it has none). */
  const storageOf = async (table: string) =>
    (
      await query<{ options: string | null }>(
        sql`select array_to_string(reloptions, ',') as options from pg_class where relname = ${table}`,
      )
    )[0]?.options ?? "";

  it("leaves half of each page of the counters and of every month of daily sums free, for updates in place", async () => {
    expect(await storageOf("usage_counters")).toContain("fillfactor=50");
    const months = await usageMonths(db(), "usage_daily");
    expect(months.length).toBeGreaterThan(0);
    for (const month of months)
      expect(await storageOf(`usage_daily_${month.slice(0, 4)}_${month.slice(5, 7)}`)).toBe("fillfactor=50");
    expect(await storageOf("usage_daily_default")).toBe("fillfactor=50");
    expect(await storageOf("usage_records_default")).toBe("");
  });

  it("keeps the daily sums by month of their cycle, and drops a month past their retention", async () => {
    const [kind] = await query<{ partitioned: boolean }>(
      sql`select relkind = 'p' as partitioned from pg_class where relname = 'usage_daily'`,
    );
    expect(kind!.partitioned).toBe(true);
    const now = new Date();
    const months = await usageMonths(db(), "usage_daily");
    for (let ahead = -1; ahead <= MONTHS_AHEAD; ahead++) expect(months).toContain(monthsFrom(now, ahead));
    // The chart's cycle is in its cycle's month: the sums the ingest just kept are there.
    const line = lineIds[ALEX_PREPAID]!;
    const places = await query<{ place: string; cycle: string }>(
      sql`select distinct tableoid::regclass::text as place, to_char(cycle_start, 'YYYY-MM') as cycle from usage_daily where line_id = ${line.id}`,
    );
    expect(places.length).toBeGreaterThan(0);
    for (const { place, cycle } of places) expect(place).toBe(`usage_daily_${cycle.replace("-", "_")}`);

    // Sums of a cycle 30 months back, stored before its month existed: moved into it when it is made,
    // kept within a retention of 36 months, dropped past the default 25.
    const old = monthsFrom(now, -30);
    await db().execute(sql`
      insert into usage_daily (line_id, cycle_start, day, type, quantity)
      values (${line.id}, ${`${old.slice(0, 8)}10`}::date, ${`${old.slice(0, 8)}12`}::date, 'data', 7)`);
    const stray = async () =>
      (
        await query<{ place: string }>(
          sql`select tableoid::regclass::text as place from usage_daily where line_id = ${line.id} and cycle_start = ${`${old.slice(0, 8)}10`}::date`,
        )
      ).map((row) => row.place);
    expect(await stray()).toEqual(["usage_daily_default"]);
    const made = await maintainUsagePartitions(db(), { today: new Date(`${old}T00:00:00Z`), retentionMonths: 120 });
    expect(made.daily.created).toContain(old);
    const name = `usage_daily_${old.slice(0, 4)}_${old.slice(5, 7)}`;
    expect(await storageOf(name)).toContain("fillfactor=50");
    expect(await stray()).toEqual([name]);
    const kept = await maintainUsagePartitions(db(), { today: now, retentionMonths: 120, dailyRetentionMonths: 36 });
    expect(kept.daily.dropped).not.toContain(old);
    const dropped = await maintainUsagePartitions(db(), { today: now, retentionMonths: 120 });
    expect(dropped.daily.dropped).toContain(old);
    expect(await stray()).toEqual([]);
    expect(await usageMonths(db(), "usage_daily")).not.toContain(old);
    expect(await usageMonths(db(), "usage_daily")).toContain(monthsFrom(now, 0));
  });
});
