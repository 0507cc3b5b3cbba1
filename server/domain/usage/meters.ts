import { and, gte, sql } from "drizzle-orm";
import { METER_UNITS, USAGE_TYPES, type Meter } from "#resources/usage";
import type { Executor } from "../../audit";
import { usageCaps, usageCounters, usageOverage, usagePools } from "../../db/schema";
import { allowancesOf, meterValue, type LineAllowances } from "./allowances";
import { cycleStartOf, nextCycleStart } from "./cycles";

/**
 * The meters of lines in their current cycle (data, voice, SMS, in that order), by line id: used
 * of the allowance (null = unlimited), as of the newest counted record. Two queries for any number of lines.
 */
export async function metersOf(
  db: Executor,
  lineIds: readonly string[],
  now = new Date(),
): Promise<Map<string, Meter[]>> {
  const allowances = await allowancesOf(db, lineIds);
  // A prepaid line in grace has not renewed its plan: no data, calls or texts of its own (only top-ups,
  // emergency and incoming service), so its meters show nothing to use until a top-up renews it.
  const usable = [...allowances.values()].map((line) =>
    line.status === "grace" ? { ...line, allowance: { data: 0, voice: 0, sms: 0 } } : line,
  );
  return metersFor(db, usable, now);
}

/** The same, for lines whose allowances are already read. */
export async function metersFor(
  db: Executor,
  lines: readonly LineAllowances[],
  now = new Date(),
): Promise<Map<string, Meter[]>> {
  const meters = new Map<string, Meter[]>();
  if (lines.length === 0) return meters;
  const current = new Map(lines.map((line) => [line.lineId, cycleStartOf(now, line.cycleDay)]));
  const earliest = [...current.values()].sort()[0]!;
  const counters = await db
    .select()
    .from(usageCounters)
    .where(
      and(
        sql`${usageCounters.lineId} = any(${sql.param(lines.map((l) => l.lineId))}::uuid[])`,
        gte(usageCounters.cycleStart, earliest),
      ),
    );
  const counterOf = new Map(
    counters.filter((c) => current.get(c.lineId) === c.cycleStart).map((c) => [`${c.lineId}|${c.type}`, c]),
  );
  const caps = await db
    .select({ lineId: usageCaps.lineId, cycleStart: usageCaps.cycleStart, type: usageCaps.type })
    .from(usageCaps)
    .where(
      and(
        sql`${usageCaps.lineId} = any(${sql.param(lines.map((l) => l.lineId))}::uuid[])`,
        gte(usageCaps.cycleStart, earliest),
      ),
    );
  // What rating charged, summed over the zones (usage_overage keeps it per zone; the counters do not).
  const charges = await db
    .select({
      lineId: usageOverage.lineId,
      cycleStart: usageOverage.cycleStart,
      type: usageOverage.type,
      amount: sql<string>`sum(${usageOverage.amount})`,
    })
    .from(usageOverage)
    .where(
      and(
        sql`${usageOverage.lineId} = any(${sql.param(lines.map((l) => l.lineId))}::uuid[])`,
        gte(usageOverage.cycleStart, earliest),
      ),
    )
    .groupBy(usageOverage.lineId, usageOverage.cycleStart, usageOverage.type);
  const chargedNow = new Map(
    charges
      .filter((c) => current.get(c.lineId) === c.cycleStart)
      .map((c) => [`${c.lineId}|${c.type}`, Number(c.amount)]),
  );
  // Lines on a shared plan: their data is what their add-ons have left plus what the account's pool
  // has left (one read of the pools, only when such a line is here).
  const pooled = lines.filter((l) => l.poolMb !== undefined);
  const poolUsed = new Map<string, number>();
  if (pooled.length) {
    const pools = await db
      .select({ accountId: usagePools.accountId, cycleStart: usagePools.cycleStart, used: usagePools.used })
      .from(usagePools)
      .where(
        and(
          sql`${usagePools.accountId} = any(${sql.param([...new Set(pooled.map((l) => l.accountId))])}::uuid[])`,
          gte(usagePools.cycleStart, earliest),
        ),
      );
    for (const p of pools) poolUsed.set(`${p.accountId}|${p.cycleStart}`, Number(p.used));
  }
  const cappedNow = new Set(
    caps.filter((c) => current.get(c.lineId) === c.cycleStart).map((c) => `${c.lineId}|${c.type}`),
  );
  for (const line of lines) {
    const cycleStart = current.get(line.lineId)!;
    meters.set(
      line.lineId,
      USAGE_TYPES.map((type) => {
        const counter = counterOf.get(`${line.lineId}|${type}`);
        const used = meterValue(type, counter?.used ?? 0);
        return {
          type,
          used,
          allowance: type === "data" ? dataAllowanceOf(line, cycleStart, counter, poolUsed) : line.allowance[type],
          unit: METER_UNITS[type],
          asOf: counter ? counter.lastRecordAt.toISOString() : null,
          cycleStart,
          cycleEnd: nextCycleStart(cycleStart),
          capped: cappedNow.has(`${line.lineId}|${type}`),
          charged: { amount: chargedNow.get(`${line.lineId}|${type}`) ?? 0, currency: line.currency },
        };
      }),
    );
  }
  return meters;
}

/**
 * The data a line's meter measures against. On a shared plan: what it used plus what it can still
 * use (its add-ons' rest and the pool's rest; null = unlimited pool). A monthly limit the owner set
 * (issue 28) bounds it either way.
 */
function dataAllowanceOf(
  line: LineAllowances,
  cycleStart: string,
  counter: { used: number; overAllowance: number } | undefined,
  poolUsed: Map<string, number>,
): number | null {
  const used = Number(counter?.used ?? 0);
  let allowance = line.allowance.data;
  if (line.status === "grace") return allowance; // nothing to use until it renews (metersOf)
  if (line.poolMb !== undefined) {
    const ownLeft = Math.max(0, line.addOnMb - (used - Number(counter?.overAllowance ?? 0)));
    allowance =
      line.poolMb === null
        ? null
        : used + ownLeft + Math.max(0, line.poolMb - (poolUsed.get(`${line.accountId}|${cycleStart}`) ?? 0));
  }
  if (line.dataCapMb !== null && (allowance === null || line.dataCapMb < allowance)) allowance = line.dataCapMb;
  return allowance;
}
