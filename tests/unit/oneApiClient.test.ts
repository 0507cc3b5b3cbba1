import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Issue 25 item 9: pages run declared actions through useResourceAction and read or write through
// the data provider; only src/providers speaks to the API directly, so a change to an action's
// `when`, reason or confirmation reaches every screen.
const SRC = join(import.meta.dirname, "../../src");
const PROVIDERS = join(SRC, "providers");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** Imports (static, re-exports and dynamic) that bring apiRequest in from the API client. */
function importsApiRequest(source: string): boolean {
  const named = /(?:import|export)\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["'][^"']*providers\/apiClient["']/g;
  for (const match of source.matchAll(named))
    if (match[1]!.split(",").some((name) => /^\s*(?:type\s+)?apiRequest\b/.test(name))) return true;
  if (/import\s*\*\s*as\s+\w+\s+from\s*["'][^"']*providers\/apiClient["']/.test(source)) return true;
  if (/export\s*\*\s*from\s*["'][^"']*providers\/apiClient["']/.test(source)) return true;
  return /import\(\s*["'][^"']*providers\/apiClient["']\s*\)/.test(source);
}

describe("one client for the API", () => {
  it("the scan finds an import of apiRequest in any of its forms", () => {
    expect(importsApiRequest(`import { apiRequest } from "../../providers/apiClient";`)).toBe(true);
    expect(importsApiRequest(`import { apiBase, apiRequest as call } from "../providers/apiClient";`)).toBe(true);
    expect(importsApiRequest(`import * as api from "../providers/apiClient";`)).toBe(true);
    expect(importsApiRequest(`const { apiRequest } = await import("../providers/apiClient");`)).toBe(true);
    expect(importsApiRequest(`import type { ApiError } from "../../providers/apiClient";`)).toBe(false);
    expect(importsApiRequest(`import { apiOrigin } from "../providers/apiClient";`)).toBe(false);
  });

  it("no file under src outside src/providers imports apiRequest", () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !file.startsWith(PROVIDERS + "/"))
      .filter((file) => importsApiRequest(readFileSync(file, "utf8")))
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });
});
