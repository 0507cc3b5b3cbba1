import { retryDelayMs, RETRY_BACKOFF } from "#config/retryBackoff";

/** Failed autopay tries before autopay gives up on a bill (the holder was told of each). */
export const AUTOPAY_MAX_ATTEMPTS = 8;

/**
 * The unit the seed's backoff is counted in: 1000 ms in production (first retry after ~1 s of it, i.e.
 * 1 s), smaller in tests (`PAYMENT_RETRY_UNIT_MS=10` makes every wait 100× shorter).
 */
export function paymentRetryUnitMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.PAYMENT_RETRY_UNIT_MS);
  return Number.isFinite(value) && value > 0 ? value : 1000;
}

/** When autopay tries a bill again after `failures` failed tries: the seed's backoff (from 1 s, doubling, jitter 0.5, cap 4 h) scaled by the unit; null when it gives up. */
export function nextAutopayAt(
  failures: number,
  now: Date,
  random: number = Math.random(),
  unitMs = paymentRetryUnitMs(),
): Date | null {
  if (failures >= AUTOPAY_MAX_ATTEMPTS) return null;
  const scale = unitMs / 1000;
  const delay = retryDelayMs(failures, random, {
    ...RETRY_BACKOFF,
    initialMs: RETRY_BACKOFF.initialMs * scale,
    capMs: RETRY_BACKOFF.capMs * scale,
  } as unknown as typeof RETRY_BACKOFF);
  return new Date(now.getTime() + delay);
}
