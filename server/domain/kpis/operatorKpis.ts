import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rowsOf";
import { TICKET_AGE_BUCKETS, type KpiQuery, type KpiReport } from "#resources/kpis";
import { OPEN_TICKET_STATUSES } from "#resources/tickets";

/** Half-up division of minor units (ARPU): 0 when there is nothing to divide by. */
const perLine = (amount: number, lines: number) => (lines === 0 ? 0 : Math.floor((amount * 2 + lines) / (lines * 2)));

/**
 * The operator's KPIs over whole days of its own time zone, each figure one aggregate query that an
 * index bounds to the period (no full scan at a million subscribers: bench/care-search.ts times them).
 * Churned lines are lines terminated in the period: the line's last change is its termination.
 */
export async function operatorKpis(
  db: Db,
  operator: { code: string; timezone: string; currency: string },
  query: KpiQuery,
): Promise<KpiReport> {
  const { code, timezone } = operator;
  // The period's ends as instants: midnight of `from` and of the day after `to`, in the operator's zone.
  const start = sql`(${query.from}::date)::timestamp at time zone ${timezone}`;
  const end = sql`(${query.to}::date + 1)::timestamp at time zone ${timezone}`;
  const dayOf = (column: string) =>
    sql.raw(`to_char(${column} at time zone '${timezone.replace(/'/g, "''")}', 'YYYY-MM-DD')`);

  const [active, newLines, churned, topUps, payments, money, tickets] = await Promise.all([
    db.execute(sql`select count(*)::int as n from lines where operator_code = ${code} and status = 'active'`),
    db.execute(sql`select ${dayOf("created_at")} as day, count(*)::int as n from lines
      where operator_code = ${code} and created_at >= ${start} and created_at < ${end} group by 1`),
    db.execute(sql`select ${dayOf("updated_at")} as day, count(*)::int as n from lines
      where operator_code = ${code} and status = 'terminated' and updated_at >= ${start} and updated_at < ${end} group by 1`),
    db.execute(sql`select ${dayOf("created_at")} as day, count(*)::int as n, coalesce(sum(amount), 0)::bigint as amount from ledger_entries
      where operator_code = ${code} and kind = 'top_up' and created_at >= ${start} and created_at < ${end} group by 1`),
    db.execute(sql`select ${dayOf("paid_at")} as day, count(*)::int as n, coalesce(sum(total_amount), 0)::bigint as amount from invoices
      where operator_code = ${code} and status = 'paid' and paid_at >= ${start} and paid_at < ${end} group by 1`),
    db.execute(sql`select coalesce(sum(case when kind in ('charge', 'usage', 'renewal') then amount when kind in ('refund', 'reversal') then -amount else 0 end), 0)::bigint as revenue
      from ledger_entries where operator_code = ${code} and created_at >= ${start} and created_at < ${end}`),
    db.execute(
      sql`select ${sql.join(
        TICKET_AGE_BUCKETS.map(
          (b) =>
            sql`(count(*) filter (where created_at <= now() - make_interval(days => ${b.fromDays})${b.toDays === null ? sql`` : sql` and created_at > now() - make_interval(days => ${b.toDays})`}))::int as ${sql.identifier(b.key)}`,
        ),
        sql`, `,
      )} from tickets where operator_code = ${code} and status in (${sql.join(
        OPEN_TICKET_STATUSES.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    ),
  ]);

  const byDay = <T extends { day: string }>(rows: T[]) => new Map(rows.map((r) => [r.day, r]));
  const created = byDay(rowsOf<{ day: string; n: number }>(newLines));
  const terminated = byDay(rowsOf<{ day: string; n: number }>(churned));
  const toppedUp = byDay(rowsOf<{ day: string; n: number; amount: string }>(topUps));
  const paid = byDay(rowsOf<{ day: string; n: number; amount: string }>(payments));

  const days: KpiReport["days"] = [];
  for (let at = Date.parse(`${query.from}T00:00:00Z`); at <= Date.parse(`${query.to}T00:00:00Z`); at += 86_400_000) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.push({
      day,
      newLines: created.get(day)?.n ?? 0,
      churnedLines: terminated.get(day)?.n ?? 0,
      topUps: { count: toppedUp.get(day)?.n ?? 0, amount: Number(toppedUp.get(day)?.amount ?? 0) },
      payments: { count: paid.get(day)?.n ?? 0, amount: Number(paid.get(day)?.amount ?? 0) },
    });
  }

  const activeLines = rowsOf<{ n: number }>(active)[0]?.n ?? 0;
  const revenue = Number(rowsOf<{ revenue: string }>(money)[0]?.revenue ?? 0);
  const ticketCounts = rowsOf<Record<string, number>>(tickets)[0] ?? {};
  return {
    from: query.from,
    to: query.to,
    timezone,
    currency: operator.currency,
    activeLines,
    days,
    revenue: { amount: revenue, currency: operator.currency },
    arpu: { amount: perLine(revenue, activeLines), currency: operator.currency },
    openTicketsByAge: TICKET_AGE_BUCKETS.map((b) => ({ bucket: b.key, count: Number(ticketCounts[b.key] ?? 0) })),
  };
}
