import { describe, expect, it } from "vitest";
import {
  AUTOPAY_MAX_ATTEMPTS,
  nextAutopayAt,
  paymentRetryUnitMs,
} from "../../server/domain/invoicePayments/autopaySchedule";

describe("autopay retries on the seed's backoff, scaled by a unit", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  const wait = (failures: number, random: number, unit: number) =>
    nextAutopayAt(failures, now, random, unit)!.getTime() - now.getTime();

  it("in production units: from 1 s, doubling, jitter 0.5, capped at 14,400,000 ms", () => {
    expect([1, 2, 3, 4].map((n) => wait(n, 0.5, 1000))).toEqual([1000, 2000, 4000, 8000]);
    expect(wait(3, 0, 1000)).toBe(2000);
    expect(wait(3, 0.999999, 1000)).toBe(6000);
    expect(wait(AUTOPAY_MAX_ATTEMPTS - 1, 0.999, 1000)).toBeLessThanOrEqual(14_400_000);
  });

  it("a smaller unit shrinks every wait in proportion (tests run fast)", () => {
    expect([1, 2, 3].map((n) => wait(n, 0.5, 10))).toEqual([10, 20, 40]);
  });

  it("gives up after the last try", () => {
    expect(nextAutopayAt(AUTOPAY_MAX_ATTEMPTS, now, 0.5, 1000)).toBeNull();
  });

  it("reads the unit from PAYMENT_RETRY_UNIT_MS, 1000 ms unless set to a positive number", () => {
    expect(paymentRetryUnitMs({})).toBe(1000);
    expect(paymentRetryUnitMs({ PAYMENT_RETRY_UNIT_MS: "5" })).toBe(5);
    expect(paymentRetryUnitMs({ PAYMENT_RETRY_UNIT_MS: "-1" })).toBe(1000);
    expect(paymentRetryUnitMs({ PAYMENT_RETRY_UNIT_MS: "abc" })).toBe(1000);
  });
});
