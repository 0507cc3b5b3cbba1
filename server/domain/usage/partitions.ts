import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rowsOf";

// usage_records is partitioned by month of started_at, UTC (migration 0040): usage_records_2026_11
// holds November 2026. Each day the maintenance makes the months up to MONTHS_AHEAD ahead, so the
// ingest never writes into the default partition but for a record far in the past or future, and
// drops the months older than the retention once every cycle that could hold their records is billed.

/** Months of raw usage kept unless USAGE_RETENTION_MONTHS says otherwise. */
export const DEFAULT_USAGE_RETENTION_MONTHS = 13;
/** Months made ahead of the current one, and behind it (records arrive late: last month's too). */
export const MONTHS_AHEAD = 3;
const MONTHS_BEHIND = 1;

const PARTITION_NAME = /^usage_records_(\d{4})_(\d{2})$/;

/** The first day of `date`'s month, `months` later (UTC), as YYYY-MM-DD. */
const monthStart = (date: Date, months = 0) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
/** The first day of the month `months` after `month` (YYYY-MM-01). */
const monthsAfter = (month: string, months: number) => monthStart(new Date(`${month}T00:00:00Z`), months);
const partitionOf = (month: string) => `usage_records_${month.slice(0, 4)}_${month.slice(5, 7)}`;

/** The months that have a partition (YYYY-MM-01), oldest first. */
export async function usageMonths(db: Db): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select child.relname as name from pg_inherits
      join pg_class child on child.oid = pg_inherits.inhrelid
      where pg_inherits.inhparent = 'usage_records'::regclass`),
  );
  return rows
    .map((row) => PARTITION_NAME.exec(row.name))
    .filter((match): match is RegExpExecArray => !!match)
    .map((match) => `${match[1]}-${match[2]}-01`)
    .sort();
}

/**
 * Makes the partition of `month` (YYYY-MM-01). Records of that month that fell into the default
 * partition before it existed move into it, in the same transaction (PostgreSQL refuses a new
 * partition whose rows sit in the default one).
 */
async function createMonth(db: Db, month: string) {
  const next = monthsAfter(month, 1);
  const from = sql.raw(`'${month} 00:00:00+00'`);
  const to = sql.raw(`'${next} 00:00:00+00'`);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      create temporary table moving_usage on commit drop as
      with moved as (
        delete from usage_records_default where started_at >= ${from} and started_at < ${to} returning *
      ) select * from moved`);
    await tx.execute(
      sql`create table ${sql.identifier(partitionOf(month))} partition of usage_records for values from (${from}) to (${to})`,
    );
    await tx.execute(sql`insert into usage_records select * from moving_usage`);
  });
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
  /** Months made (YYYY-MM-01). */
  created: string[];
  /** Months dropped: older than the retention, every cycle billed. */
  dropped: string[];
  /** Months older than the retention kept because a postpaid cycle that can hold them has no bill yet. */
  keptUnbilled: string[];
}

/** The day's partition work as of `today`: make last month to the months ahead, drop the expired ones. Idempotent. */
export async function maintainUsagePartitions(
  db: Db,
  options: { today?: Date; retentionMonths?: number } = {},
): Promise<UsagePartitionsResult> {
  const today = options.today ?? new Date();
  const retentionMonths = options.retentionMonths ?? DEFAULT_USAGE_RETENTION_MONTHS;
  const result: UsagePartitionsResult = { created: [], dropped: [], keptUnbilled: [] };
  const have = new Set(await usageMonths(db));
  for (let ahead = -MONTHS_BEHIND; ahead <= MONTHS_AHEAD; ahead++) {
    const month = monthStart(today, ahead);
    if (have.has(month)) continue;
    await createMonth(db, month);
    result.created.push(month);
  }
  // A month expires when it ended at least `retentionMonths` months before today's month began.
  const keepFrom = monthStart(today, -retentionMonths);
  for (const month of have) {
    const end = monthsAfter(month, 1);
    if (end > keepFrom) continue;
    if (await hasUnbilledCycles(db, monthsAfter(month, -1), end)) {
      result.keptUnbilled.push(month);
      continue;
    }
    await db.execute(sql`drop table if exists ${sql.identifier(partitionOf(month))}`);
    result.dropped.push(month);
  }
  return result;
}
