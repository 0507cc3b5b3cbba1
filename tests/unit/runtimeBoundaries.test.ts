import { execSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compilerOptionsOf,
  fileGraph,
  filesOf,
  importCircles,
  importsOf,
  projectPath,
  reachableFrom,
} from "../support/importGraph";

// The server and the portal share the declarations (src/resources) and nothing of React: a page
// reached from the server would load React, antd and the pages into the backend (docs/decisions.md).
const serverOptions = compilerOptionsOf("tsconfig.server.json");

const FORBIDDEN_PACKAGES = /^(react|react-dom|antd|@refinedev\/.*|@ant-design\/.*)$/;
const PORTAL_ONLY_FOLDERS = /^src\/(pages|components)\//;

/** Why a module reached from the server may not be, or undefined when it may. */
function forbidden(module: string): string | undefined {
  if (module.startsWith("package:")) {
    const name = module.slice("package:".length);
    return FORBIDDEN_PACKAGES.test(name) ? `the portal's package ${name}` : undefined;
  }
  const path = projectPath(module);
  if (path.endsWith(".tsx")) return `a React file (${path})`;
  if (PORTAL_ONLY_FOLDERS.test(path)) return `a portal page or component (${path})`;
  return undefined;
}

const named = (chain: string[]) =>
  chain.map((m) => (m.startsWith("package:") ? m.slice(8) : projectPath(m))).join(" → ");

describe("the server's import graph", () => {
  const reached = reachableFrom("server/main.ts", serverOptions);

  it("reaches the declarations (so the walk follows #resources as tsc does)", () => {
    expect(reached.has(resolve("src/resources/lines.ts"))).toBe(true);
    expect(reached.size).toBeGreaterThan(100);
  });

  it("reaches no React module, portal page or component", () => {
    const offending = [...reached.keys()].flatMap((module) => {
      const why = forbidden(module);
      return why ? [`${why}: ${named(reached.get(module)!)}`] : [];
    });
    expect(offending).toEqual([]);
  });

  it("reaches under src/ only files tsconfig.shared.json checks without DOM or Node types", () => {
    const shared = new Set(filesOf("tsconfig.shared.json"));
    const outside = [...reached.keys()]
      .filter((module) => !module.startsWith("package:") && projectPath(module).startsWith("src/"))
      .filter((file) => !shared.has(file))
      .map((file) => `${projectPath(file)} is not in tsconfig.shared.json: ${named(reached.get(file)!)}`);
    expect(outside).toEqual([]);
  });
});

describe("the declarations", () => {
  const files = execSync("git ls-files src/resources", { encoding: "utf8" })
    .split("\n")
    .filter((f) => f.endsWith(".ts"))
    .map((f) => resolve(f));

  it("import nothing of the portal: no page, component or React", () => {
    const offending = files.flatMap((file) =>
      importsOf(file, serverOptions).flatMap((imported) => {
        const module = "file" in imported ? imported.file : `package:${imported.packageName}`;
        const why = forbidden(module);
        return why ? [`${projectPath(file)} imports ${why}`] : [];
      }),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(offending).toEqual([]);
  });
});

// Issue 25: the portal's files import one another without a circle (lazy imports count: a page the
// views map loads that imports the map back is one), and the declarations likewise.
describe("import circles", () => {
  it.each(["tsconfig.portal.json", "tsconfig.shared.json"])("%s has none", (tsconfig) => {
    const circles = importCircles(fileGraph(filesOf(tsconfig), compilerOptionsOf(tsconfig)));
    expect(circles.map((circle) => circle.map(projectPath).join(" → "))).toEqual([]);
  });
});
