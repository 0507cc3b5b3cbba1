/**
 * The feature flags Remote Config drives, with the in-code defaults that hold until (and unless) a
 * fetched template says otherwise: offline, before the first fetch, and in a build without a Firebase
 * app id. The portal (src/providers/remoteConfig.ts) and the backend (server/lib/featureFlags.ts) read
 * the same names with the same defaults; remoteconfig.template.json (deployed with
 * `firebase deploy --only remoteconfig`) starts from them too, and a unit test keeps the three equal.
 */
export const FEATURE_FLAG_DEFAULTS = {
  /** A notice on every page (outage, maintenance); empty: none. */
  outage_banner: "",
  card_top_up_enabled: true,
  esim_transfer_enabled: true,
} as const;

export type FeatureFlags = { outage_banner: string; card_top_up_enabled: boolean; esim_transfer_enabled: boolean };
export type FeatureFlagName = keyof FeatureFlags;
/** The on/off toggles among them: each turns a feature of the portal and the backend off while false. */
export type FeatureToggleName = {
  [K in FeatureFlagName]: FeatureFlags[K] extends boolean ? K : never;
}[FeatureFlagName];

/** Reads every flag through a source's typed getters (both SDKs have getString/getBoolean). */
export function readFlags(source: { getString(key: string): string; getBoolean(key: string): boolean }): FeatureFlags {
  return {
    outage_banner: source.getString("outage_banner"),
    card_top_up_enabled: source.getBoolean("card_top_up_enabled"),
    esim_transfer_enabled: source.getBoolean("esim_transfer_enabled"),
  };
}
