import { and, eq, sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { UsageType } from "#resources/usage";
import type { Executor } from "../../audit";
import { notificationPreferences, notifications, outboxMessages } from "../../db/schema";
import { rowsOf } from "../../db/rowsOf";
import { allowancesOf, meterValue, type LineAllowances } from "./allowances";
import { cycleStartOf } from "./cycles";
import { savedLocalesOf } from "../outbox/recipientLocale";

/** The shares of an allowance that raise an alert, each once per line, cycle and type (a shared pool: per account and cycle). */
export const ALERT_THRESHOLDS = [80, 100] as const;

export interface ChangedCounter {
  lineId: string;
  cycleStart: string;
  type: UsageType;
  /** The counter after this batch (MB, seconds or messages). */
  used: number;
  /**
   * What this batch added, when known with `allowanceMoved`: a threshold the counter had passed
   * before this batch, against the same allowance, was offered then and is not offered again.
   */
  added?: number;
  /** Whether this batch measured the counter against another allowance than the batch before. */
  allowanceMoved?: boolean;
}

/**
 * Raises the alerts that counters just crossed, in the ingest's transaction: the current cycle's
 * counters only (a late record of a past cycle alerts nobody), each threshold once (usage_alerts
 * remembers it). The line's holder gets one notice per meter, for the highest threshold crossed,
 * in the inbox and, as they chose, by email and SMS through the outbox. Returns the live events.
 */
export async function sendUsageAlerts(
  tx: Executor,
  operator: string,
  counters: readonly ChangedCounter[],
  now = new Date(),
  known?: Map<string, LineAllowances>,
): Promise<ResourceEvent[]> {
  if (counters.length === 0) return [];
  const lines = known ?? (await allowancesOf(tx, [...new Set(counters.map((c) => c.lineId))]));
  const crossed: { lineId: string; cycleStart: string; type: UsageType; threshold: number }[] = [];
  for (const counter of counters) {
    const line = lines.get(counter.lineId);
    // A shared pool's data is measured as one: its alerts are the pool's (poolAlerts.ts), never a
    // line's own use against the whole pool.
    if (counter.type === "data" && line?.poolMb !== undefined) continue;
    const allowance = line?.allowance[counter.type];
    if (
      !line ||
      allowance === null ||
      allowance === undefined ||
      counter.cycleStart !== cycleStartOf(now, line.cycleDay)
    )
      continue;
    const used = meterValue(counter.type, counter.used);
    const before =
      counter.added === undefined || counter.allowanceMoved !== false
        ? undefined
        : meterValue(counter.type, counter.used - counter.added);
    for (const threshold of ALERT_THRESHOLDS) {
      if (used * 100 >= allowance * threshold && (before === undefined || before * 100 < allowance * threshold))
        crossed.push({ lineId: counter.lineId, cycleStart: counter.cycleStart, type: counter.type, threshold });
    }
  }
  if (crossed.length === 0) return [];
  // As four arrays, not a row of parameters per alert: a batch can offer thousands (every threshold
  // of its meters when their allowances moved, or when the caller does not say what the batch added),
  // and building a parameter per value cost the ingest ~30 ms of Node a batch. The primary key keeps
  // each one once.
  const fresh = rowsOf<{ line_id: string; cycle_start: string; type: UsageType; threshold: number }>(
    await tx.execute(sql`
      insert into usage_alerts (line_id, cycle_start, type, threshold)
      select * from unnest(${sql.param(crossed.map((c) => c.lineId))}::uuid[], ${sql.param(crossed.map((c) => c.cycleStart))}::date[],
                           ${sql.param(crossed.map((c) => c.type))}::text[], ${sql.param(crossed.map((c) => c.threshold))}::int[])
      on conflict do nothing
      returning line_id, cycle_start::text as cycle_start, type, threshold`),
  ).map((row) => ({
    lineId: row.line_id,
    cycleStart: row.cycle_start,
    type: row.type,
    threshold: Number(row.threshold),
  }));

  // One notice per meter: the highest threshold it newly crossed.
  const highest = new Map<string, (typeof fresh)[number]>();
  for (const alert of fresh) {
    const key = `${alert.lineId}|${alert.type}`;
    if ((highest.get(key)?.threshold ?? 0) < alert.threshold) highest.set(key, alert);
  }
  const events: ResourceEvent[] = [];
  // Emails and SMS are worded in each holder's saved language, read once for the batch.
  const owners = [...highest.values()].map((a) => lines.get(a.lineId)?.ownerUid).filter((u): u is string => !!u);
  const locales = await savedLocalesOf(tx, operator, owners);
  for (const alert of highest.values()) {
    const line = lines.get(alert.lineId)!;
    if (!line.ownerUid) continue; // a line nobody signs in for has no inbox
    const params = { msisdn: line.msisdn, usageType: alert.type, threshold: alert.threshold };
    const [notice] = await tx
      .insert(notifications)
      .values({
        operatorCode: operator,
        recipientUid: line.ownerUid,
        kind: "usage.threshold",
        params,
        link: `/lines/show/${line.lineId}`,
      })
      .returning({ id: notifications.id });
    events.push({
      operator,
      resource: "notifications",
      type: "created",
      ids: [notice!.id],
      ownerUids: [line.ownerUid],
      at: new Date().toISOString(),
    });
    const [preference] = await tx
      .select()
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.operatorCode, operator), eq(notificationPreferences.uid, line.ownerUid)));
    // The 80 % warning and the 100 % limit each have their own email and SMS choice.
    const full = alert.threshold >= 100;
    const byEmail = full ? preference?.usageLimitByEmail : preference?.usageAlertsByEmail;
    const bySms = full ? preference?.usageLimitBySms : preference?.usageAlertsBySms;
    const outgoing = [
      ...(byEmail && line.email ? [{ channel: "email" as const, recipient: line.email }] : []),
      ...(bySms ? [{ channel: "sms" as const, recipient: line.msisdn }] : []),
    ];
    const locale = locales.get(line.ownerUid) ?? "en";
    if (outgoing.length)
      await tx
        .insert(outboxMessages)
        .values(outgoing.map((m) => ({ ...m, operatorCode: operator, kind: "usage.threshold", params, locale })));
  }
  return events;
}
