import {
  EmailAuthProvider,
  GoogleAuthProvider,
  PhoneAuthProvider,
  PhoneMultiFactorGenerator,
  RecaptchaVerifier,
  browserPopupRedirectResolver,
  createUserWithEmailAndPassword,
  getMultiFactorResolver,
  getRedirectResult,
  isSignInWithEmailLink,
  linkWithCredential,
  linkWithPopup,
  multiFactor,
  reauthenticateWithCredential,
  reauthenticateWithPhoneNumber,
  sendEmailVerification,
  sendPasswordResetEmail,
  sendSignInLinkToEmail,
  signInWithEmailAndPassword,
  signInWithEmailLink,
  signInWithPhoneNumber,
  signInWithPopup,
  signInWithRedirect,
  signOut,
  unlink,
  updatePassword,
  updateProfile,
  type MultiFactorError,
  type MultiFactorResolver,
  type User,
  type UserCredential,
} from "firebase/auth";
import { runtimeConfig } from "../config/runtime";
import { translate } from "../i18n";
import { apiRequest } from "./apiClient";
import { failure, type FlowFailure, type FlowResult, type MfaChallenge } from "./flowResults";
import { auth } from "./firebase";
import { maskPhone, toE164 } from "./phoneNumbers";
import { rememberSession } from "./sessionHint";

/**
 * Every sign-in and account-security flow of the portal over firebase/auth. Each returns a result a
 * page can show: done, a second step to ask for, or a translated message at the field it concerns.
 * No raw `auth/...` code ever leaves this module.
 */
export type { FlowFailure, FlowResult, MfaChallenge } from "./flowResults";

export interface CodeStep {
  /** Where the code was sent, masked. */
  sentTo: string;
  verify(code: string): Promise<FlowResult>;
}

export type CodeStepResult = { ok: true; step: CodeStep } | FlowFailure;

const invalidPhone = (): FlowFailure => ({ ok: false, field: "phone", message: translate("auth.errors.phoneInvalid") });

/** A fresh invisible verifier per attempt: a reused one hangs (see shared/patterns.md). */
function verifierIn(container: HTMLElement): RecaptchaVerifier {
  container.replaceChildren();
  return new RecaptchaVerifier(auth, container, { size: "invisible" });
}

/** Asks the backend whether another SMS may go to this number now (per-number and per-IP limits). */
async function smsAllowed(
  phoneNumber: string,
  purpose: "sign_in" | "mfa_enroll" | "mfa_sign_in" | "link",
): Promise<void> {
  await apiRequest("/api/auth/sms-allowance", { method: "POST", body: { phoneNumber, purpose } });
}

/**
 * The shape every SMS flow shares: read the typed number in the operator's country, ask the backend
 * whether another code may go to it, have Firebase text it, and return the step that takes the code.
 */
async function textCode(
  phoneInput: string,
  purpose: "sign_in" | "mfa_enroll" | "link",
  send: (phone: string) => Promise<(code: string) => Promise<FlowResult>>,
): Promise<CodeStepResult> {
  const phone = toE164(phoneInput, runtimeConfig.operator);
  if (!phone) return invalidPhone();
  try {
    await smsAllowed(phone, purpose);
    return { ok: true, step: { sentTo: maskPhone(phone), verify: await send(phone) } };
  } catch (error) {
    return failure(error);
  }
}

/**
 * After every sign-in of someone who is not staff: the backend makes a new sign-in a subscriber of
 * this operator, and links the accounts it now provably owns (an email verified since last time
 * counts from then on). Idempotent on the backend; a new role needs a fresh token.
 */
export async function ensureRole(): Promise<void> {
  const user = auth.currentUser;
  if (!user) return;
  const { claims } = await user.getIdTokenResult();
  if (claims.role && claims.role !== "subscriber") return;
  if (claims.role) {
    // Already a subscriber: only newly provable accounts are at stake, so a backend hiccup must not block sign-in.
    await apiRequest("/me/claim", { method: "POST" }).catch(() => undefined);
    return;
  }
  await apiRequest("/me/claim", { method: "POST" });
  await user.getIdToken(true);
}

async function finishSignIn(): Promise<FlowResult> {
  try {
    await ensureRole();
    rememberSession(true);
    return { ok: true };
  } catch (error) {
    return failure(error);
  }
}

function mfaChallengeFrom(error: unknown): MfaChallenge | null {
  if ((error as { code?: string })?.code !== "auth/multi-factor-auth-required") return null;
  const resolver: MultiFactorResolver = getMultiFactorResolver(auth, error as MultiFactorError);
  const hint = resolver.hints.find((h) => h.factorId === PhoneMultiFactorGenerator.FACTOR_ID);
  if (!hint) return null;
  let verificationId: string | null = null;
  return {
    hint: maskPhone((hint as { phoneNumber?: string }).phoneNumber),
    async sendCode(container) {
      try {
        const provider = new PhoneAuthProvider(auth);
        verificationId = await provider.verifyPhoneNumber(
          { multiFactorHint: hint, session: resolver.session },
          verifierIn(container),
        );
        return { ok: true };
      } catch (e) {
        return failure(e);
      }
    },
    async verify(code) {
      if (!verificationId) return { ok: false, field: "code", message: translate("auth.errors.codeExpired") };
      try {
        await resolver.resolveSignIn(
          PhoneMultiFactorGenerator.assertion(PhoneAuthProvider.credential(verificationId, code.trim())),
        );
        return finishSignIn();
      } catch (e) {
        return failure(e);
      }
    },
  };
}

