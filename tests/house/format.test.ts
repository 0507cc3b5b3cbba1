import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, it } from "vitest";

// The house checks itself (issue 25, item 6): every `npm test` fails on a file Prettier would
// rewrite, naming it (`npm run format` fixes them all).
it("the code is formatted by Prettier", async () => {
  const unformatted = await promisify(execFile)("npx", ["prettier", "--list-different", "."]).then(
    () => "",
    (error: Error & { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(unformatted.trim().split("\n").filter(Boolean), "npm run format rewrites these").toEqual([]);
});
