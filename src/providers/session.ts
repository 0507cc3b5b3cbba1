import type { Auth } from "firebase/auth";
import { isRole } from "../resources/access";
import { earlyIdToken } from "./earlySession";
import type { SessionUser } from "./sessionUser";

export type { SessionUser };

/**
 * Firebase's Auth, loaded on first use rather than with whoever imports this module: the light pages'
 * code does not wait for the SDK to arrive before it draws (earlySession.ts). Once loaded it is used
 * as it is: with an `await import()` in every session check, the portal unmounted its page after
 * each action (an open pay dialog lost its result; tests/e2e/subscriberDay.test.ts).
 */
let loadedAuth: Auth | undefined;
const loadAuth = async () => (loadedAuth ??= (await import("./firebase")).auth);

/** Waits for Firebase's first auth state, so a reload never looks signed out. */
export async function currentSessionUser(forceRefresh = false): Promise<SessionUser | null> {
  const auth = loadedAuth ?? (await loadAuth());
  await auth.authStateReady();
  const user = auth.currentUser;
  if (!user) return null;
  const { claims } = await user.getIdTokenResult(forceRefresh);
  return {
    uid: user.uid,
    email: user.email,
    name: user.displayName || user.email || user.phoneNumber || user.uid,
    role: isRole(claims.role) ? claims.role : null,
    operator: typeof claims.operator === "string" ? claims.operator : null,
  };
}

/** The ID token for API calls; forceRefresh after the backend refused a stale one. */
export async function currentIdToken(forceRefresh = false): Promise<string | null> {
  const early = forceRefresh ? undefined : earlyIdToken(); // before Firebase has restored the session
  if (early) return early;
  const auth = loadedAuth ?? (await loadAuth());
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken(forceRefresh) : null;
}
