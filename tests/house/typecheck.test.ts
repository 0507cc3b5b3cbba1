import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, it } from "vitest";

// One tsconfig per runtime (issue 25, item 7): the portal without Node's types, the server without the
// DOM, the shared declarations with neither. `npm run typecheck` checks each; a failure names the errors.
it("each runtime's code compiles against its own types", async () => {
  const output = await promisify(execFile)("npm", ["run", "--silent", "typecheck"], {
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    () => "",
    (error: Error & { stdout?: string; stderr?: string }) =>
      `${error.stdout ?? ""}${error.stderr ?? ""}` || error.message,
  );
  expect(output.split("\n").filter((line) => /error TS\d+/.test(line))).toEqual([]);
  expect(output).toBe("");
});
