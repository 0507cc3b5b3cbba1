// Rating (issue 24): what a batch of usage records costs past the allowance, worked out in the
// ingest's transaction. Add-ons count first, then the plan's allowance (together they are the line's
// allowance, allowances.ts: add-on MB add to the data allowance while they last; the order inside
// that sum changes nothing charged), then the plan's rate for the type in the zone the record was used
// in. Prepaid: one `usage` ledger entry per line per batch, never more than the balance covers (the
// rest is capped). Postpaid: `charge` entries per line, type and zone, billed when the cycle closes.
//
// Set-based: whatever the batch, a constant number of statements (accounts locked, caps and rated
// units read, then rated units, caps and ledger entries written with one statement each), and none
// at all when no counter of the batch reached its allowance. What a batch took past each allowance
// the ingest's counter upsert measured already (ingest.ts): the counters are written once a batch.

import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import { rateOf } from "#resources/overage";
import { ROAMING_ZONES, type UsageRecordInput, type UsageType } from "#resources/usage";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";
import { auditEvents, usageCaps } from "../../db/schema";
import { allowanceInRecordUnits, ownAllowance, type LineAllowances } from "./allowances";
import { cycleStartOf, cycleStartSql } from "./cycles";
import { addOnDataOf } from "../addOns/addOnData";
import { postLedgerEntries, type BatchLedgerEntry } from "../money/ledgerBatch";
import { tellCapped, type CapReason, type NewCap } from "./capAlerts";
import { sendPoolAlerts } from "./poolAlerts";

/** A counter the batch changed, as the ingest statement returns it (under its row lock). */
export interface RatedCounter {
  lineId: string;
  cycleStart: string;
  type: UsageType;
  /** The counter after this batch. */
  used: number;
  /** What this batch added. */
  added: number;
  /** Of `used` after this batch, what was past the allowance (charged or capped). */
  overAllowance: number;
  /** Of `added`, what went past the allowance: the ingest's counter upsert measured it under the row's lock. */
  excess: number;
}

/** Where the batch's records come from for a line that went past its allowance. */
export type BatchRecords =
  /** Every record of a matched line was inserted (a batch of new ids): read them from the request. */
  | { inserted: "all"; records: readonly UsageRecordInput[]; lineOf: Map<string, { id: string; cycleDay: number }> }
  /** Some ids were seen before: ask the database which this transaction inserted. */
  | { inserted: "some"; records: readonly UsageRecordInput[]; lineOf: Map<string, { id: string; cycleDay: number }> };

type Zone = "home" | (typeof ROAMING_ZONES)[number];
interface BatchRecord {
  id: string;
  lineId: string;
  cycleStart: string;
  type: UsageType;
  zone: Zone;
  quantity: number;
  startedAt: number;
}

const TYPE_WORDS: Record<UsageType, string> = { data: "Data", voice: "Calls", sms: "Texts" };
const ZONE_WORDS: Record<string, string> = {
  canada_mexico: "Canada & Mexico",
  europe: "Europe",
  rest_of_world: "the rest of the world",
};
const key = (...parts: (string | number)[]) => parts.join("|");

/** "120 MB", "3 min", "2 messages": a rated quantity in the unit people pay for it. */
function quantityWords(type: UsageType, quantity: number): string {
  if (type === "data") return `${quantity} MB`;
  if (type === "voice") return `${Math.ceil(quantity / 60)} min`;
  return `${quantity} ${quantity === 1 ? "message" : "messages"}`;
}

/** The key that makes a line's rating of this batch post once: the batch's new record ids of the line, hashed. */
const batchKey = (ids: string[]) =>
  createHash("sha256")
    .update([...ids].sort().join("\n"))
    .digest("hex")
    .slice(0, 32);

/**
 * Rates the counters a batch moved past (or onto) their allowance; returns the live events to send
 * after the commit. Called in the ingest's transaction, after the counters were upserted (so their
 * rows are locked: two batches of one line rate one after the other, each seeing the other's result).
 */
