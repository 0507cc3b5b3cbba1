import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { initializeApp, type App } from "firebase-admin/app";
import { getRemoteConfig, type RemoteConfigParameter } from "firebase-admin/remote-config";
import { FEATURE_FLAG_DEFAULTS, readFlags, type FeatureFlags } from "../../src/config/featureFlags";

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
export function createFeatureFlags(options: { app?: App; projectId?: string; timeoutMs?: number; templatePath?: string } = {}): FeatureFlagSource {
  const app = options.app ?? initializeApp({ projectId: options.projectId ?? "demo-att-portal" }, `flags-${randomUUID()}`);
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
