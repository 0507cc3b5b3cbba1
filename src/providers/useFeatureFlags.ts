import { useSyncExternalStore } from "react";
import type { FeatureFlags, FeatureToggleName } from "../config/featureFlags";
import { getFeatureFlags, subscribeFeatureFlags } from "./remoteConfig";

/** Every flag as Remote Config has it now (defaults until fetched); re-renders when an activation changes them. */
export function useFeatureFlags(): FeatureFlags {
  return useSyncExternalStore(subscribeFeatureFlags, getFeatureFlags, getFeatureFlags);
}

/** A feature's toggle as Remote Config has it now (defaults until fetched). */
export function useFeatureFlag(name: FeatureToggleName): boolean {
  return useFeatureFlags()[name];
}