export async function rateBatch(
  tx: Executor,
  operator: string,
  counters: readonly RatedCounter[],
  lines: Map<string, LineAllowances>,
  batch: BatchRecords,
  now = new Date(),
): Promise<ResourceEvent[]> {
  // 1. Which counters reached their own allowance (on a shared plan: the line's add-ons), or the
  // line's data cap, and how much of the batch went past each. Both are the batch's last records.
  type Candidate = RatedCounter & {
    line: LineAllowances;
    room: number;
    excess: number;
    current: boolean;
    /** Reached its own allowance (exactly or past it). */
    reached: boolean;
    /** On a shared plan: what goes past the add-ons draws from the account's pool. */
    pool: boolean;
    /** Of the batch, what went past the line's data cap: barred, never drawn nor charged. */
    barred: number;
    capReached: boolean;
  };
  const candidates: Candidate[] = [];
  for (const counter of counters) {
    const line = lines.get(counter.lineId);
    if (!line) continue;
    const allowance = allowanceInRecordUnits(counter.type, ownAllowance(line, counter.type));
    const capMb = counter.type === "data" ? line.dataCapMb : null;
    const usedBefore = counter.used - counter.added;
    const barred = capMb === null ? 0 : Math.max(0, counter.used - capMb) - Math.max(0, usedBefore - capMb);
    const capReached = capMb !== null && counter.used >= capMb;
    if (allowance === null && !capReached) continue;
    const coveredBefore = counter.used - counter.added - (counter.overAllowance - counter.excess);
    const room = allowance === null ? counter.added : Math.max(0, allowance - coveredBefore);
    const excess = counter.excess;
    const reached = allowance !== null && coveredBefore + counter.added - excess >= allowance;
    const pool = counter.type === "data" && line.poolMb !== undefined;
    if (!capReached && (pool ? excess === 0 : excess === 0 && !reached)) continue;
    candidates.push({
      ...counter,
      line,
      room,
      excess,
      reached,
      pool,
      barred,
      capReached,
      current: counter.cycleStart === cycleStartOf(now, line.cycleDay),
    });
  }
  if (candidates.length === 0) return [];

  const lineIds = [...new Set(candidates.map((c) => c.lineId))].sort();
  const accountIds = [
    ...new Set(candidates.filter((c) => c.line.accountType === "prepaid").map((c) => c.line.accountId)),
  ].sort();

  // 2. Lock the prepaid accounts (after the counters, always in this order: see docs/decisions.md
  // "Rating usage"), read their balances, the caps in force and the units already paid for. A
  // postpaid account is not locked: nothing is decided on it, and its charges move no balance (two
  // batches of a fleet account's lines rate side by side).
  const balances = new Map(
    rowsOf<{ id: string; type: string; balance_amount: number }>(
      await tx.execute(
        sql`select id, type, balance_amount from accounts where id = any(${sql.param(accountIds)}::uuid[]) and type = 'prepaid' order by id for update`,
      ),
    ).map((a) => [a.id, Number(a.balance_amount)]),
  );
  const capRows = await tx
    .select()
    .from(usageCaps)
    .where(sql`${usageCaps.lineId} = any(${sql.param(lineIds)}::uuid[])`);
  const capped = new Set(capRows.map((c) => key(c.lineId, c.cycleStart, c.type)));
  const paid = new Map(
    rowsOf<{
      line_id: string;
      cycle_start: string;
      type: string;
      zone: string;
      quantity: string | number;
      units: string | number;
      amount: string | number;
    }>(
      await tx.execute(
        sql`select line_id, cycle_start::text as cycle_start, type, zone, quantity, units, amount from usage_overage where line_id = any(${sql.param(lineIds)}::uuid[])`,
      ),
    ).map((r) => [
      key(r.line_id, r.cycle_start, r.type, r.zone),
      { quantity: Number(r.quantity), units: Number(r.units), amount: Number(r.amount) },
    ]),
  );

  // 2b. The pools the batch draws from (shared plans), locked in key order and read in one statement.
  const poolLeft = new Map<string, number>();
  const poolDrawn = new Map<string, number>();
  const drawing = new Map<string, LineAllowances>();
  for (const c of candidates)
    if (c.pool && c.excess > c.barred) drawing.set(key(c.line.accountId, c.cycleStart), c.line);
  if (drawing.size) {
    const keys = [...drawing.keys()].sort();
    const pools = rowsOf<{ account_id: string; cycle_start: string; used: string | number }>(
      await tx.execute(sql`
        insert into usage_pools (account_id, cycle_start)
        select account_id, cycle_start from unnest(${sql.param(keys.map((k) => drawing.get(k)!.accountId))}::uuid[],
                                                   ${sql.param(keys.map((k) => k.slice(k.indexOf("|") + 1)))}::date[])
          as p(account_id, cycle_start) order by account_id, cycle_start
        on conflict (account_id, cycle_start) do update set updated_at = now()
        returning account_id, cycle_start::text as cycle_start, used`),
    );
    for (const p of pools) {
      const poolMb = drawing.get(key(p.account_id, p.cycle_start))!.poolMb ?? null;
      poolLeft.set(
        key(p.account_id, p.cycle_start),
        poolMb === null ? Number.POSITIVE_INFINITY : Math.max(0, poolMb - Number(p.used)),
      );
    }
  }
  /** Pools used up by this batch on a plan with no data rate past them: every line of the pool stops. */
  const usedUpPools = new Set<string>();

  // 3. The records of the lines that went past: which part of each counter's batch was past the
  // allowance, by zone. The allowance left covers the records that started first.
  const excessOf = new Set(candidates.filter((c) => c.excess > c.barred).map((c) => key(c.lineId, c.type)));
  const { idsOfLine, records } = await batchRecordsOf(tx, operator, batch, excessOf);
  const recordsOf = new Map<string, BatchRecord[]>();
  for (const r of records) {
    const k = key(r.lineId, r.cycleStart, r.type);
    (recordsOf.get(k) ?? recordsOf.set(k, []).get(k)!).push(r);
  }

  // 4. Decide, line by line (prepaid balances are shared by an account's lines).
  const overageRows: {
    lineId: string;
    cycleStart: string;
    type: string;
    zone: string;
    quantity: number;
    units: number;
    amount: number;
  }[] = [];
  const newCaps: { lineId: string; cycleStart: string; type: UsageType; reason: CapReason }[] = [];
  const entries: BatchLedgerEntry[] = [];

  const candidatesOf = new Map<string, Candidate[]>();
  for (const c of candidates) (candidatesOf.get(c.lineId) ?? candidatesOf.set(c.lineId, []).get(c.lineId)!).push(c);
  for (const lineId of lineIds) {
    const line = lines.get(lineId)!;
    const prepaid = line.accountType === "prepaid";
    const hash = batchKey(idsOfLine.get(lineId) ?? []);
    const prepaidParts: string[] = [];
    let prepaidTotal = 0;
    for (const c of candidatesOf.get(lineId)!) {
      const capKey = key(lineId, c.cycleStart, c.type);
      const cap = (reason: CapReason) => {
        if (!c.current || capped.has(capKey)) return;
        capped.add(capKey);
        newCaps.push({ lineId, cycleStart: c.cycleStart, type: c.type, reason });
      };
      // What went past the line's own allowance before its cap (past the cap is barred: kept, never
      // drawn nor charged). On a shared plan it draws from the account's pool first.
      let rest = Math.max(0, c.excess - c.barred);
      let skip = c.room;
      const poolKey = key(line.accountId, c.cycleStart);
      const stopReason: CapReason = c.pool ? "pool" : "plan";
      if (c.pool && rest > 0) {
        const left = poolLeft.get(poolKey) ?? 0;
        const draw = Math.min(rest, left);
        poolLeft.set(poolKey, left - draw);
        if (draw > 0) poolDrawn.set(poolKey, (poolDrawn.get(poolKey) ?? 0) + draw);
        rest -= draw;
        skip += draw;
        if (left - draw === 0 && !rateOf(line.overage, c.type, "home")) usedUpPools.add(poolKey);
        if (rest === 0 && left - draw === 0) {
          // The pool is used up exactly: stop here when nothing past it would be charged.
          if (!line.payAsYouGo) cap("pay_as_you_go");
          else if (!rateOf(line.overage, c.type, "home")) cap("pool");
        }
      } else if (c.excess === 0 && c.reached && !c.pool) {
        // Exactly at the allowance: stop here when nothing past it would be charged.
        if (!line.payAsYouGo) cap("pay_as_you_go");
        else if (!rateOf(line.overage, c.type, "home")) cap("plan");
      }
      if (rest === 0) {
        if (c.capReached) cap("line_cap");
        continue;
      }
      // The part of the batch past the allowance (and the pool), by zone: the records that started
      // last, but before the line's cap.
      const byZone = new Map<Zone, number>();
      const sorted = (recordsOf.get(capKey) ?? []).sort(
        (a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
      let take = rest;
      for (const r of sorted) {
        const inside = Math.min(skip, r.quantity);
        skip -= inside;
        const over = Math.min(take, r.quantity - inside);
        take -= over;
        if (over > 0) byZone.set(r.zone, (byZone.get(r.zone) ?? 0) + over);
      }
      for (const [zone, quantity] of [...byZone.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const rate = rateOf(line.overage, c.type, zone);
        if (capped.has(capKey) && c.current) continue; // barred already: kept, not charged
        if (!line.payAsYouGo) {
          cap("pay_as_you_go");
          continue;
        }
        if (!rate) {
          cap(stopReason);
          continue;
        }
        const before = paid.get(key(lineId, c.cycleStart, c.type, zone)) ?? { quantity: 0, units: 0, amount: 0 };
        // A unit started earlier in the cycle is paid for already: its rest is used first.
        const slack = Math.min(quantity, before.units * rate.unit - before.quantity);
        let units = Math.ceil((quantity - slack) / rate.unit);
        let covered = quantity;
        if (prepaid) {
          const balance = balances.get(line.accountId)! - prepaidTotal;
          if (units * rate.amount > balance) {
            // Rate what the balance covers, whole units only; the rest is capped.
            units = rate.amount > 0 ? Math.floor(balance / rate.amount) : units;
            covered = slack + Math.min(quantity - slack, units * rate.unit);
            cap("balance");
          }
        }
        const cost = units * rate.amount;
        if (covered === 0 && cost === 0) continue;
        paid.set(key(lineId, c.cycleStart, c.type, zone), {
          quantity: before.quantity + covered,
          units: before.units + units,
          amount: before.amount + cost,
        });
        overageRows.push({
          lineId,
          cycleStart: c.cycleStart,
          type: c.type,
          zone,
          quantity: before.quantity + covered,
          units: before.units + units,
          amount: before.amount + cost,
        });
        if (cost === 0) continue;
        const where = zone === "home" ? "" : ` in ${ZONE_WORDS[zone]}`;
        if (prepaid) {
          prepaidTotal += cost;
          prepaidParts.push(`${TYPE_WORDS[c.type].toLowerCase()}${where} ${quantityWords(c.type, covered)}`);
        } else {
          entries.push({
            accountId: line.accountId,
            kind: "charge",
            amount: cost,
            currency: rate.currency,
            reason: `${TYPE_WORDS[c.type]} beyond the allowance${where}, ${quantityWords(c.type, covered)} (${line.msisdn})`,
            idempotencyKey: `overage:${lineId}:${c.type}:${zone}:${hash}`,
            referenceType: "overage",
            referenceId: `${lineId}:${c.type}:${zone}`,
          });
        }
      }
      if (c.capReached) cap("line_cap");
    }
    if (prepaidTotal > 0) {
      entries.push({
        accountId: line.accountId,
        kind: "usage",
        amount: prepaidTotal,
        currency: line.currency,
        reason: `Usage beyond the allowance (${line.msisdn}): ${prepaidParts.join(", ")}`,
        idempotencyKey: `usage:${lineId}:${hash}`,
        referenceType: "line",
        referenceId: lineId,
      });
    }
  }

  // 4b. A pool used up with nothing past it: every line of it stops for the cycle (one read of the
  // accounts' lines on shared plans, only when a pool ran out).
  const poolLines = new Map<string, Pick<LineAllowances, "lineId" | "msisdn" | "ownerUid" | "email">>();
  if (usedUpPools.size) {
    const accountIds = [...new Set([...usedUpPools].map((k) => k.slice(0, k.indexOf("|"))))];
    // With what each line's own add-ons still hold: a line with add-on data left goes on with it.
    const members = rowsOf<{
      id: string;
      msisdn: string;
      cycle_day: number;
      account_id: string;
      owner_uid: string | null;
      email: string | null;
      own_used: string | number;
    }>(
      await tx.execute(sql`
        select l.id, l.msisdn, l.cycle_day, l.account_id, a.owner_uid, a.email,
          coalesce((select c.used - c.over_allowance from usage_counters c
                    where c.line_id = l.id and c.type = 'data'
                      and c.cycle_start = ${cycleStartSql(sql`${now.toISOString()}::timestamptz`, sql`l.cycle_day`)}), 0) as own_used
        from lines l join plans p on p.id = l.plan_id join accounts a on a.id = l.account_id
        where l.account_id = any(${sql.param(accountIds)}::uuid[]) and p.sharing = 'pool' and l.status <> 'terminated'
        order by l.id`),
    );
    const addOnLeft = await addOnDataOf(
      tx,
      members.map((m) => m.id),
      now,
    );
    for (const m of members) {
      const cycleStart = cycleStartOf(now, m.cycle_day);
      if (!usedUpPools.has(key(m.account_id, cycleStart))) continue;
      const capKey = key(m.id, cycleStart, "data");
      poolLines.set(m.id, { lineId: m.id, msisdn: m.msisdn, ownerUid: m.owner_uid, email: m.email });
      if (capped.has(capKey) || (addOnLeft.get(m.id) ?? 0) > Number(m.own_used)) continue;
      capped.add(capKey);
      newCaps.push({ lineId: m.id, cycleStart, type: "data", reason: "pool" });
    }
  }

  // 5. Write it all, one statement each.
  const events: ResourceEvent[] = [];
  if (poolDrawn.size) {
    const drawn = [...poolDrawn.entries()];
    await tx.execute(sql`
      update usage_pools p set used = p.used + d.drawn, updated_at = now()
      from unnest(${sql.param(drawn.map(([k]) => k.slice(0, k.indexOf("|"))))}::uuid[],
                  ${sql.param(drawn.map(([k]) => k.slice(k.indexOf("|") + 1)))}::date[],
                  ${sql.param(drawn.map(([, d]) => d))}::bigint[]) as d(account_id, cycle_start, drawn)
      where p.account_id = d.account_id and p.cycle_start = d.cycle_start`);
    // The pools' 80 % and 100 % alerts (their current cycle only): what they hold now is their
    // allowance less what is left, as the draws above left it under the upsert's lock.
    events.push(
      ...(await sendPoolAlerts(
        tx,
        operator,
        drawn.flatMap(([k]) => {
          const line = drawing.get(k)!;
          const cycleStart = k.slice(k.indexOf("|") + 1);
          if (line.poolMb === null || line.poolMb === undefined || cycleStart !== cycleStartOf(now, line.cycleDay))
            return [];
          return [
            {
              accountId: line.accountId,
              cycleStart,
              poolMb: line.poolMb,
              used: line.poolMb - poolLeft.get(k)!,
              lineId: line.lineId,
            },
          ];
        }),
      )),
    );
  }
  if (overageRows.length) {
    await tx.execute(sql`
      insert into usage_overage (line_id, cycle_start, type, zone, quantity, units, amount)
      select * from unnest(${sql.param(overageRows.map((o) => o.lineId))}::uuid[], ${sql.param(overageRows.map((o) => o.cycleStart))}::date[],
                           ${sql.param(overageRows.map((o) => o.type))}::text[], ${sql.param(overageRows.map((o) => o.zone))}::text[],
                           ${sql.param(overageRows.map((o) => o.quantity))}::bigint[], ${sql.param(overageRows.map((o) => o.units))}::bigint[], ${sql.param(overageRows.map((o) => o.amount))}::bigint[])
      on conflict (line_id, cycle_start, type, zone) do update
        set quantity = excluded.quantity, units = excluded.units, amount = excluded.amount, updated_at = now()`);
  }
  const at = new Date().toISOString();
  const lineOfAccount = new Map([...lines.values()].map((l) => [l.accountId, l]));
  if (entries.length) {
    await postLedgerEntries(tx, operator, entries);
    const owners = [
      ...new Set(entries.map((e) => lineOfAccount.get(e.accountId)?.ownerUid).filter((u): u is string => !!u)),
    ];
    events.push({
      operator,
      resource: "ledger-entries",
      type: "created",
      ids: [...new Set(entries.map((e) => e.accountId))],
      ownerUids: owners,
      at,
    });
  }
  if (newCaps.length) events.push(...(await capLines(tx, operator, newCaps, new Map([...poolLines, ...lines]))));
  return events;
}

/**
 * The records this transaction inserted of the given line and type pairs (`line|type`), from the
 * request or, after a replay, from the table; and every new record id of those lines (the key of the
 * line's entries).
 */
async function batchRecordsOf(
  tx: Executor,
  operator: string,
  batch: BatchRecords,
  wanted: Set<string>,
): Promise<{ idsOfLine: Map<string, string[]>; records: BatchRecord[] }> {
  const idsOfLine = new Map<string, string[]>();
  const records: BatchRecord[] = [];
  if (wanted.size === 0) return { idsOfLine, records };
  const lineIds = new Set([...wanted].map((k) => k.slice(0, k.indexOf("|"))));
  const keep = (id: string, lineId: string, type: UsageType) => {
    if (!lineIds.has(lineId)) return false;
    (idsOfLine.get(lineId) ?? idsOfLine.set(lineId, []).get(lineId)!).push(id);
    return wanted.has(key(lineId, type));
  };
  if (batch.inserted === "all") {
    // A cycle depends on the day only: worked out once per line cycle day and day of the batch.
    const cycles = new Map<number, string>();
    for (const r of batch.records) {
      const line = batch.lineOf.get(r.msisdn);
      if (!line || !keep(r.id, line.id, r.type)) continue;
      const startedAt = Date.parse(r.startedAt);
      const day = Math.floor(startedAt / 86_400_000) * 32 + line.cycleDay;
      let cycleStart = cycles.get(day);
      if (cycleStart === undefined) cycles.set(day, (cycleStart = cycleStartOf(new Date(startedAt), line.cycleDay)));
      records.push({
        id: r.id,
        lineId: line.id,
        cycleStart,
        type: r.type,
        zone: r.roamingZone ?? "home",
        quantity: r.quantity,
        startedAt,
      });
    }
    return { idsOfLine, records };
  }
  // Inserted now = received in this transaction (received_at defaults to the transaction's start).
  const ids = [
    ...new Set(batch.records.filter((r) => lineIds.has(batch.lineOf.get(r.msisdn)?.id ?? "")).map((r) => r.id)),
  ];
  const rows = rowsOf<{
    id: string;
    line_id: string;
    cycle_start: string;
    type: UsageType;
    roaming_zone: string | null;
    quantity: number;
    started_at: string | Date;
  }>(
    await tx.execute(sql`
      select id, line_id, cycle_start::text as cycle_start, type, roaming_zone, quantity, started_at from usage_records
      where operator_code = ${operator} and id = any(${sql.param(ids)}::text[]) and received_at = now()`),
  );
  for (const r of rows) {
    if (!keep(r.id, r.line_id, r.type)) continue;
    records.push({
      id: r.id,
      lineId: r.line_id,
      cycleStart: r.cycle_start,
      type: r.type,
      zone: (r.roaming_zone ?? "home") as Zone,
      quantity: Number(r.quantity),
      startedAt: new Date(r.started_at).getTime(),
    });
  }
  return { idsOfLine, records };
}

/**
 * Bars usage types of lines for their cycle and tells whom each stop concerns once (capAlerts.ts).
 * Returns the live events.
 */
export async function capLines(
  tx: Executor,
  operator: string,
  caps: readonly NewCap[],
  lines: Map<string, Pick<LineAllowances, "lineId" | "msisdn" | "ownerUid" | "email">>,
): Promise<ResourceEvent[]> {
  if (caps.length === 0) return [];
  const fresh = await tx
    .insert(usageCaps)
    .values([...caps])
    .onConflictDoNothing()
    .returning();
  const at = new Date().toISOString();
  // A line that reached the owner's cap, or a shared pool used up, is a decision about the account: audited.
  const decided = fresh.filter((c) => c.reason === "line_cap" || c.reason === "pool");
  if (decided.length)
    await tx.insert(auditEvents).values(
      decided.map((c) => ({
        operatorCode: operator,
        actorUid: null,
        actorRole: "system",
        action: c.reason === "line_cap" ? "lines.cap-reached" : "lines.pool-used-up",
        targetType: "lines",
        targetId: c.lineId,
        after: { cycleStart: c.cycleStart, type: c.type, reason: c.reason },
      })),
    );
  const events = await tellCapped(tx, operator, fresh, lines);
  const ownerUids = [...new Set(fresh.map((c) => lines.get(c.lineId)?.ownerUid).filter((u): u is string => !!u))];
  if (fresh.length) {
    events.push({
      operator,
      resource: "meters",
      type: "updated",
      ids: [...new Set(fresh.map((c) => c.lineId))],
      ownerUids,
      at,
    });
  }
  return events;
}
