// `npm test`: every suite in one run. Starts the Auth emulator unless one already answers, includes
// the PostgreSQL suite when a server answers (required under CI), runs vitest, and ends with the
// line `N passed, N failed[, N skipped]`. Extra arguments go to vitest (e.g. `npm test -- tests/unit`).
//
// A full run (no arguments) runs the browser suite in a vitest of its own beside the other suites'.
// In one vitest the e2e files (one at a time, their project has no file parallelism) only start
// once every other file has finished, and neither half keeps both cores busy alone: the integration
// files wait on the emulator and the database, the e2e files on Chromium and their backends.
// docs/decisions.md ("CI time: the browser suite beside the others") has the figures.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { ensureAuthEmulator } from "../tests/support/authEmulator";
import { postgresAnswers, TEST_DATABASE_URL } from "../tests/support/testDatabase";

/** The run's report, as vitest's JSON reporter writes it (scripts/test-under-load.ts reads it too). */
const reportFile = ".test-data/vitest-report.json";

/** What this script reads of a vitest JSON report. */
interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { status: string; assertionResults: { status: string }[] }[];
}

/** One vitest run: the arguments after `vitest run`, and where its JSON report goes. */
interface Run {
  args: string[];
  report: string;
}

function runVitest(run: Run, env: NodeJS.ProcessEnv): Promise<number> {
  rmSync(run.report, { force: true });
  return new Promise<number>((resolve) => {
    const child = spawn(
      "npx",
      ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${run.report}`, ...run.args],
      { stdio: "inherit", env },
    );
    child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
}

/** The runs of `npm test`: one vitest with the given arguments, or (a full run) the e2e suite and the rest side by side. */
function runsOf(args: string[], withPostgres: boolean): Run[] {
  if (args.length > 0) return [{ args, report: reportFile }];
  // The house checks (typecheck, lint, format: ~4 minutes) go with e2e, whose run was the shorter
  // (18 against 23.5 minutes); vitest runs them before the e2e files, which wait for their group.
  const others = ["unit", "components", "integration:pglite", ...(withPostgres ? ["integration:postgres"] : [])];
  return [
    { args: others.flatMap((name) => ["--project", name]), report: ".test-data/vitest-report.suites.json" },
    { args: ["--project", "house", "--project", "e2e"], report: ".test-data/vitest-report.e2e.json" },
  ];
}

/** The runs' reports as one (counts summed, files concatenated); undefined when a run wrote none. */
function mergedReport(runs: Run[]): Report | undefined {
  const reports: Report[] = [];
  for (const run of runs) {
    try {
      reports.push(JSON.parse(readFileSync(run.report, "utf8")) as Report);
    } catch {
      return undefined;
    }
  }
  if (reports.length === 1) return reports[0];
  const sum = (key: "numPassedTests" | "numFailedTests" | "numPendingTests" | "numTodoTests") =>
    reports.reduce((total, report) => total + report[key], 0);
  const merged = {
    ...reports[0],
    numPassedTests: sum("numPassedTests"),
    numFailedTests: sum("numFailedTests"),
    numPendingTests: sum("numPendingTests"),
    numTodoTests: sum("numTodoTests"),
    testResults: reports.flatMap((report) => report.testResults),
  };
  writeFileSync(reportFile, JSON.stringify(merged));
  return merged;
}

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

  const env = {
    ...process.env,
    TEST_POSTGRES: withPostgres ? "1" : "0",
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
  };
  const runs = runsOf(process.argv.slice(2), withPostgres);
  const codes = await Promise.all(runs.map((run) => runVitest(run, env)));
  await emulator.stop();

  const report = mergedReport(runs);
  if (!report) {
    console.log("0 passed, 1 failed");
    console.error("vitest wrote no report; see its output above.");
    return 1;
  }
  // A file that fails before its tests run (an error in beforeAll) fails no test, and its tests
  // count as skipped; each such file counts as one failure here, so the summary never says 0 failed.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === "failed" && !file.assertionResults.some((a) => a.status === "failed"),
  ).length;
  const failed = report.numFailedTests + brokenFiles;
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
  if (failed > 0) return 1;
  return codes.find((code) => code !== 0) ?? 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log("0 passed, 1 failed");
    process.exit(1);
  },
);
