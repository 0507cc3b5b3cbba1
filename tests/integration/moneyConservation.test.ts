import { describe, expect, it } from "vitest";
import { runConservation } from "../support/moneyConservation";

// Issue 9's conservation proof, bounded for npm test (bench/money-conservation.ts runs 1,000
// operations over 50 accounts): concurrent voucher top-ups and charges, each repeated with its
// Idempotency-Key, the real backend process SIGKILLed once in the middle and restarted; with the
// carrier's cycle in the mix (issue 24): usage batches rated from the balance and replayed, and
// billing runs renewing the plans that fall due today.
const DRIVER = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";

describe(`money conservation on ${DRIVER}`, () => {
  it(
    "under concurrent retries and a SIGKILL: 0 lost, 0 doubled, every balance = opening + acknowledged = sum of entries",
    { timeout: 300_000 },
    async () => {
      const figures = await runConservation({
        driver: DRIVER,
        operations: 160,
        accounts: 10,
        concurrency: 8,
        opening: 3_000,
      });
      console.log(
        `money conservation (${DRIVER}): ${JSON.stringify({ ...figures, problems: figures.problems.length })}`,
      );
      expect(figures.problems).toEqual([]);
      expect(figures.acknowledgedBeforeKill).toBeGreaterThan(0);
      expect(figures.acknowledged).toBeGreaterThan(figures.acknowledgedBeforeKill);
      // Some charges ran into an empty balance: the refusal path was exercised too.
      expect(figures.acknowledged + figures.refusedShortfall).toBe(160);
      expect(figures.lost + figures.doubled + figures.phantom + figures.accountsOff + figures.metersOff).toBe(0);
      // The cycle ran: batches were counted and plans renewed, each once (checked above).
      expect(figures.usageBatches).toBeGreaterThan(0);
      expect(figures.renewals).toBeGreaterThan(0);
    },
  );
});
