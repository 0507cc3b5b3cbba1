// `npm test`: every suite in one run. Starts the Auth emulator unless one already answers, includes
// the PostgreSQL suite when a server answers (required under CI), runs vitest, and ends with the
// line `N passed, N failed[, N skipped]`. Extra arguments go to vitest (e.g. `npm test -- tests/unit`).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { postgresAnswers, TEST_DATABASE_URL } from "../tests/support/testDatabase";

const reportFile = ".test-data/vitest-report.json";

async function main(): Promise<number> {
  mkdirSync(".test-data", { recursive: true });
  const withPostgres = await postgresAnswers();
  if (!withPostgres && process.env.CI) {
    console.error(`CI needs a PostgreSQL server for the integration suite, and none answers at ${TEST_DATABASE_URL}.`);
    return 1;
  }
  console.log(
    withPostgres
      ? `PostgreSQL suite: on (${TEST_DATABASE_URL})`
      : `PostgreSQL suite: skipped, no server answers at ${TEST_DATABASE_URL}`,
  );

  const started = Date.now();
  const emulator = await ensureAuthEmulator();
  console.log(
    emulator.started
      ? `Auth emulator started in ${((Date.now() - started) / 1000).toFixed(1)} s`
      : "Auth emulator: reusing the one already running",
  );

  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      "npx",
      [
        "vitest",
        "run",
        "--reporter=default",
        `--reporter=json`,
        `--outputFile.json=${reportFile}`,
        ...process.argv.slice(2),
      ],
      {
        stdio: "inherit",
        env: { ...process.env, TEST_POSTGRES: withPostgres ? "1" : "0", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" },
      },
    );
    child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  await emulator.stop();

  try {
    const report = JSON.parse(readFileSync(reportFile, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
      testResults: { status: string; assertionResults: { status: string }[] }[];
    };
    // A file that fails before its tests run (an error in beforeAll) fails no test, and its tests
    // count as skipped; each such file counts as one failure here, so the summary never says 0 failed.
    const brokenFiles = report.testResults.filter(
      (file) => file.status === "failed" && !file.assertionResults.some((a) => a.status === "failed"),
    ).length;
    const failed = report.numFailedTests + brokenFiles;
    const skipped = report.numPendingTests + report.numTodoTests;
    console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
    if (failed > 0) return 1;
  } catch {
    console.log("0 passed, 1 failed");
    console.error("vitest wrote no report; see its output above.");
    return 1;
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log("0 passed, 1 failed");
    process.exit(1);
  },
);
