import type { ResourceDefinition, SubscriberPlace } from "./define";

/**
 * A declaration placed on a subscriber destination, as `virtual:subscriber-places` gives it
 * (scripts/vite/subscriberPlaces.ts): enough for the destination's "More" without the declarations.
 */
export interface SubscriberPlaceEntry {
  name: string;
  place: SubscriberPlace;
  /** i18n key of the resource's name, and the declaration's own words for it (a declared product's name). */
  label: string;
  labelWords: { en?: string; es?: string };
  access: Pick<ResourceDefinition["access"], "list">;
  /** Listed only for a person who holds an account of this kind (`subscriberAccountType`). */
  accountType?: ResourceDefinition["subscriberAccountType"];
}
