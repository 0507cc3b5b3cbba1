import { sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { UsageType } from "#resources/usage";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";
import { lineMembersOf } from "../accountMembers/people";
import type { LineAllowances } from "./allowances";
import { tellUsage, type UsageNotice } from "./tell";

export type CapReason = "plan" | "balance" | "pay_as_you_go" | "pool" | "line_cap";

/** A usage type of a line just barred for its cycle (a new `usage_caps` row). */
export interface NewCap {
  lineId: string;
  cycleStart: string;
  type: UsageType;
  reason: CapReason;
}

const key = (lineId: string, cycleStart: string) => `${lineId}|${cycleStart}`;

/**
 * Tells whom a stop concerns (inbox, and email/SMS as they chose for the 100 % limit alert):
 *
 * - the line's own monthly limit (`line_cap`, issue 28): the members the line is given to, else its
 *   holder; once per line and cycle (`usage_cap_alerts`), however often the limit is raised and
 *   reached again;
 * - a used-up shared pool (`pool`): the line's members; the holder and the managers are told of the
 *   pool itself, once (poolAlerts.ts), not once per line;
 * - anything else (the plan, the balance, pay-as-you-go off): the line's holder, as always.
 *
 * Returns the live events.
 */
export async function tellCapped(
  tx: Executor,
  operator: string,
  caps: readonly NewCap[],
  lines: Map<string, Pick<LineAllowances, "lineId" | "msisdn" | "ownerUid" | "email">>,
): Promise<ResourceEvent[]> {
  const limits = caps.filter((c) => c.reason === "line_cap");
  const firstInCycle = new Set(
    limits.length
      ? rowsOf<{ line_id: string; cycle_start: string }>(
          await tx.execute(sql`
            insert into usage_cap_alerts (line_id, cycle_start)
            select * from unnest(${sql.param(limits.map((c) => c.lineId))}::uuid[], ${sql.param(limits.map((c) => c.cycleStart))}::date[])
            on conflict do nothing
            returning line_id, cycle_start::text as cycle_start`),
        ).map((row) => key(row.line_id, row.cycle_start))
      : [],
  );
  const told = caps.filter((c) => c.reason !== "line_cap" || firstInCycle.has(key(c.lineId, c.cycleStart)));
  const members = await lineMembersOf(
    tx,
    told.filter((c) => c.reason === "line_cap" || c.reason === "pool").map((c) => c.lineId),
  );
  const notices: UsageNotice[] = told.flatMap((cap) => {
    const line = lines.get(cap.lineId);
    if (!line) return [];
    const notice = {
      kind: "usage.capped" as const,
      params: { msisdn: line.msisdn, usageType: cap.type, capReason: cap.reason },
      link: `/lines/show/${line.lineId}`,
      limit: true,
      phone: line.msisdn,
    };
    const people = (members.get(cap.lineId) ?? []).map((m) => ({ ...notice, recipientUid: m.uid, email: m.email }));
    if (cap.reason === "pool" || (cap.reason === "line_cap" && people.length)) return people;
    // A line nobody signs in for has no inbox.
    return line.ownerUid ? [{ ...notice, recipientUid: line.ownerUid, email: line.email }] : [];
  });
  return tellUsage(tx, operator, notices);
}
