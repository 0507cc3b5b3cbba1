declare module "virtual:declared-icons" {
  import type { ComponentType } from "react";
  /** The antd icons the resource declarations name, by name (scripts/vite/declaredIcons.ts). */
  const icons: Record<string, ComponentType>;
  export default icons;
}
