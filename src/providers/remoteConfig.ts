import { FEATURE_FLAG_DEFAULTS, readFlags, type FeatureFlags } from "../config/featureFlags";
import { runtimeConfig } from "../config/runtime";

/**
 * Feature flags in the portal: the in-code defaults at once (the first render never waits), then
 * whatever Remote Config activates, fetched in the background. Offline, or in a build without a
 * Firebase app id (Remote Config needs one), the defaults simply stay.
 */
let flags: FeatureFlags = { ...FEATURE_FLAG_DEFAULTS };
let source: "defaults" | "remote" = "defaults";
const listeners = new Set<() => void>();

export const getFeatureFlags = () => flags;
export const featureFlagsSource = () => source;
export const subscribeFeatureFlags = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Replaces the flags (Remote Config's activation; tests). */
export function applyFeatureFlags(next: FeatureFlags, from: "defaults" | "remote" = "remote"): void {
  flags = next;
  source = from;
  listeners.forEach((l) => l());
}

let started: Promise<void> | undefined;

/** Fetches and activates once per page, after the first render; any failure leaves the defaults. */
export function startRemoteConfig(): Promise<void> {
  started ??= (async () => {
    if (!runtimeConfig.firebase.appId) return;
    try {
      const [{ firebaseApp }, rc] = await Promise.all([import("./firebase"), import("firebase/remote-config")]);
      const remoteConfig = rc.getRemoteConfig(firebaseApp);
      remoteConfig.defaultConfig = { ...FEATURE_FLAG_DEFAULTS };
      remoteConfig.settings.fetchTimeoutMillis = 5_000;
      remoteConfig.settings.minimumFetchIntervalMillis = 60 * 60 * 1000;
      await rc.fetchAndActivate(remoteConfig);
      applyFeatureFlags(
        readFlags({
          getString: (k) => rc.getString(remoteConfig, k),
          getBoolean: (k) => rc.getBoolean(remoteConfig, k),
        }),
      );
    } catch (error) {
      console.warn("Remote Config not reached; the in-code defaults hold.", error);
    }
  })();
  return started;
}
