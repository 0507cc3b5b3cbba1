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
