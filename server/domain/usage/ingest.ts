import { and, eq, sql } from "drizzle-orm";
import type { ResourceEvent } from "../../../src/resources/events";
import type { UsageBatchResult, UsageRecordInput, UsageType } from "../../../src/resources/usage";
import type { Db } from "../../db/client";
import { accounts, lines } from "../../db/schema";
import { cycleStartOf } from "./cycles";
import { sendUsageAlerts, type ChangedCounter } from "./alerts";
import { rowsOf } from "../../db/rowsOf";

/** The live channel of meters: ids are line ids (src/resources/index.ts declares who may follow it). */
export const METERS_CHANNEL = "meters";

interface MatchedLine {
  id: string;
  cycleDay: number;
  ownerUid: string | null;
}

/**
 * Counts a batch of usage records for one operator. Records of numbers that are not the operator's
 * lines are reported, never stored. In one transaction: every new record is inserted (a record id
 * seen before is skipped: `on conflict do nothing`), the per-line-per-cycle counters grow by what
 * was inserted, and crossed allowance thresholds raise their alerts. The whole batch is three
 * statements whatever its size: arrays are passed as one parameter each and unnested in SQL.
 * Returns the outcome and the live events to send once it committed.
 */
export async function ingestUsage(db: Db, operator: string, records: readonly UsageRecordInput[]): Promise<{ result: UsageBatchResult; events: ResourceEvent[] }> {
  const numbers = [...new Set(records.map((r) => r.msisdn))];
  const found = await db
    .select({ id: lines.id, msisdn: lines.msisdn, cycleDay: lines.cycleDay, ownerUid: accounts.ownerUid })
    .from(lines)
    .innerJoin(accounts, eq(lines.accountId, accounts.id))
    .where(and(eq(lines.operatorCode, operator), sql`${lines.msisdn} = any(${sql.param(numbers)}::text[])`));
  const byNumber = new Map<string, MatchedLine>(found.map((l) => [l.msisdn, l]));

  const unknownLines: UsageBatchResult["unknownLines"] = [];
  const columns = { ids: [] as string[], lineIds: [] as string[], types: [] as string[], starts: [] as string[], quantities: [] as number[], zones: [] as (string | null)[], cycles: [] as string[] };
  records.forEach((record, index) => {
    const line = byNumber.get(record.msisdn);
    if (!line) {
      unknownLines.push({ index, msisdn: record.msisdn });
      return;
    }
    const startedAt = new Date(record.startedAt);
    columns.ids.push(record.id);
    columns.lineIds.push(line.id);
    columns.types.push(record.type);
    columns.starts.push(startedAt.toISOString());
    columns.quantities.push(record.quantity);
    columns.zones.push(record.roamingZone ?? null);
    columns.cycles.push(cycleStartOf(startedAt, line.cycleDay));
  });

  const matched = columns.ids.length;
  if (matched === 0) return { result: { received: records.length, counted: 0, duplicates: 0, unknownLines }, events: [] };

  return db.transaction(async (tx) => {
    // Insert what is new, sum it per (line, cycle, type), add the sums to the counters: one statement.
    // The counters are upserted in key order so concurrent batches lock them in the same order.
    const changed = rowsOf<{ line_id: string; cycle_start: string; type: UsageType; used: string | number; inserted: string | number }>(
      await tx.execute(sql`
        with inserted as (
          insert into usage_records (operator_code, id, line_id, type, started_at, quantity, roaming_zone, cycle_start)
          select ${operator}, r.id, r.line_id, r.type, r.started_at, r.quantity, r.roaming_zone, r.cycle_start
          from unnest(
            ${sql.param(columns.ids)}::text[], ${sql.param(columns.lineIds)}::uuid[], ${sql.param(columns.types)}::text[],
            ${sql.param(columns.starts)}::timestamptz[], ${sql.param(columns.quantities)}::int[], ${sql.param(columns.zones)}::text[],
            ${sql.param(columns.cycles)}::date[]
          ) as r(id, line_id, type, started_at, quantity, roaming_zone, cycle_start)
          on conflict do nothing
          returning line_id, cycle_start, type, quantity, started_at
        ), sums as (
          select line_id, cycle_start, type, sum(quantity)::bigint as used, max(started_at) as last_record_at, count(*) as inserted
          from inserted group by line_id, cycle_start, type
        ), counted as (
          insert into usage_counters (line_id, cycle_start, type, used, last_record_at)
          select line_id, cycle_start, type, used, last_record_at from sums order by line_id, cycle_start, type
          on conflict (line_id, cycle_start, type) do update
            set used = usage_counters.used + excluded.used,
                last_record_at = greatest(usage_counters.last_record_at, excluded.last_record_at),
                updated_at = now()
          returning line_id, cycle_start, type, used
        )
        select counted.line_id, counted.cycle_start::text as cycle_start, counted.type, counted.used, sums.inserted
        from counted join sums using (line_id, cycle_start, type)
      `),
    );

    const counted = changed.reduce((total, row) => total + Number(row.inserted), 0);
    const counters: ChangedCounter[] = changed.map((row) => ({ lineId: row.line_id, cycleStart: row.cycle_start, type: row.type, used: Number(row.used) }));
    const alertEvents = await sendUsageAlerts(tx, operator, counters);

    const lineIds = [...new Set(counters.map((c) => c.lineId))];
    const owners = new Map(found.map((l) => [l.id, l.ownerUid]));
    const ownerUids = [...new Set(lineIds.map((id) => owners.get(id)).filter((uid): uid is string => !!uid))];
    const at = new Date().toISOString();
    const events: ResourceEvent[] = lineIds.length ? [{ operator, resource: METERS_CHANNEL, type: "updated", ids: lineIds, ownerUids, at }, ...alertEvents] : [];
    return { result: { received: records.length, counted, duplicates: matched - counted, unknownLines }, events };
  });
}
