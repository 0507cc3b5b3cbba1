import { sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";
import { managersOf } from "../accountMembers/people";
import { ALERT_THRESHOLDS } from "./alerts";
import { tellUsage, type UsageNotice } from "./tell";

/** A shared pool a batch drew from, as the rating left it (its row locked by the rating's upsert). */
export interface DrawnPool {
  accountId: string;
  /** The pool's cycle: the current one of its lines (a late record of a past cycle alerts nobody). */
  cycleStart: string;
  /** The pool's allowance in MB (an unlimited pool never alerts). */
  poolMb: number;
  /** What the account's lines drew from it this cycle, after the batch. */
  used: number;
  /** A line of the pool that drew: the notice opens its page, which shows the shared pool. */
  lineId: string;
}

/**
 * The 80 % and 100 % data alerts of shared pools (issue 28): the account's pooled use against the
 * pool's allowance, each threshold once per account and cycle (`usage_pool_alerts` remembers it, so
 * a replayed batch, which draws nothing, alerts nothing either). The holder and the account's
 * managers get one notice for the highest threshold newly crossed, in the inbox and by email (and
 * the holder by SMS to the account's phone) as each chose. A pool line's own data never alerts
 * against the pool (alerts.ts). Returns the live events.
 */
export async function sendPoolAlerts(
  tx: Executor,
  operator: string,
  pools: readonly DrawnPool[],
): Promise<ResourceEvent[]> {
  const crossed = pools.flatMap((pool) =>
    ALERT_THRESHOLDS.filter((threshold) => pool.used * 100 >= pool.poolMb * threshold).map((threshold) => ({
      ...pool,
      threshold,
    })),
  );
  if (crossed.length === 0) return [];
  const fresh = rowsOf<{ account_id: string; cycle_start: string; threshold: number }>(
    await tx.execute(sql`
      insert into usage_pool_alerts (account_id, cycle_start, threshold)
      select * from unnest(${sql.param(crossed.map((c) => c.accountId))}::uuid[], ${sql.param(crossed.map((c) => c.cycleStart))}::date[],
                           ${sql.param(crossed.map((c) => c.threshold))}::int[])
      on conflict do nothing
      returning account_id, cycle_start::text as cycle_start, threshold`),
  );
  if (fresh.length === 0) return [];
  // One notice per pool: the highest threshold it newly crossed.
  const highest = new Map<string, number>();
  for (const row of fresh)
    highest.set(row.account_id, Math.max(highest.get(row.account_id) ?? 0, Number(row.threshold)));
  const told = pools.filter((pool) => highest.has(pool.accountId));
  const holders = new Map(
    rowsOf<{
      account_id: string;
      owner_uid: string | null;
      email: string | null;
      phone: string | null;
      plan_name: string;
    }>(
      await tx.execute(sql`
        select a.id as account_id, a.owner_uid, a.email, a.phone, p.name as plan_name
        from lines l join accounts a on a.id = l.account_id join plans p on p.id = l.plan_id
        where l.id = any(${sql.param(told.map((pool) => pool.lineId))}::uuid[])`),
    ).map((row) => [row.account_id, row]),
  );
  const managers = await managersOf(
    tx,
    told.map((pool) => pool.accountId),
  );
  const notices: UsageNotice[] = told.flatMap((pool) => {
    const holder = holders.get(pool.accountId);
    if (!holder) return [];
    const threshold = highest.get(pool.accountId)!;
    const notice = {
      kind: "usage.pool_threshold" as const,
      params: { usageType: "data", threshold, planName: holder.plan_name },
      link: `/lines/show/${pool.lineId}`,
      limit: threshold >= 100,
    };
    return [
      ...(holder.owner_uid
        ? [{ ...notice, recipientUid: holder.owner_uid, email: holder.email, phone: holder.phone }]
        : []),
      // Managers are told by email; no phone of theirs is known.
      ...(managers.get(pool.accountId) ?? []).map((m) => ({
        ...notice,
        recipientUid: m.uid,
        email: m.email,
        phone: null,
      })),
    ];
  });
  return tellUsage(tx, operator, notices);
}
