import { TAB_BAR_MEDIA } from "../../components/layout/destinations";

/** Where a subscriber's portal has the bottom tab bar and no sider: the phone frame the light pages draw. */
export const LIGHT_MEDIA = TAB_BAR_MEDIA;

/**
 * The destinations the light app (LightApp.tsx) draws itself on a phone, before and without the
 * portal: those whose first card needs neither antd nor Refine (Money's Top up and Pay lead into the
 * portal's dialogs). Shop's first card is its plan catalog with the plan change beside it: the portal's.
 */
export const LIGHT_PATHS: readonly string[] = ["/", "/usage", "/money", "/account"];

/** Whether `path` (a path with its query and hash) is one the light app draws: a light page with no query or hash. */
export function isLightPath(path: string): boolean {
  const url = new URL(path, "http://portal.invalid");
  return LIGHT_PATHS.includes(url.pathname) && !url.search && !url.hash;
}
