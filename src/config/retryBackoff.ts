/**
 * The operator's retry backoff (the provider behaviour in the design's facts): from 1 s, doubling,
 * jitter 0.5, capped at 14,400,000 ms (4 hours). Shared by every retrying delivery (CRM leads).
 */
export const RETRY_BACKOFF = { initialMs: 1000, factor: 2, jitter: 0.5, capMs: 14_400_000 } as const;

/**
 * The wait before the next try after `failures` failed tries (1 for the first failure): the doubled
 * delay, moved by up to ±50 % at random (so many clients that failed together do not retry together),
 * never above the cap. `random` is in [0, 1).
 */
export function retryDelayMs(failures: number, random: number = Math.random(), backoff = RETRY_BACKOFF): number {
  const base = Math.min(backoff.capMs, backoff.initialMs * backoff.factor ** Math.max(0, failures - 1));
  const jittered = base * (1 - backoff.jitter + 2 * backoff.jitter * random);
  return Math.round(Math.min(backoff.capMs, jittered));
}
