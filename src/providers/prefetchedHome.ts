import type { Home } from "../resources/usage";

// The one GET /home started ahead of the page that reads it: at sign-in (homePrefetch.ts) or, for a
// returning subscriber, by the entry before Firebase has loaded (earlySession.ts). The page's first
// /home query takes it (dataProvider.custom); every later one goes to the network as usual.

const FRESH_MS = 10_000;
let kept: { home: Promise<Home | undefined>; at: number } | undefined;

/** Keeps a /home request on its way; a failed one resolves to undefined (the page asks again). */
export function keepPrefetchedHome(home: Promise<Home | undefined>): void {
  kept = { home, at: Date.now() };
}

/** The kept home, once and while fresh; undefined when there is none to take (ask the network). */
export async function takePrefetchedHome(): Promise<Home | undefined> {
  const taken = kept;
  kept = undefined;
  return taken && Date.now() - taken.at <= FRESH_MS ? taken.home : undefined;
}
