import { TAB_BAR_MEDIA } from "../../components/layout/destinations";

/** Where a subscriber's portal has the bottom tab bar and no sider: the phone frame the light pages draw. */
export const LIGHT_MEDIA = TAB_BAR_MEDIA;

/**
 * The destinations the light app (LightApp.tsx) draws itself on a phone, before and without the
 * portal: every one, since none's first card needs antd or Refine. Their choices that open a dialog
 * (Money's Top up and Pay, Shop's plan change and passes) lead into the portal's.
 */
export const LIGHT_PATHS: readonly string[] = ["/", "/usage", "/money", "/shop", "/account"];

/** The query a light page takes (Shop's line, which the home's Buy data names); any other query is the portal's. */
const LIGHT_QUERY: Record<string, readonly string[]> = { "/shop": ["line"] };

/** Whether `path` (a path with its query and hash) is one the light app draws: a light page with no hash and only its own query. */
export function isLightPath(path: string): boolean {
  const url = new URL(path, "http://portal.invalid");
  const query = LIGHT_QUERY[url.pathname] ?? [];
  return (
    LIGHT_PATHS.includes(url.pathname) && !url.hash && [...url.searchParams.keys()].every((k) => query.includes(k))
  );
}
