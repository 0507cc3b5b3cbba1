// `npm run test:under-load -- [--rounds 5] [vitest args]`: runs the integration and e2e suites
// (or the vitest arguments given) several rounds in a row while busy loops keep every core busy, and
// prints each round's failures. A CI that never flakes passes every round on a loaded machine.
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 5;
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds takes a whole number of at least 1");
const vitestArgs = args.length > 0 ? args : ["--project", "integration:*", "--project", "e2e"];
const reportFile = ".test-data/vitest-report.json";

/** One busy process per core: a loop that never yields, so the suites compete for every core. */
function startLoad(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
}

function runRound(): Promise<{ code: number; failures: string[]; summary: string }> {
  return new Promise((resolve) => {
    let last = "";
    const child = spawn("npx", ["tsx", "scripts/test.ts", ...vitestArgs], { stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      const summaries = chunk.toString().match(/^\d+ passed, \d+ failed.*$/gm);
      if (summaries) last = summaries[summaries.length - 1] ?? last;
    });
    child.on("exit", (code) => {
      let failures: string[] = [];
      try {
        const report = JSON.parse(readFileSync(reportFile, "utf8")) as {
          testResults: { name: string; status: string; assertionResults: { fullName: string; status: string }[] }[];
        };
        failures = report.testResults.flatMap((file) => {
          const failed = file.assertionResults
            .filter((a) => a.status === "failed")
            .map((a) => `${file.name}: ${a.fullName}`);
          return failed.length > 0 || file.status !== "failed" ? failed : [`${file.name}: failed before its tests ran`];
        });
      } catch {
        failures = ["no vitest report was written"];
      }
      resolve({ code: code ?? 1, failures, summary: last || "no summary line" });
    });
  });
}

const load = startLoad();
const stopLoad = () => load.forEach((p) => p.kill("SIGKILL"));
process.on("exit", stopLoad);
process.on("SIGINT", () => process.exit(130));

const results: { round: number; seconds: number; summary: string; failures: string[] }[] = [];
for (let round = 1; round <= rounds; round++) {
  console.log(`\n== round ${round} of ${rounds}, ${load.length} busy processes running`);
  const started = Date.now();
  const { code, failures, summary } = await runRound();
  results.push({
    round,
    seconds: Math.round((Date.now() - started) / 1000),
    summary,
    failures: code === 0 || failures.length ? failures : ["exit code " + code],
  });
}
stopLoad();

console.log("\nTests under load:");
for (const r of results) {
  console.log(`round ${r.round}: ${r.summary} in ${r.seconds} s`);
  for (const f of r.failures) console.log(`  failed: ${f}`);
}
const failedRounds = results.filter((r) => r.failures.length > 0).length;
console.log(`${rounds - failedRounds} of ${rounds} rounds without a failure`);
process.exit(failedRounds > 0 ? 1 : 0);
