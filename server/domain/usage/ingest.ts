import { sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { UsageBatchResult, UsageRecordInput, UsageType } from "#resources/usage";
import type { Db } from "../../db/client";
import { cycleStartSql } from "./cycles";
import { sendUsageAlerts, type ChangedCounter } from "./alerts";
import { allowanceInRecordUnits, allowancesOfNumbers, ownAllowance, type LineAllowances } from "./allowances";
import { rateBatch } from "./rating";
import { rowsOf } from "../../db/rowsOf";
import { arrayLiteral } from "../../db/arrayLiteral";
import { isUniqueViolation } from "../../db/pgErrors";

/** The live channel of meters: ids are line ids (src/resources/index.ts declares who may follow it). */
export const METERS_CHANNEL = "meters";

/**
 * A record counted before: usage_records' primary key (operator_code, id, started_at) refused it.
 * The table is partitioned by month of started_at (whose key must hold it; a replay repeats the start
 * time), and PostgreSQL names the month's own key index (`usage_records_2026_11_pkey`).
 */
const isSeenRecord = (error: unknown) =>
  isUniqueViolation(error, "usage_records_operator_code_id_started_at_pk") ||
  isUniqueViolation(error, /^usage_records_\w+_pkey$/);

/**
 * Counts a batch of usage records for one operator. Records of numbers that are not the operator's
 * lines are reported, never stored. In one transaction: every new record is inserted (a record id
 * seen before is skipped: the primary key decides, see below), the per-line-per-cycle counters grow by what
 * was inserted, and crossed allowance thresholds raise their alerts.
 *
 * The records of the operator's lines go to the database a column each, every column one array
 * literal (server/db/arrayLiteral.ts: ~5–10 ms of JavaScript for a 10,000-record batch, where
 * node-postgres's own array writing took 30–45 ms), with each record's line and cycle day resolved
 * here; the statement works out each record's cycle and sums the counters itself. (Until 2026-12-01
 * the records went as one JSON parameter read by `json_to_recordset` and joined to the lines in SQL:
 * 57–61 ms for the decoding and the join, against 46–49 as arrays.) Where a 10,000-record batch's
 * time goes on PostgreSQL: docs/decisions.md, "What bounds the ingest's share of a bare INSERT"
 * (~33–37 ms reading the arrays, ~230 ms the statement). Rated, the same statement measures what
 * went past each allowance (docs/decisions.md, "Rated ingest rate"), and rateBatch prices it.
 * Returns the outcome and the live events to send once it committed.
 */
export async function ingestUsage(
  db: Db,
  operator: string,
  records: readonly UsageRecordInput[],
  /** `rating: false` counts without rating (the bench's bare baseline only; the API always rates). */
  options: { rating?: boolean } = {},
): Promise<{ result: UsageBatchResult; events: ResourceEvent[] }> {
  const rating = options.rating ?? true;
  // The lines of the batch's numbers with what rating and the alerts measure them against: one read.
  const byNumber = await allowancesOfNumbers(db, operator, [...new Set(records.map((r) => r.msisdn))]);
  const found = [...byNumber.values()];
  const allowances = new Map(found.map((line) => [line.lineId, line]));

  const unknownLines: UsageBatchResult["unknownLines"] = [];
  records.forEach((record, index) => {
    if (!byNumber.has(record.msisdn)) unknownLines.push({ index, msisdn: record.msisdn });
  });
  const matched = records.length - unknownLines.length;
  if (matched === 0)
    return { result: { received: records.length, counted: 0, duplicates: 0, unknownLines }, events: [] };

  // Insert what is new, sum it per (line, cycle, type), add the sums to the counters, and per day to
  // the chart's daily sums (usage_daily; a data-modifying CTE runs whether or not it is read): one statement.
  // Records of unknown numbers never reach it. Start times keep milliseconds, as a JavaScript Date
  // would. Records are inserted, and the counters upserted, in key order, so concurrent batches that
  // share records or counters take their locks in one order and never deadlock (a batch waits for
  // the other to commit instead). Inserting records as they came was no faster (42.5–46.8k against
  // 41.2–48.1k records/s rated, alternated runs of 60 batches): the sort's ~6 ms buys a primary-key
  // insert in key order.
  const lineIds = found.map((l) => l.lineId);
  const columns = recordColumns(records, byNumber);
  // Rated, the counter upsert also works out what the batch took past each allowance (the allowances
  // in the records' unit, one array per type, null = unlimited): the part of `added` beyond what the
  // allowance had left, measured on the counter row as it is under the upsert's lock (so two batches
  // of a line measure one after the other). It lands in `over_allowance`, and `batch_over` returns it.
  const ratedCounters = () => {
    const allowed = (type: UsageType) =>
      sql.param(found.map((line) => allowanceInRecordUnits(type, ownAllowance(line, type))));
    const excess = sql`case when excluded.rated_allowance is null then 0
            else greatest(0, excluded.used - greatest(0, excluded.rated_allowance - (usage_counters.used - usage_counters.over_allowance))) end`;
    return sql`
        , allowed as (
          select line_id, type, allowance
          from unnest(${sql.param(lineIds)}::uuid[], ${allowed("data")}::bigint[], ${allowed("voice")}::bigint[], ${allowed("sms")}::bigint[])
            as a(line_id, data, voice, sms)
          cross join lateral (values ('data', data), ('voice', voice), ('sms', sms)) as t(type, allowance)
        ), counted as (
          insert into usage_counters (line_id, cycle_start, type, used, last_record_at, rated_allowance, over_allowance, batch_over, allowance_moved)
          select line_id, cycle_start, type, used, last_record_at, allowance,
            coalesce(greatest(0, used - allowance), 0), coalesce(greatest(0, used - allowance), 0), true
          from sums left join allowed using (line_id, type) order by line_id, cycle_start, type
          on conflict (line_id, cycle_start, type) do update
            set used = usage_counters.used + excluded.used,
                last_record_at = greatest(usage_counters.last_record_at, excluded.last_record_at),
                updated_at = now(),
                rated_allowance = excluded.rated_allowance,
                over_allowance = usage_counters.over_allowance + ${excess},
                batch_over = ${excess},
                allowance_moved = usage_counters.rated_allowance is distinct from excluded.rated_allowance
          returning line_id, cycle_start, type, used, over_allowance, batch_over, allowance_moved
        )
        select counted.line_id, counted.cycle_start::text as cycle_start, counted.type, counted.used, sums.inserted,
          sums.used as added, counted.over_allowance, counted.batch_over, counted.allowance_moved
        from counted join sums using (line_id, cycle_start, type)`;
  };
  const bareCounters = sql`
        , counted as (
          insert into usage_counters (line_id, cycle_start, type, used, last_record_at)
          select line_id, cycle_start, type, used, last_record_at from sums order by line_id, cycle_start, type
          on conflict (line_id, cycle_start, type) do update
            set used = usage_counters.used + excluded.used,
                last_record_at = greatest(usage_counters.last_record_at, excluded.last_record_at),
                updated_at = now()
          returning line_id, cycle_start, type, used
        )
        select counted.line_id, counted.cycle_start::text as cycle_start, counted.type, counted.used, sums.inserted
        from counted join sums using (line_id, cycle_start, type)`;
  const countStatement = (skipSeen: boolean) => sql`
        with batch as (
          select r.id, r.line_id, r.type, date_trunc('milliseconds', r.started_at) as started_at, r.quantity, r.roaming_zone, r.cycle_day
          from unnest(${columns.id}::text[], ${columns.lineId}::uuid[], ${columns.type}::text[], ${columns.startedAt}::timestamptz[],
              ${columns.quantity}::int[], ${columns.roamingZone}::text[], ${columns.cycleDay}::int[])
            as r(id, line_id, type, started_at, quantity, roaming_zone, cycle_day)
        ), inserted as (
          insert into usage_records (operator_code, id, line_id, type, started_at, quantity, roaming_zone, cycle_start)
          select ${operator}, id, line_id, type, started_at, quantity, roaming_zone, ${cycleStartSql(sql`started_at`, sql`cycle_day`)}
          from batch order by id collate "C"
          ${skipSeen ? sql`on conflict do nothing` : sql``}
          returning line_id, cycle_start, type, quantity, started_at
        ), daily as (
          insert into usage_daily (line_id, cycle_start, day, type, quantity)
          select line_id, cycle_start, (started_at at time zone 'UTC')::date, type, sum(quantity)
          from inserted group by 1, 2, 3, 4 order by 1, 2, 3, 4
          on conflict (line_id, cycle_start, day, type) do update set quantity = usage_daily.quantity + excluded.quantity
        ), sums as (
          select line_id, cycle_start, type, sum(quantity)::bigint as used, max(started_at) as last_record_at, count(*) as inserted
          from inserted group by line_id, cycle_start, type
        )
        ${rating ? ratedCounters() : bareCounters}
      `;
  type Changed = {
    line_id: string;
    cycle_start: string;
    type: UsageType;
    used: string | number;
    inserted: string | number;
    added?: string | number;
    over_allowance?: string | number;
    batch_over?: string | number;
    allowance_moved?: boolean;
  };

  return db.transaction(async (tx) => {
    // Most batches are new records: a plain insert, whose primary key refuses a seen id, costs
    // ~15 % less server time than `on conflict do nothing` (which probes the key before each row
    // and inserts speculatively). So try it first, in a savepoint; a seen id (a replay, a record
    // another batch is counting at this moment) undoes it, and the batch goes again skipping seen
    // ids. A batch repeating a record within itself goes that way too: its second copy is refused
    // by the same key (asking first, with a Set of 10,000 ids, cost 2–3 ms of every batch).
    let changed: Changed[] | undefined;
    let allInserted = false;
    try {
      changed = rowsOf<Changed>(await tx.transaction((savepoint) => savepoint.execute(countStatement(false))));
      allInserted = true;
    } catch (error) {
      if (!isSeenRecord(error)) throw error;
    }
    changed ??= rowsOf<Changed>(await tx.execute(countStatement(true)));

    const counted = changed.reduce((total, row) => total + Number(row.inserted), 0);
    // Rated, a counter says what the batch added and whether its allowance moved: the alerts then
    // offer only the thresholds this batch crossed (alerts.ts).
    const counters: ChangedCounter[] = changed.map((row) => ({
      lineId: row.line_id,
      cycleStart: row.cycle_start,
      type: row.type,
      used: Number(row.used),
      ...(rating ? { added: Number(row.added), allowanceMoved: row.allowance_moved! } : {}),
    }));
    const alertEvents = await sendUsageAlerts(tx, operator, counters, new Date(), allowances);
    if (rating) {
      const rated = changed.map((row) => ({
        lineId: row.line_id,
        cycleStart: row.cycle_start,
        type: row.type,
        used: Number(row.used),
        added: Number(row.added),
        overAllowance: Number(row.over_allowance),
        excess: Number(row.batch_over),
      }));
      const lineOf = new Map(found.map((l) => [l.msisdn, { id: l.lineId, cycleDay: l.cycleDay }]));
      alertEvents.push(
        ...(await rateBatch(tx, operator, rated, allowances, {
          inserted: allInserted ? "all" : "some",
          records,
          lineOf,
        })),
      );
    }

    const changedLines = [...new Set(counters.map((c) => c.lineId))];
    const owners = new Map(found.map((l) => [l.lineId, l.ownerUid]));
    const ownerUids = [...new Set(changedLines.map((id) => owners.get(id)).filter((uid): uid is string => !!uid))];
    const at = new Date().toISOString();
    const events: ResourceEvent[] = changedLines.length
      ? [{ operator, resource: METERS_CHANNEL, type: "updated", ids: changedLines, ownerUids, at }, ...alertEvents]
      : [];
    return { result: { received: records.length, counted, duplicates: matched - counted, unknownLines }, events };
  });
}

/**
 * The batch's records of the operator's lines (the others are reported, never stored), a column
 * each as one array literal, with the line and its cycle day each record's number stands for.
 */
function recordColumns(records: readonly UsageRecordInput[], byNumber: ReadonlyMap<string, LineAllowances>) {
  const id: string[] = [];
  const lineId: string[] = [];
  const type: string[] = [];
  const startedAt: string[] = [];
  const quantity: number[] = [];
  const roamingZone: (string | null)[] = [];
  const cycleDay: number[] = [];
  for (const record of records) {
    const line = byNumber.get(record.msisdn);
    if (!line) continue;
    id.push(record.id);
    lineId.push(line.lineId);
    type.push(record.type);
    startedAt.push(record.startedAt);
    quantity.push(record.quantity);
    roamingZone.push(record.roamingZone ?? null);
    cycleDay.push(line.cycleDay);
  }
  const param = (values: readonly (string | number | null)[]) => sql.param(arrayLiteral(values));
  return {
    id: param(id),
    lineId: param(lineId),
    type: param(type),
    startedAt: param(startedAt),
    quantity: param(quantity),
    roamingZone: param(roamingZone),
    cycleDay: param(cycleDay),
  };
}
