import { useEffect, useSyncExternalStore } from "react";
import { Alert } from "antd";
import { getFeatureFlags, startRemoteConfig, subscribeFeatureFlags } from "../../providers/remoteConfig";

/** Remote Config's `outage_banner`: a notice on every page while it is set. Starts the background fetch after the first render. */
export function OutageBanner() {
  const flags = useSyncExternalStore(subscribeFeatureFlags, getFeatureFlags, getFeatureFlags);
  useEffect(() => void startRemoteConfig(), []);
  if (!flags.outage_banner) return null;
  return <Alert type="error" banner showIcon role="status" message={flags.outage_banner} data-testid="outage-banner" />;
}

/** A feature's toggle as Remote Config has it now (defaults until fetched). */
export function useFeatureFlag<K extends "card_top_up_enabled" | "esim_transfer_enabled">(name: K): boolean {
  return useSyncExternalStore(subscribeFeatureFlags, getFeatureFlags, getFeatureFlags)[name];
}
