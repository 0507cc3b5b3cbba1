import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { createFeatureFlags, readRepoTemplate } from "../../server/lib/featureFlags";

describe("Remote Config feature flags", () => {
  it("the repo's template starts from exactly the in-code defaults, with the right types", () => {
    const { parameters } = readRepoTemplate();
    expect(Object.keys(parameters).sort()).toEqual(Object.keys(FEATURE_FLAG_DEFAULTS).sort());
    for (const [name, value] of Object.entries(FEATURE_FLAG_DEFAULTS)) {
      const parameter = parameters[name] as { defaultValue: { value: string }; valueType: string };
      expect(parameter.defaultValue.value, name).toBe(String(value));
      expect(parameter.valueType, name).toBe(typeof value === "boolean" ? "BOOLEAN" : "STRING");
    }
  });

  it("the backend's server template evaluates to the same defaults", () => {
    const flags = createFeatureFlags();
    expect(flags.current()).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(flags.source()).toBe("repo-template");
  });

  it("reads the template's values, not the code's, when the template says otherwise", () => {
    const dir = mkdtempSync(join(tmpdir(), "rc-"));
    const path = join(dir, "template.json");
    writeFileSync(
      path,
      JSON.stringify({
        parameters: {
          outage_banner: { defaultValue: { value: "Network work tonight 1-3 am" }, valueType: "STRING" },
          esim_transfer_enabled: { defaultValue: { value: "false" }, valueType: "BOOLEAN" },
        },
      }),
    );
    // card_top_up_enabled is missing from this template: its in-code default fills in.
    expect(createFeatureFlags({ templatePath: path }).current()).toEqual({
      outage_banner: "Network work tonight 1-3 am",
      card_top_up_enabled: true,
      esim_transfer_enabled: false,
    });
  });

  it("when Remote Config cannot be reached (no internet here), load() says so and the defaults hold", async () => {
    const flags = createFeatureFlags({ timeoutMs: 3_000 });
    await expect(flags.load()).resolves.toBe(false);
    expect(flags.current()).toEqual(FEATURE_FLAG_DEFAULTS);
    expect(flags.source()).toBe("repo-template");
  }, 15_000);
});
