import type { MessageKey } from "../i18n/en";

/** Where a Firebase Auth error belongs on the form, and the message key that explains it. */
export type AuthField = "email" | "password" | "newPassword" | "phone" | "code" | "displayName";

export interface AuthErrorMessage {
  field?: AuthField;
  key: MessageKey;
}

const BY_CODE: Record<string, AuthErrorMessage> = {
  "auth/invalid-email": { field: "email", key: "signIn.errors.emailInvalid" },
  "auth/missing-email": { field: "email", key: "signIn.errors.emailRequired" },
  "auth/missing-password": { field: "password", key: "signIn.errors.passwordRequired" },
  // Never say which of the two was wrong: that would tell an attacker which emails have accounts.
  "auth/invalid-credential": { key: "signIn.errors.invalidCredential" },
  "auth/invalid-login-credentials": { key: "signIn.errors.invalidCredential" },
  "auth/wrong-password": { key: "signIn.errors.invalidCredential" },
  "auth/user-not-found": { key: "signIn.errors.invalidCredential" },
  "auth/too-many-requests": { key: "signIn.errors.tooManyRequests" },
  "auth/user-disabled": { key: "signIn.errors.userDisabled" },
  "auth/network-request-failed": { key: "signIn.errors.network" },
  "auth/timeout": { key: "signIn.errors.network" },
  "auth/internal-error": { key: "signIn.errors.generic" },
  // Sign-up and passwords
  "auth/email-already-in-use": { field: "email", key: "auth.errors.emailInUse" },
  "auth/weak-password": { field: "newPassword", key: "auth.errors.weakPassword" },
  "auth/password-does-not-meet-requirements": { field: "newPassword", key: "auth.errors.weakPassword" },
  "auth/requires-recent-login": { field: "password", key: "auth.errors.recentLogin" },
  "auth/user-mismatch": { field: "password", key: "auth.errors.userMismatch" },
  // Phone numbers and codes
  "auth/invalid-phone-number": { field: "phone", key: "auth.errors.phoneInvalid" },
  "auth/missing-phone-number": { field: "phone", key: "auth.errors.phoneRequired" },
  "auth/quota-exceeded": { field: "phone", key: "auth.errors.smsQuota" },
  "auth/captcha-check-failed": { field: "phone", key: "auth.errors.captcha" },
  "auth/invalid-app-credential": { field: "phone", key: "auth.errors.captcha" },
  "auth/missing-app-credential": { field: "phone", key: "auth.errors.captcha" },
  "auth/invalid-verification-code": { field: "code", key: "auth.errors.codeInvalid" },
  "auth/missing-verification-code": { field: "code", key: "auth.errors.codeRequired" },
  "auth/code-expired": { field: "code", key: "auth.errors.codeExpired" },
  "auth/invalid-verification-id": { field: "code", key: "auth.errors.codeExpired" },
  "auth/missing-verification-id": { field: "code", key: "auth.errors.codeExpired" },
  "auth/invalid-multi-factor-session": { field: "code", key: "auth.errors.codeExpired" },
  // Linking
  "auth/credential-already-in-use": { key: "auth.errors.credentialInUse" },
  "auth/account-exists-with-different-credential": { key: "auth.errors.accountExistsDifferentCredential" },
  "auth/provider-already-linked": { key: "auth.errors.providerAlreadyLinked" },
  "auth/no-such-provider": { key: "auth.errors.noSuchProvider" },
  // Multi-factor
  "auth/second-factor-already-in-use": { field: "phone", key: "auth.errors.secondFactorInUse" },
  "auth/maximum-second-factor-count-exceeded": { key: "auth.errors.tooManyFactors" },
  "auth/unverified-email": { key: "auth.errors.unverifiedEmail" },
  "auth/multi-factor-info-not-found": { key: "auth.errors.factorNotFound" },
  "auth/multi-factor-auth-required": { key: "auth.errors.mfaRequired" },
  // Popups, redirects and links
  "auth/popup-closed-by-user": { key: "auth.errors.popupClosed" },
  "auth/cancelled-popup-request": { key: "auth.errors.popupClosed" },
  "auth/popup-blocked": { key: "auth.errors.popupBlocked" },
  "auth/invalid-action-code": { key: "auth.errors.linkInvalid" },
  "auth/expired-action-code": { key: "auth.errors.linkInvalid" },
  "auth/operation-not-allowed": { key: "auth.errors.methodDisabled" },
  "auth/admin-restricted-operation": { key: "auth.errors.methodDisabled" },
  "auth/user-token-expired": { key: "auth.errors.sessionExpired" },
  "auth/invalid-user-token": { key: "auth.errors.sessionExpired" },
};

/** Maps any error from firebase/auth to a translated message; raw `auth/...` codes never reach a person. */
export function authErrorMessage(error: unknown): AuthErrorMessage {
  const code = (error as { code?: unknown })?.code;
  return (
    (typeof code === "string" && Object.hasOwn(BY_CODE, code) && BY_CODE[code]) || { key: "signIn.errors.generic" }
  );
}
