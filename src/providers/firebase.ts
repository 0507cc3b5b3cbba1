import { initializeApp } from "firebase/app";
import {
  browserLocalPersistence,
  browserSessionPersistence,
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

// Session persistence listed too: a sign-in without "Keep me signed in" (authProvider's
// choosePersistence) is stored there, and without it here a reload of the same tab lost it.
export const auth = initializeAuth(firebaseApp, {
  persistence: [indexedDBLocalPersistence, browserLocalPersistence, browserSessionPersistence],
});

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
