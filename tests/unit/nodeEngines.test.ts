import { existsSync, readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// `npm ci` on the Node the README names prints no EBADENGINE warning (issue 25, item 11): every
// installed package accepts the oldest Node our `engines` allows, so the lock cannot drift onto a
// release that needs a newer one without this failing.
const manifest = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

describe("the Node the project declares", () => {
  const oldest = semver.minVersion(manifest.engines.node)!;

  it("is the Node this machine runs, or older", () => {
    expect(semver.satisfies(process.version, manifest.engines.node)).toBe(true);
  });

  it(`is accepted by every installed package (oldest allowed: ${oldest.version})`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== "" && existsSync(path))
      .flatMap(([path, entry]) => {
        const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
        if (!range || !semver.validRange(range)) return [];
        return semver.satisfies(oldest, range)
          ? []
          : [`${path.replace(/^.*node_modules\//, "")}@${entry.version} wants node ${range}`];
      });
    expect(refusing).toEqual([]);
  });
});
