import type { ComponentType } from "react";

type PageModule = { default: ComponentType };

/** A chunk loaded once, by whichever asks first (the route, or main.tsx ahead of it); a failed load is retried by the next. */
function once(load: () => Promise<PageModule>): () => Promise<PageModule> {
  let loading: Promise<PageModule> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/**
 * The subscriber app's destinations besides the home (components/layout/destinations.ts), each its
 * own chunk. App.tsx renders them with React.lazy and passes `preloadDestinationPage` on to main.tsx,
 * which starts the one a person is headed to as soon as the portal's chunk is in (while the sign-in
 * page waits, or as the light home hands over), so the route finds it loaded instead of fetching it
 * only once the portal's frame has rendered. Only App.tsx imports this module: imported by the entry
 * too, it made the bundler split the portal's code into more, larger chunks.
 */
export const destinationPages = {
  "/usage": once(() => import("./UsagePage").then((m) => ({ default: m.UsagePage }))),
  "/money": once(() => import("./MoneyPage").then((m) => ({ default: m.MoneyPage }))),
  "/shop": once(() => import("./ShopPage").then((m) => ({ default: m.ShopPage }))),
  "/account": once(() => import("./AccountPage").then((m) => ({ default: m.AccountPage }))),
} as const;

/** Starts loading the page of the destination at `pathname`, if it is one; the route takes it when it renders. */
export function preloadDestinationPage(pathname: string): void {
  const load = destinationPages[pathname as keyof typeof destinationPages];
  if (load) load().catch(() => undefined); // the route asks again and shows its own error
}
