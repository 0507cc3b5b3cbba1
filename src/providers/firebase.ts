import { initializeApp } from "firebase/app";
import { browserLocalPersistence, connectAuthEmulator, indexedDBLocalPersistence, initializeAuth } from "firebase/auth";
import { runtimeConfig } from "../config/runtime";

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
