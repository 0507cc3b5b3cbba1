import { cycleStartOf, daysUntil, nextCycleStart } from "../usage/cycles";

const DAY_MS = 86_400_000;

/** `price × days / cycleDays` in minor units, rounded half-up to the unit (exact integer arithmetic). */
export function prorate(price: number, days: number, cycleDays: number): number {
  return Math.floor((2 * price * days + cycleDays) / (2 * cycleDays));
}

export interface PlanChangeQuote {
  cycleStart: string;
  cycleEnd: string;
  cycleDays: number;
  /** Days left in the cycle, today included: the old plan's unused days and the new plan's. */
  remainingDays: number;
  credit: number;
  charge: number;
  /** charge − credit: positive is charged, negative credited. */
  net: number;
}

/**
 * A change of plan now, mid-cycle: credit for the unused days of the old plan and a charge for the
 * remaining days of the new one, each rounded half-up to the cent on its own.
 */
export function quotePlanChange(oldPrice: number, newPrice: number, cycleDay: number, now: Date): PlanChangeQuote {
  const cycleStart = cycleStartOf(now, cycleDay);
  const cycleEnd = nextCycleStart(cycleStart);
  const cycleDays = Math.round((Date.parse(`${cycleEnd}T00:00:00Z`) - Date.parse(`${cycleStart}T00:00:00Z`)) / DAY_MS);
  const remainingDays = Math.min(cycleDays, daysUntil(cycleEnd, now));
  const credit = prorate(oldPrice, remainingDays, cycleDays);
  const charge = prorate(newPrice, remainingDays, cycleDays);
  return { cycleStart, cycleEnd, cycleDays, remainingDays, credit, charge, net: charge - credit };
}
