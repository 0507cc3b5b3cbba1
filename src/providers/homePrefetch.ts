import type { Home } from "../resources/usage";
import { apiRequest } from "./apiClient";
import { currentSessionUser } from "./session";
import { keepPrefetchedHome } from "./prefetchedHome";

/**
 * The signed-in home's one request (GET /home), started the moment sign-in resolves, so it runs
 * while the portal's chunk loads and renders instead of after (prefetchedHome.ts).
 */
export function prefetchHome(): void {
  keepPrefetchedHome(
    currentSessionUser()
      .then((user) => (user?.role === "subscriber" ? apiRequest<Home>("/home") : undefined))
      // A failed prefetch is not an answer: the dashboard asks again and shows that error, if any.
      .catch(() => undefined),
  );
}
