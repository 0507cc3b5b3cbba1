import { describe, expect, it } from "vitest";
import { compareAppVersions, isAppVersionTooOld } from "../../src/config/appVersion";

describe("app versions", () => {
  it("compare by their numbers, not as text", () => {
    expect(compareAppVersions("3.2.1", "3.2.1")).toBe(0);
    expect(compareAppVersions("3.10.0", "3.9.9")).toBeGreaterThan(0);
    expect(compareAppVersions("3.2.1", "3.2.10")).toBeLessThan(0);
    expect(compareAppVersions("4.0.0", "3.99.99")).toBeGreaterThan(0);
  });

  it("a portal is too old below the minimum; at or above it is not", () => {
    expect(isAppVersionTooOld("3.2.0", "3.2.1")).toBe(true);
    expect(isAppVersionTooOld("2.9.9", "3.0.0")).toBe(true);
    expect(isAppVersionTooOld("3.2.1", "3.2.1")).toBe(false);
    expect(isAppVersionTooOld("3.3.0", "3.2.1")).toBe(false);
  });

  it("a header that is not a version counts as too old; no header at all (not a portal) does not", () => {
    expect(isAppVersionTooOld("latest", "3.2.1")).toBe(true);
    expect(isAppVersionTooOld("3.2", "3.2.1")).toBe(true);
    expect(isAppVersionTooOld("", "3.2.1")).toBe(true);
    expect(isAppVersionTooOld(undefined, "3.2.1")).toBe(false);
  });
});
