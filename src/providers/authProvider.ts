import type { AuthProvider } from "@refinedev/core";
import {
  browserLocalPersistence,
  browserSessionPersistence,
  inMemoryPersistence,
  indexedDBLocalPersistence,
  setPersistence,
  signOut,
  type Persistence,
} from "firebase/auth";
import { setReader, translate } from "../i18n";
import { isStaff } from "../resources/access";
import { auth } from "./firebase";
import { signInWithPassword } from "./identityFlows";
import { currentSessionUser } from "./session";
import { rememberSession } from "./sessionHint";
import { keepTokenLasting } from "./earlySession";

export interface SignInValues {
  email: string;
  password: string;
  remember?: boolean;
  redirectTo?: string;
}

/**
 * "Remember me" keeps the session on the device, otherwise for this tab only. Where a storage is
 * unavailable (blocked storage, private modes, old WebViews) the next one is tried, so sign-in never
 * fails for want of IndexedDB.
 */
async function choosePersistence(remember: boolean): Promise<void> {
  keepTokenLasting(remember);
  const choices: Persistence[] = remember
    ? [indexedDBLocalPersistence, browserLocalPersistence, inMemoryPersistence]
    : [browserSessionPersistence, inMemoryPersistence];
  for (const persistence of choices) {
    try {
      await setPersistence(auth, persistence);
      return;
    } catch {
      // unavailable here: try the next
    }
  }
}

/**
 * Refine's auth provider over firebase/auth. Kept free of Refine and antd at run time (only types
 * are imported) because the light sign-in page calls it before the portal has loaded.
 */
export const authProvider = {
  async login({ email, password, remember = true, redirectTo }: SignInValues) {
    await choosePersistence(remember);
    const result = await signInWithPassword(email, password);
    if (result.ok) return { success: true, redirectTo: redirectTo || "/" };
    return { success: false, error: { name: result.field ?? "form", message: result.message }, mfa: result.mfa };
  },
  async logout() {
    await signOut(auth);
    rememberSession(false);
    return { success: true, redirectTo: "/login" };
  },
  async check() {
    const user = await currentSessionUser();
    rememberSession(Boolean(user));
    return user ? { authenticated: true } : { authenticated: false, logout: true, redirectTo: "/login" };
  },
  async getIdentity() {
    const user = await currentSessionUser();
    // Staff read texts about a customer in the third person ("At the customer's request"): src/i18n's reader.
    setReader(isStaff(user?.role) ? "staff" : "subscriber");
    return user;
  },
  async getPermissions() {
    return (await currentSessionUser())?.role ?? null;
  },
  onError(error: { statusCode?: number }) {
    // The data provider already retried once with a fresh token: a 401 now means the session is over.
    if (error?.statusCode === 401)
      return Promise.resolve({
        logout: true,
        redirectTo: "/login",
        error: new Error(translate("auth.errors.sessionExpired")),
      });
    return Promise.resolve({});
  },
} satisfies AuthProvider;
