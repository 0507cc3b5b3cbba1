import { initializeApp } from "firebase/app";
import {
  browserLocalPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  onIdTokenChanged,
} from "firebase/auth";
import { runtimeConfig } from "../config/runtime";
import { firebaseHasRestored, rememberIdToken } from "./earlySession";

/**
 * The one Firebase app and Auth instance of the portal. initializeAuth (not getAuth) leaves out the
 * popup/redirect resolver, which the sign-in page does not need; flows that do pass it explicitly.
 */
export const firebaseApp = initializeApp(runtimeConfig.firebase);

export const auth = initializeAuth(firebaseApp, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });

if (runtimeConfig.authEmulatorHost) {
  connectAuthEmulator(auth, `http://${runtimeConfig.authEmulatorHost}`, { disableWarnings: true });
  // The emulator takes any app verifier; reCAPTCHA itself cannot load offline. Never outside it.
  auth.settings.appVerificationDisabledForTesting = true;
}

// The entry's copy of the latest ID token (earlySession.ts), kept in step with every change: a
// sign-in, an hourly refresh, new claims, a sign-out.
onIdTokenChanged(auth, (user) => {
  if (!user) return rememberIdToken(null);
  user.getIdToken().then(rememberIdToken, () => rememberIdToken(null));
});
void auth.authStateReady().then(firebaseHasRestored, firebaseHasRestored);