async function signedIn(attempt: () => Promise<UserCredential | null>): Promise<FlowResult> {
  try {
    const credential = await attempt();
    if (!credential) return { ok: false, field: "form", message: translate("signIn.errors.generic") };
    return finishSignIn();
  } catch (error) {
    const mfa = mfaChallengeFrom(error);
    if (mfa) return { ok: false, field: "code", message: translate("auth.errors.mfaRequired"), mfa };
    return failure(error);
  }
}

export const signInWithPassword = (email: string, password: string) =>
  signedIn(() => signInWithEmailAndPassword(auth, email.trim(), password));

export const startPhoneSignIn = (phoneInput: string, container: HTMLElement) =>
  textCode(phoneInput, "sign_in", async (phone) => {
    const confirmation = await signInWithPhoneNumber(auth, phone, verifierIn(container));
    return (code) => signedIn(() => confirmation.confirm(code.trim()));
  });

export async function signUp(values: { displayName: string; email: string; password: string }): Promise<FlowResult> {
  try {
    const { user } = await createUserWithEmailAndPassword(auth, values.email.trim(), values.password);
    if (values.displayName.trim()) await updateProfile(user, { displayName: values.displayName.trim() });
    await sendEmailVerification(user);
    return finishSignIn();
  } catch (error) {
    return failure(error);
  }
}

export async function resetPassword(email: string): Promise<FlowResult> {
  try {
    await sendPasswordResetEmail(auth, email.trim());
    return { ok: true };
  } catch (error) {
    // Same answer whether or not the email has an account: no account enumeration.
    const code = (error as { code?: string })?.code;
    return code === "auth/user-not-found" ? { ok: true } : failure(error);
  }
}

const googleProvider = () => new GoogleAuthProvider();

/** Google: a popup on wide screens, a full-page redirect on phones (popups are unreliable there). */
const REDIRECT_PENDING = "portal.redirectPending";

export function signInWithGoogle(mode: "popup" | "redirect"): Promise<FlowResult> {
  if (mode === "redirect") {
    sessionStorage.setItem(REDIRECT_PENDING, "1");
    return signInWithRedirect(auth, googleProvider(), browserPopupRedirectResolver).then(
      () => ({ ok: true }) as const,
      failure,
    );
  }
  return signedIn(() => signInWithPopup(auth, googleProvider(), browserPopupRedirectResolver));
}

/**
 * After a Google redirect comes back: finishes the sign-in, or null when none was started here.
 * Asking Firebase only then keeps Google's scripts off every other visit to the sign-in page.
 */
export async function finishRedirectSignIn(): Promise<FlowResult | null> {
  if (sessionStorage.getItem(REDIRECT_PENDING) !== "1") return null;
  sessionStorage.removeItem(REDIRECT_PENDING);
  try {
    const credential = await getRedirectResult(auth, browserPopupRedirectResolver);
    return credential ? finishSignIn() : null;
  } catch (error) {
    return signedIn(() => {
      throw error; // handled by signedIn as any failed sign-in is
    });
  }
}

const EMAIL_FOR_LINK = "portal.emailForSignIn";

export async function sendSignInLink(email: string): Promise<FlowResult> {
  try {
    await sendSignInLinkToEmail(auth, email.trim(), {
      url: `${location.origin}/login/email-link`,
      handleCodeInApp: true,
    });
    localStorage.setItem(EMAIL_FOR_LINK, email.trim());
    return { ok: true };
  } catch (error) {
    return failure(error);
  }
}

export const isEmailSignInLink = (url: string) => isSignInWithEmailLink(auth, url);
export const emailWaitingForLink = () => localStorage.getItem(EMAIL_FOR_LINK);

export function finishEmailLinkSignIn(email: string, url: string): Promise<FlowResult> {
  return signedIn(async () => {
    const credential = await signInWithEmailLink(auth, email.trim(), url);
    localStorage.removeItem(EMAIL_FOR_LINK);
    return credential;
  });
}

// ——— Account security (signed in) ———

function currentUser(): User {
  if (!auth.currentUser) throw Object.assign(new Error("signed out"), { code: "auth/user-token-expired" });
  return auth.currentUser;
}

export interface SignInMethod {
  providerId: "password" | "phone" | "google.com" | (string & {});
  label: string;
}

/** The ways this account can sign in (the security page lists them; the last one cannot go). */
export function signInMethods(user: User | null = auth.currentUser): SignInMethod[] {
  if (!user) return [];
  return user.providerData.map((p) => ({
    providerId: p.providerId,
    label: p.providerId === "phone" ? maskPhone(p.phoneNumber) : (p.email ?? p.displayName ?? p.providerId),
  }));
}

