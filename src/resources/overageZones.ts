// Without zod or the engine: the light Shop on a phone words plans' roaming rates before the declarations load.

/** The zones a record may be used in, beside home. Kept in step with ROAMING_ZONES in ./usage. */
export const OVERAGE_ZONES = ["canada_mexico", "europe", "rest_of_world"] as const;
export type OverageZone = (typeof OVERAGE_ZONES)[number];
