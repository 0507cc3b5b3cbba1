import { useEffect, useSyncExternalStore } from "react";
import { Alert } from "antd";
import type { FeatureFlags, FeatureToggleName } from "../../config/featureFlags";
import { getFeatureFlags, startRemoteConfig, subscribeFeatureFlags } from "../../providers/remoteConfig";

/** Remote Config's `outage_banner`: a notice on every page while it is set. Starts the background fetch after the first render. */
export function OutageBanner() {
  const flags = useSyncExternalStore(subscribeFeatureFlags, getFeatureFlags, getFeatureFlags);
  useEffect(() => void startRemoteConfig(), []);
  if (!flags.outage_banner) return null;
  return <Alert type="error" banner showIcon role="status" message={flags.outage_banner} data-testid="outage-banner" />;
}

/** Every flag as Remote Config has it now (defaults until fetched); re-renders when an activation changes them. */
export function useFeatureFlags(): FeatureFlags {
  return useSyncExternalStore(subscribeFeatureFlags, getFeatureFlags, getFeatureFlags);
}

/** A feature's toggle as Remote Config has it now (defaults until fetched). */
export function useFeatureFlag(name: FeatureToggleName): boolean {
  return useFeatureFlags()[name];
}
