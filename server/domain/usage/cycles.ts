// Billing cycles: a line's cycle starts on its cycle day (1–28) of each month, at midnight UTC.
// (Cycles roll over in UTC so a record's cycle never depends on the server's time zone.)

import { sql, type SQL } from "drizzle-orm";

const pad = (n: number) => String(n).padStart(2, "0");
const isoDay = (year: number, month: number, day: number) => {
  const d = new Date(Date.UTC(year, month, day));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** The first day (YYYY-MM-DD) of the cycle that `at` falls in, for a line whose cycle starts on `cycleDay`. */
export function cycleStartOf(at: Date, cycleDay: number): string {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return at.getUTCDate() >= cycleDay ? isoDay(year, month, cycleDay) : isoDay(year, month - 1, cycleDay);
}

/**
 * `cycleStartOf` in SQL, for ingest to work out each record's cycle in the statement that inserts it:
 * step back (cycle day - 1) days in UTC, take that month's first day, step forward again. It agrees
 * with `cycleStartOf` because a cycle day is at most 28 (a month never runs out under it); the
 * usage ingest test checks both on the same instants.
 */
export const cycleStartSql = (at: SQL, cycleDay: SQL): SQL =>
  sql`(date_trunc('month', (${at} at time zone 'UTC') - make_interval(days => ${cycleDay} - 1))::date + (${cycleDay} - 1))`;

/** The first day of the next cycle after the one starting on `cycleStart`. */
export function nextCycleStart(cycleStart: string): string {
  const [year, month, day] = cycleStart.split("-").map(Number) as [number, number, number];
  return isoDay(year, month, day); // month is 1-based here, so this is the following month
}

/** Whole days from `at` until the cycle that starts on `cycleEnd` (at least 0; a started day counts as left). */
export function daysUntil(cycleEnd: string, at: Date): number {
  const end = Date.parse(`${cycleEnd}T00:00:00Z`);
  return Math.max(0, Math.ceil((end - at.getTime()) / 86_400_000));
}
