// Billing cycles: a line's cycle starts on its cycle day (1–28) of each month, at midnight UTC.
// (Cycles roll over in UTC so a record's cycle never depends on the server's time zone.)

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
