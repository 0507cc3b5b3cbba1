import { ESLint } from "eslint";
import { expect, it } from "vitest";

// The house checks itself (issue 25, item 6): every `npm test` runs the type-checked linter over
// the tree and fails on any error, naming the file, line and rule.
it("ESLint finds no errors", async () => {
  const results = await new ESLint().lintFiles(["."]);
  const errors = results.flatMap((file) =>
    file.messages
      .filter((m) => m.severity === 2)
      .map((m) => `${file.filePath.replace(`${process.cwd()}/`, "")}:${m.line} ${m.ruleId ?? "parse"}: ${m.message}`),
  );
  expect(errors).toEqual([]);
});
