import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rowsOf";

// usage_records is partitioned by month of started_at, UTC (migration 0040): usage_records_2026_11
// holds November 2026; usage_daily, the chart's daily sums, by month of their cycle's start (0042).
// Each day the maintenance makes both tables' months up to MONTHS_AHEAD ahead, so the ingest never
// writes into a default partition but for a record far in the past or future; it drops the raw
// months older than their retention once every cycle that could hold their records is billed, and
// the daily sums' months older than theirs (a chart of a cycle two years back is history enough).

/** Months of raw usage kept unless USAGE_RETENTION_MONTHS says otherwise. */
export const DEFAULT_USAGE_RETENTION_MONTHS = 13;
/** Months of daily sums (the usage chart's) kept unless USAGE_DAILY_RETENTION_MONTHS says otherwise. */
export const DEFAULT_USAGE_DAILY_RETENTION_MONTHS = 25;
/** Months made ahead of the current one, and behind it (records arrive late: last month's too). */
export const MONTHS_AHEAD = 3;
const MONTHS_BEHIND = 1;

/**
 * A table kept in months: its name, the column its months are of, how a month's first instant is
 * written, and the storage parameters of a month (a partitioned table takes none of its own).
 */
interface MonthlyTable {
  name: "usage_records" | "usage_daily";
  column: string;
  bound: (month: string) => string;
  storage?: string;
}
const RECORDS: MonthlyTable = { name: "usage_records", column: "started_at", bound: (m) => `'${m} 00:00:00+00'` };
// Each batch updates its lines' daily sums: half of each page free keeps the updates on their page (migration 0048).
const DAILY: MonthlyTable = {
  name: "usage_daily",
  column: "cycle_start",
  bound: (m) => `'${m}'`,
  storage: "with (fillfactor = 50)",
};

/** The first day of `date`'s month, `months` later (UTC), as YYYY-MM-DD. */
const monthStart = (date: Date, months = 0) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
/** The first day of the month `months` after `month` (YYYY-MM-01). */
const monthsAfter = (month: string, months: number) => monthStart(new Date(`${month}T00:00:00Z`), months);
const partitionOf = (table: MonthlyTable, month: string) => `${table.name}_${month.slice(0, 4)}_${month.slice(5, 7)}`;

/** The months of usage_records (or of usage_daily) that have a partition (YYYY-MM-01), oldest first. */
export async function usageMonths(db: Db, table: MonthlyTable["name"] = "usage_records"): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select child.relname as name from pg_inherits
      join pg_class child on child.oid = pg_inherits.inhrelid
      where pg_inherits.inhparent = ${table}::regclass`),
  );
  const pattern = new RegExp(`^${table}_(\\d{4})_(\\d{2})$`);
  return rows
    .map((row) => pattern.exec(row.name))
    .filter((match): match is RegExpExecArray => !!match)
    .map((match) => `${match[1]}-${match[2]}-01`)
    .sort();
}

/**
 * Makes the table's partition of `month` (YYYY-MM-01). Rows of that month that fell into the default
 * partition before it existed move into it, in the same transaction (PostgreSQL refuses a new
 * partition whose rows sit in the default one).
 */
async function createMonth(db: Db, table: MonthlyTable, month: string) {
  const from = sql.raw(table.bound(month));
  const to = sql.raw(table.bound(monthsAfter(month, 1)));
  const column = sql.identifier(table.column);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temporary table moving_rows on commit drop as
      with moved as (
        delete from ${sql.identifier(`${table.name}_default`)} where ${column} >= ${from} and ${column} < ${to} returning *
      ) select * from moved`);
    await tx.execute(
      sql`create table ${sql.identifier(partitionOf(table, month))} partition of ${sql.identifier(table.name)} for values from (${from}) to (${to}) ${sql.raw(table.storage ?? "")}`,
    );
    await tx.execute(sql`insert into ${sql.identifier(table.name)} select * from moving_rows`);
  });
}

/** Makes the table's months from last month to MONTHS_AHEAD ahead that it lacks; the months it made. */
async function createMonthsAround(db: Db, table: MonthlyTable, today: Date): Promise<string[]> {
  const have = new Set(await usageMonths(db, table.name));
  const created: string[] = [];
  for (let ahead = -MONTHS_BEHIND; ahead <= MONTHS_AHEAD; ahead++) {
    const month = monthStart(today, ahead);
    if (have.has(month)) continue;
    await createMonth(db, table, month);
    created.push(month);
  }
  return created;
}

/**
 * Whether some postpaid cycle that can hold records started before `before` (the month's end) and
 * from `since` (a month before the month's start: a cycle runs a month) has no bill yet: its usage
 * is still to be itemized, so the month stays.
 */
async function hasUnbilledCycles(db: Db, since: string, before: string): Promise<boolean> {
  const rows = rowsOf<{ unbilled: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from usage_counters
        join lines on lines.id = usage_counters.line_id
        join accounts on accounts.id = lines.account_id and accounts.type = 'postpaid'
        where usage_counters.cycle_start >= ${since}::date and usage_counters.cycle_start < ${before}::date
          and not exists (
            select 1 from invoices
            where invoices.account_id = accounts.id and invoices.period_start = usage_counters.cycle_start::text
          )
      ) as unbilled`),
  );
  return rows[0]!.unbilled;
}

export interface UsagePartitionsResult {
  /** Months of raw records made (YYYY-MM-01). */
  created: string[];
  /** Months of raw records dropped: older than the retention, every cycle billed. */
  dropped: string[];
  /** Months older than the retention kept because a postpaid cycle that can hold them has no bill yet. */
  keptUnbilled: string[];
  /** The daily sums' months (of their cycles' starts) made and dropped. */
  daily: { created: string[]; dropped: string[] };
}

/**
 * The day's partition work as of `today`: make last month to the months ahead of both tables, drop
 * the expired ones. Idempotent.
 */
export async function maintainUsagePartitions(
  db: Db,
  options: { today?: Date; retentionMonths?: number; dailyRetentionMonths?: number } = {},
): Promise<UsagePartitionsResult> {
  const today = options.today ?? new Date();
  const retentionMonths = options.retentionMonths ?? DEFAULT_USAGE_RETENTION_MONTHS;
  const dailyRetentionMonths = options.dailyRetentionMonths ?? DEFAULT_USAGE_DAILY_RETENTION_MONTHS;
  const have = await usageMonths(db);
  const result: UsagePartitionsResult = {
    created: await createMonthsAround(db, RECORDS, today),
    dropped: [],
    keptUnbilled: [],
    daily: { created: await createMonthsAround(db, DAILY, today), dropped: [] },
  };
  // A month expires when it ended at least `retentionMonths` months before today's month began.
  const keepFrom = monthStart(today, -retentionMonths);
  for (const month of have) {
    const end = monthsAfter(month, 1);
    if (end > keepFrom) continue;
    if (await hasUnbilledCycles(db, monthsAfter(month, -1), end)) {
      result.keptUnbilled.push(month);
      continue;
    }
    await db.execute(sql`drop table if exists ${sql.identifier(partitionOf(RECORDS, month))}`);
    result.dropped.push(month);
  }
  // The daily sums bill nothing (bills read the counters and the rated charges): they simply expire.
  const keepDailyFrom = monthStart(today, -dailyRetentionMonths);
  for (const month of await usageMonths(db, DAILY.name)) {
    if (monthsAfter(month, 1) > keepDailyFrom) continue;
    await db.execute(sql`drop table if exists ${sql.identifier(partitionOf(DAILY, month))}`);
    result.daily.dropped.push(month);
  }
  return result;
}
