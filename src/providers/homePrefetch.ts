import type { Home } from "../resources/usage";
import { apiRequest } from "./apiClient";
import { currentSessionUser } from "./session";
import { takeEarlyHome } from "./earlySession";

/**
 * The signed-in home's one request (GET /home), started the moment sign-in resolves, so it runs
 * while the portal's chunk loads and renders instead of after. The dashboard's first /home query
 * takes it (dataProvider.custom); every later one goes to the network as usual.
 */
const FRESH_MS = 10_000;
let prefetched: { home: Promise<Home | undefined>; at: number } | undefined;

/** Starts GET /home for a subscriber (staff have no such home); anything else resolves to nothing. */
export function prefetchHome(): void {
  const home = currentSessionUser()
    .then((user) => (user?.role === "subscriber" ? apiRequest<Home>("/home") : undefined))
    // A failed prefetch is not an answer: the dashboard asks again and shows that error, if any.
    .catch(() => undefined);
  prefetched = { home, at: Date.now() };
}

/**
 * The prefetched home (the entry's early one first, earlySession.ts), once and while fresh; undefined
 * when there is none to take (ask the network).
 */
export async function takePrefetchedHome(): Promise<Home | undefined> {
  const earlyHome = await takeEarlyHome();
  if (earlyHome) return earlyHome;
  const taken = prefetched;
  prefetched = undefined;
  if (!taken || Date.now() - taken.at > FRESH_MS) return undefined;
  return taken.home;
}
