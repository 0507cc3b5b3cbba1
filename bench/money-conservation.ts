// Money conservation under retries and a crash (issue 9): 1,000 concurrent top-ups (vouchers redeemed) and charges over
// 50 prepaid accounts, each sent again with the same Idempotency-Key (half of the repeats at the same
// moment as the original), the real backend process SIGKILLed once in the middle and restarted on
// the same data; then 0 lost, 0 doubled, and each balance = opening + acknowledged = sum of entries.
// On PGlite (on disk) and, when a server answers, PostgreSQL. Prints figures; exits non-zero only
// when money was lost or doubled or something broke.
//
// With the carrier's cycle in the mix (issue 24): rated usage batches (replayed) and billing runs renewing plans due today.
//
//   npm run bench:money-conservation        (OPERATIONS=1000 ACCOUNTS=50 CONCURRENCY=32)
import { mkdirSync, writeFileSync } from "node:fs";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { runConservation, type ConservationFigures } from "../tests/support/moneyConservation";
import { postgresAnswers, TEST_DATABASE_URL } from "../tests/support/testDatabase";

const OPERATIONS = Number(process.env.OPERATIONS ?? 1_000);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 50);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);

async function main() {
  const emulator = await ensureAuthEmulator();
  const results: ConservationFigures[] = [];
  try {
    const drivers: ("pglite" | "postgres")[] = ["pglite"];
    if (await postgresAnswers()) drivers.push("postgres");
    else console.log(`PostgreSQL: no server at ${TEST_DATABASE_URL}; PGlite only`);
    for (const driver of drivers) {
      console.log(`\n${driver}: ${OPERATIONS} operations over ${ACCOUNTS} accounts, ${CONCURRENCY} at a time`);
      const figures = await runConservation({
        driver,
        operations: OPERATIONS,
        accounts: ACCOUNTS,
        concurrency: CONCURRENCY,
        log: (line) => console.log(`  ${line}`),
      });
      results.push(figures);
      const { problems, ...shown } = figures;
      for (const [name, value] of Object.entries(shown)) console.log(`  ${name.padEnd(24)} ${value}`);
      for (const problem of problems.slice(0, 20)) console.log(`  PROBLEM ${problem}`);
    }
    mkdirSync("bench/results", { recursive: true });
    writeFileSync(
      "bench/results/money-conservation.json",
      JSON.stringify({ at: new Date().toISOString(), results }, null, 2),
    );
    console.log("\nwritten: bench/results/money-conservation.json");
  } finally {
    await emulator.stop();
  }
  if (results.some((r) => r.problems.length > 0)) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
