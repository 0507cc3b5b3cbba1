import { tooManyRequests } from "../errors";
import { SlidingWindow, type WindowLimit } from "./slidingWindow";

/** Every rate limit of the backend; buildApp takes overrides so tests can use small numbers. */
export interface RateLimits {
  /** SMS allowances per phone number (POST /api/auth/sms-allowance). */
  smsPerNumber: WindowLimit;
  /** SMS allowances per client IP. */
  smsPerIp: WindowLimit;
  /** Any /api/auth/* request per client IP (sign-in related, unauthenticated). */
  authPerIp: WindowLimit;
  /** POST /api/v1/me/claim per uid. */
  claimPerUid: WindowLimit;
}

const MINUTE = 60_000;

export const DEFAULT_RATE_LIMITS: RateLimits = {
  smsPerNumber: { max: 3, windowMs: 10 * MINUTE },
  smsPerIp: { max: 10, windowMs: 60 * MINUTE },
  authPerIp: { max: 60, windowMs: MINUTE },
  claimPerUid: { max: 10, windowMs: MINUTE },
};

export type Limiters = { [K in keyof RateLimits]: SlidingWindow };

export function createLimiters(overrides: Partial<RateLimits> = {}, now: () => number = Date.now): Limiters {
  const limits = { ...DEFAULT_RATE_LIMITS, ...overrides };
  return {
    smsPerNumber: new SlidingWindow(limits.smsPerNumber, now),
    smsPerIp: new SlidingWindow(limits.smsPerIp, now),
    authPerIp: new SlidingWindow(limits.authPerIp, now),
    claimPerUid: new SlidingWindow(limits.claimPerUid, now),
  };
}

/** Takes one hit from the limiter or throws 429 problem+json with Retry-After. */
export function enforce(limiter: SlidingWindow, key: string, detail: string): void {
  const decision = limiter.take(key);
  if (!decision.allowed) throw tooManyRequests(detail, decision.retryAfterMs);
}
