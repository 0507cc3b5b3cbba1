import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { initializeApp, type App } from "firebase-admin/app";
import { getRemoteConfig, type RemoteConfigParameter } from "firebase-admin/remote-config";
import { FEATURE_FLAG_DEFAULTS, readFlags, type FeatureFlags, type FeatureToggleName } from "#config/featureFlags";
import type { FieldSpec } from "#resources/define";
import { unprocessable } from "../errors";
import { words } from "../i18n/words";

/** The Remote Config template kept in the repo (deployed with `firebase deploy --only remoteconfig`). */
export const REPO_TEMPLATE_PATH = "remoteconfig.template.json";

export function readRepoTemplate(path = REPO_TEMPLATE_PATH): { parameters: Record<string, RemoteConfigParameter> } {
  return JSON.parse(readFileSync(path, "utf8")) as { parameters: Record<string, RemoteConfigParameter> };
}

export interface FeatureFlagSource {
  /** The flags now: the project's live template once loaded, else the repo's template over the in-code defaults. */
  current(): FeatureFlags;
  source(): "repo-template" | "remote";
  /** Loads the project's live template; false (and nothing changes) when Remote Config cannot be reached in time. */
  load(): Promise<boolean>;
}

/**
 * The backend's view of the portal's feature flags, through the Admin SDK's server template: the
 * same names and in-code defaults as the portal, the repo's template as the starting data, and the
 * project's live template when `load()` reaches Remote Config (production). Offline the defaults hold.
 */
export function createFeatureFlags(
  options: { app?: App; projectId?: string; timeoutMs?: number; templatePath?: string } = {},
): FeatureFlagSource {
  const app =
    options.app ?? initializeApp({ projectId: options.projectId ?? "demo-att-portal" }, `flags-${randomUUID()}`);
  const template = getRemoteConfig(app).initServerTemplate({
    defaultConfig: { ...FEATURE_FLAG_DEFAULTS },
    template: { conditions: [], parameters: readRepoTemplate(options.templatePath).parameters, etag: "repo-template" },
  });
  let from: "repo-template" | "remote" = "repo-template";
  return {
    current: () => readFlags(template.evaluate()),
    source: () => from,
    async load() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("Remote Config did not answer in time")), options.timeoutMs ?? 5_000);
      });
      try {
        await Promise.race([template.load(), timeout]);
        from = "remote";
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Flags that change only when told (`set`): the in-code defaults unless given. For a test that must
 * turn a feature off (buildApp's `featureFlags`), and for code that needs a source with no Firebase app.
 */
export function staticFeatureFlags(
  initial: Partial<FeatureFlags> = {},
): FeatureFlagSource & { set(flags: Partial<FeatureFlags>): void } {
  let flags: FeatureFlags = { ...FEATURE_FLAG_DEFAULTS, ...initial };
  return {
    current: () => flags,
    source: () => "repo-template",
    load: () => Promise.resolve(false),
    set(next) {
      flags = { ...flags, ...next };
    },
  };
}

/** Whether a feature toggle is on now; a server without a flag source keeps the in-code defaults. */
export const toggleOn = (flags: Pick<FeatureFlagSource, "current"> | undefined, name: FeatureToggleName): boolean =>
  flags ? flags.current()[name] : FEATURE_FLAG_DEFAULTS[name];

/**
 * 422 naming the field when an action's input picks an enum value whose feature toggle is off
 * (the declaration's `optionToggles`: moving a line to an eSIM while `esim_transfer_enabled` is false).
 */
export function refuseToggledOffInput(
  inputFields: Record<string, FieldSpec> | undefined,
  input: Record<string, unknown>,
  flags: Pick<FeatureFlagSource, "current"> | undefined,
): void {
  for (const [field, spec] of Object.entries(inputFields ?? {})) {
    const value = input[field];
    // Toggled options are enum values: text (or a number or flag written as one), never an object.
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
    const toggle = spec.optionToggles?.[String(value)];
    if (!toggle || toggleOn(flags, toggle)) continue;
    throw unprocessable(words("lib.toggledOff", { field, value: String(value), toggle }), [
      { path: field, message: words("lib.toggledOffField", { value: String(value) }) },
    ]);
  }
}