/**
 * Runs a change of the account through Firebase, then takes a new ID token and reloads the user.
 * The backend audits the change itself from the next request's newer token
 * (server/domain/identityEvents): nothing to report. Unlinking returns no new token of its own,
 * hence the refresh.
 */
async function guarded(
  work: () => Promise<unknown>,
  explain: (error: unknown) => FlowFailure | undefined = () => undefined,
): Promise<FlowResult> {
  try {
    await work();
    await currentUser().getIdToken(true);
    await currentUser().reload();
    return { ok: true };
  } catch (error) {
    return explain(error) ?? failure(error);
  }
}

/** Firebase's answers to a wrong password (the emulator and the service differ). */
const WRONG_PASSWORD_CODES = new Set([
  "auth/invalid-credential",
  "auth/invalid-login-credentials",
  "auth/wrong-password",
]);

/**
 * Where a signed-in person typed only their current password, a wrong one is that password, at its
 * field: the sign-in's "the email or password is incorrect" would name an email nobody typed here.
 */
const wrongCurrentPassword = (error: unknown): FlowFailure | undefined =>
  WRONG_PASSWORD_CODES.has(String((error as { code?: unknown })?.code))
    ? { ok: false, field: "password", message: translate("auth.errors.currentPasswordWrong") }
    : undefined;

export const reauthenticate = (password: string) =>
  guarded(
    () =>
      reauthenticateWithCredential(currentUser(), EmailAuthProvider.credential(currentUser().email ?? "", password)),
    wrongCurrentPassword,
  );

/** How this account proves it is still its holder: its password, else a code texted to its phone. */
export function reauthMethod(user: User | null = auth.currentUser): "password" | "phone" | null {
  if (!user) return null;
  if (user.providerData.some((p) => p.providerId === "password")) return "password";
  return user.phoneNumber ? "phone" : null;
}

/** Re-authenticates with a code texted to the account's own phone number. */
export const startPhoneReauth = (container: HTMLElement) =>
  textCode(currentUser().phoneNumber ?? "", "sign_in", async (phone) => {
    const confirmation = await reauthenticateWithPhoneNumber(currentUser(), phone, verifierIn(container));
    return (code) => guarded(() => confirmation.confirm(code.trim()));
  });

export const changePassword = (current: string, next: string) =>
  guarded(async () => {
    await reauthenticateWithCredential(currentUser(), EmailAuthProvider.credential(currentUser().email ?? "", current));
    await updatePassword(currentUser(), next);
  }, wrongCurrentPassword);

export const linkEmailPassword = (email: string, password: string) =>
  guarded(async () => {
    await linkWithCredential(currentUser(), EmailAuthProvider.credential(email.trim(), password));
  });

export const linkGoogle = () =>
  guarded(async () => {
    await linkWithPopup(currentUser(), googleProvider(), browserPopupRedirectResolver);
  });

export const startLinkPhone = (phoneInput: string, container: HTMLElement) =>
  textCode(phoneInput, "link", async (phone) => {
    const verificationId = await new PhoneAuthProvider(auth).verifyPhoneNumber(phone, verifierIn(container));
    return (code) =>
      guarded(async () => {
        await linkWithCredential(currentUser(), PhoneAuthProvider.credential(verificationId, code.trim()));
      });
  });

export async function unlinkMethod(providerId: string): Promise<FlowResult> {
  if (signInMethods().length <= 1) return { ok: false, field: "form", message: translate("security.lastMethod") };
  return guarded(async () => {
    await unlink(currentUser(), providerId);
  });
}

export function secondFactors(user: User | null = auth.currentUser) {
  return user
    ? multiFactor(user).enrolledFactors.map((f) => ({
        uid: f.uid,
        label: f.displayName || maskPhone((f as { phoneNumber?: string }).phoneNumber),
        enrolledAt: f.enrollmentTime,
      }))
    : [];
}

export const startMfaEnrollment = (phoneInput: string, container: HTMLElement) =>
  textCode(phoneInput, "mfa_enroll", async (phone) => {
    const session = await multiFactor(currentUser()).getSession();
    const verificationId = await new PhoneAuthProvider(auth).verifyPhoneNumber(
      { phoneNumber: phone, session },
      verifierIn(container),
    );
    return (code) =>
      guarded(async () => {
        const assertion = PhoneMultiFactorGenerator.assertion(
          PhoneAuthProvider.credential(verificationId, code.trim()),
        );
        await multiFactor(currentUser()).enroll(assertion, maskPhone(phone));
      });
  });

export const removeSecondFactor = (factorUid: string) =>
  guarded(async () => {
    await multiFactor(currentUser()).unenroll(factorUid);
  });

/** Revokes every session of the account (all devices), then signs out here. */
export async function signOutEverywhere(): Promise<FlowResult> {
  try {
    await apiRequest("/me/sign-out-everywhere", { method: "POST" });
    await signOut(auth);
    rememberSession(false);
    return { ok: true };
  } catch (error) {
    return failure(error);
  }
}
