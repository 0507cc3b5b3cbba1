declare module "virtual:declared-icons" {
  import type { ComponentType } from "react";
  /** The antd icons the resource declarations name, by name (scripts/vite/declaredIcons.ts). */
  const icons: Record<string, ComponentType>;
  export default icons;
}

declare module "virtual:subscriber-places" {
  import type { SubscriberPlaceEntry } from "#resources/subscriberPlaceEntry";
  /** The declarations placed on a subscriber destination (scripts/vite/subscriberPlaces.ts). */
  const places: SubscriberPlaceEntry[];
  export default places;
}

declare module "virtual:home-phone-metadata" {
  import type { MetadataJson } from "libphonenumber-js/core";
  /** Phone-number metadata of the operators' own calling codes only (scripts/vite/homePhoneMetadata.ts). */
  const metadata: MetadataJson;
  export default metadata;
}
