import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";

/**
 * Where every backend of an e2e run writes its log (the suite's, and those e2e files start of their
 * own): one file each. The last e2e file (backendLogPrivacy.test.ts) reads them all for the demo
 * people's personal data. The e2e project hands this folder to its workers as BACKEND_LOG_DIR;
 * other suites leave it unset, and their backends log as before.
 */
export const E2E_BACKEND_LOG_DIR = ".test-data/e2e-backend-logs";

/** The folder a backend started from a test logs into, if this suite has one. */
export const backendLogDir = (): string | undefined => process.env.BACKEND_LOG_DIR || undefined;

/** An empty folder for this run's logs. */
export function resetBackendLogs(dir = E2E_BACKEND_LOG_DIR): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

/**
 * Appends a backend's output to `<dir>/<name>.log`, and passes its warnings and errors on to the
 * test run's stderr, as they were shown before they went to a file.
 */
export function teeBackendLog(dir: string, name: string, ...outputs: (Readable | null | undefined)[]): void {
  mkdirSync(dir, { recursive: true });
  const file = createWriteStream(join(dir, `${name}.log`), { flags: "a" });
  for (const output of outputs) {
    let partial = "";
    output?.on("data", (chunk: Buffer) => {
      file.write(chunk);
      const lines = (partial + chunk.toString("utf8")).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines)
        if (!/"level":(10|20|30)\b/.test(line) && line.trim()) process.stderr.write(`${line}\n`);
    });
  }
}
