import type { Role } from "../resources/define";
import { isRole } from "../resources/access";
import { auth } from "./firebase";

/** The signed-in user with the claims the backend set: {role, operator}. */
export interface SessionUser {
  uid: string;
  email: string | null;
  name: string;
  role: Role | null;
  operator: string | null;
}

/** Waits for Firebase's first auth state, so a reload never looks signed out. */
export async function currentSessionUser(forceRefresh = false): Promise<SessionUser | null> {
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
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken(forceRefresh) : null;
}
