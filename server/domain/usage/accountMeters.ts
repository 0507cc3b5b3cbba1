import { and, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { AccountMeters } from "#resources/usage";
import type { Executor } from "../../audit";
import { lines, plans, usageCaps, usageCounters, usagePools } from "../../db/schema";
import { cycleStartOf, nextCycleStart } from "./cycles";

/**
 * GET /accounts/{id}/meters (issue 28): the account's shared data pool in its current cycle and each
 * line's part of the data. The pool is the one of the account's lines on a shared plan (the line
 * with the earliest cycle day names the plan and the cycle; a family's lines share a cycle day). Four
 * queries whatever the number of lines.
 */
export async function accountMetersOf(db: Executor, accountId: string, now = new Date()): Promise<AccountMeters> {
  const rows = await db
    .select({
      id: lines.id,
      msisdn: lines.msisdn,
      cycleDay: lines.cycleDay,
      dataCapMb: lines.dataCapMb,
      planId: plans.id,
      planName: plans.name,
      sharing: plans.sharing,
      dataMb: plans.dataMb,
    })
    .from(lines)
    .innerJoin(plans, eq(plans.id, lines.planId))
    .where(and(eq(lines.accountId, accountId), ne(lines.status, "terminated")))
    .orderBy(lines.cycleDay, lines.msisdn);
  if (rows.length === 0) return { accountId, pool: null, lines: [] };
  const current = new Map(rows.map((r) => [r.id, cycleStartOf(now, r.cycleDay)]));
  const earliest = [...current.values()].sort()[0]!;
  const ids = rows.map((r) => r.id);
  const [counters, caps] = await Promise.all([
    db
      .select({ lineId: usageCounters.lineId, cycleStart: usageCounters.cycleStart, used: usageCounters.used })
      .from(usageCounters)
      .where(
        and(
          inArray(usageCounters.lineId, ids),
          eq(usageCounters.type, "data"),
          gte(usageCounters.cycleStart, earliest),
        ),
      ),
    db
      .select({ lineId: usageCaps.lineId, cycleStart: usageCaps.cycleStart })
      .from(usageCaps)
      .where(and(inArray(usageCaps.lineId, ids), eq(usageCaps.type, "data"), gte(usageCaps.cycleStart, earliest))),
  ]);
  const usedOf = new Map(
    counters.filter((c) => current.get(c.lineId) === c.cycleStart).map((c) => [c.lineId, Number(c.used)]),
  );
  const capped = new Set(caps.filter((c) => current.get(c.lineId) === c.cycleStart).map((c) => c.lineId));

  const poolLine = rows.find((r) => r.sharing === "pool");
  let pool: AccountMeters["pool"] = null;
  if (poolLine) {
    const cycleStart = current.get(poolLine.id)!;
    const [row] = await db
      .select({ used: usagePools.used })
      .from(usagePools)
      .where(and(eq(usagePools.accountId, accountId), sql`${usagePools.cycleStart} = ${cycleStart}`));
    const used = Number(row?.used ?? 0);
    const left = poolLine.dataMb === null ? null : Math.max(0, poolLine.dataMb - used);
    pool = {
      planId: poolLine.planId,
      planName: poolLine.planName,
      allowance: poolLine.dataMb,
      used,
      left,
      cycleStart,
      cycleEnd: nextCycleStart(cycleStart),
      usedUp: left === 0,
    };
  }
  return {
    accountId,
    pool,
    lines: rows.map((r) => ({
      lineId: r.id,
      msisdn: r.msisdn,
      shared: r.sharing === "pool",
      used: usedOf.get(r.id) ?? 0,
      cap: r.dataCapMb,
      capped: capped.has(r.id),
    })),
  };
}
