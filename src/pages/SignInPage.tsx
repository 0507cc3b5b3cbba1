import { useEffect, useId, useState, type FormEvent } from "react";
import { translate as t } from "../i18n";
import { formText } from "./public/formText";
import type { SignInValues } from "../providers/authProvider";
import type { MfaChallenge } from "../providers/identityFlows";
import { AuthCard, FormAlert, FormField, useLocale } from "./public/AuthCard";
import { CodeStep } from "./public/CodeStep";
import "./SignInPage.css";
import { isEmail } from "./public/validation";

export interface SignInResult {
  success: boolean;
  error?: { name: string; message: string };
  /** The account has a second step: ask for the code sent to `mfa.hint`. */
  mfa?: MfaChallenge;
}

type FieldErrors = Partial<Record<"email" | "password" | "form", string>>;

export interface SignInPageProps {
  signIn: (values: SignInValues) => Promise<SignInResult>;
  signInWithGoogle?: () => Promise<SignInResult>;
  /** After a second step (MFA) completes the sign-in. */
  onSignedIn?: () => void | Promise<void>;
  /** What a sign-in that came back from a redirect (Google on phones) ended with. */
  initial?: SignInResult;
  /** Once React owns the form (hydrated or rendered): main.tsx then switches to the visitor's language. */
  onReady?: () => void;
}

/**
 * The first screen most subscribers see, on a phone over a mobile network: plain React and CSS,
 * no antd and no Refine, prerendered into index.html. Errors appear at the field that caused them
 * and are announced to screen readers.
 */
export function SignInPage({ signIn, signInWithGoogle, onSignedIn, initial, onReady }: SignInPageProps) {
  useLocale(); // every label follows a language switch
  const [showPassword, setShowPassword] = useState(false);
  // The form is prerendered into index.html; it only submits once React has hydrated it.
  const [hydrated, setHydrated] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(initial?.error ? { form: initial.error.message } : {});
  const [pending, setPending] = useState(false);
  const [mfa, setMfa] = useState<MfaChallenge | undefined>(initial?.mfa);
  const id = useId();

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the one render after hydration is the point: it enables submit
    setHydrated(true);
    performance.mark("portal:sign-in-ready"); // the form accepts sign-ins (page-load benchmark)
    onReady?.();
  }, []);

  function validate(email: string, password: string): FieldErrors {
    const found: FieldErrors = {};
    if (!email.trim()) found.email = t("signIn.errors.emailRequired");
    else if (!isEmail(email.trim())) found.email = t("signIn.errors.emailInvalid");
    if (!password) found.password = t("signIn.errors.passwordRequired");
    return found;
  }

  function show(result: SignInResult) {
    if (result.mfa) return setMfa(result.mfa);
    if (!result.success) {
      const field = result.error?.name === "email" || result.error?.name === "password" ? result.error.name : "form";
      setErrors({ [field]: result.error?.message ?? t("signIn.errors.generic") });
    }
  }

  // main.tsx shows the outcome of a redirect sign-in on the page that is already there.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- `initial` arrives from outside (a redirect's outcome), once
    if (initial) show(initial);
  }, [initial]);

  async function run(attempt: () => Promise<SignInResult>) {
    setPending(true);
    try {
      show(await attempt());
    } catch {
      // The sign-in code itself failed to load (flaky network, a deploy in between): say so, allow a retry.
      setErrors({ form: t("signIn.errors.network") });
    } finally {
      setPending(false);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Uncontrolled inputs: whatever was typed before hydration is kept and read here.
    const data = new FormData(event.currentTarget);
    const email = formText(data, "email");
    const password = formText(data, "password");
    const remember = data.get("remember") === "on";
    const found = validate(email, password);
    setErrors(found);
    if (Object.keys(found).length) {
      document.getElementById(`${id}-${found.email ? "email" : "password"}`)?.focus();
      return;
    }
    await run(() => signIn({ email, password, remember }));
  }

  if (mfa) {
    return (
      <AuthCard title={t("mfa.title")} subtitle={t("mfa.subtitle")}>
        <CodeStep
          sentTo={mfa.hint}
          send={(recaptcha) => mfa.sendCode(recaptcha)}
          verify={(code) => mfa.verify(code)}
          onDone={() => onSignedIn?.()}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t("signIn.title")}
      subtitle={t("signIn.subtitle")}
      footerLinks={
        <>
          <a href="/forgot-password">{t("signIn.forgot")}</a>
          <a href="/login/phone">{t("signIn.withPhone")}</a>
          <a href="/login/email-link">{t("signIn.withEmailLink")}</a>
          <a href="/register">{t("signIn.register")}</a>
        </>
      }
    >
      <form noValidate method="post" onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
        <FormAlert message={errors.form} />
        <FormField
          id={`${id}-email`}
          name="email"
          label={t("signIn.email")}
          type="email"
          inputMode="email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.email}
        />
        <div className="signin__field">
          <label htmlFor={`${id}-password`}>{t("signIn.password")}</label>
          <div className="signin__password">
            <input
              id={`${id}-password`}
              name="password"
              type={showPassword ? "text" : "password"}
              autoComplete="current-password"
              aria-invalid={Boolean(errors.password)}
              aria-describedby={errors.password ? `${id}-password-error` : undefined}
            />
            <button
              type="button"
              className="signin__reveal"
              aria-pressed={showPassword}
              onClick={() => setShowPassword((s) => !s)}
            >
              {showPassword ? t("signIn.hidePassword") : t("signIn.showPassword")}
            </button>
          </div>
          {errors.password && (
            <p className="signin__error" id={`${id}-password-error`} role="alert">
              {errors.password}
            </p>
          )}
        </div>
        <label className="signin__check">
          <input type="checkbox" name="remember" defaultChecked />
          {t("signIn.remember")}
        </label>
        <button type="submit" className="signin__submit" disabled={pending || !hydrated}>
          {pending ? t("signIn.submitting") : t("signIn.submit")}
        </button>
        {signInWithGoogle && (
          <>
            <p className="signin__divider">{t("signIn.or")}</p>
            <button
              type="button"
              className="signin__secondary"
              disabled={pending || !hydrated}
              onClick={() => void run(signInWithGoogle)}
            >
              {t("signIn.google")}
            </button>
          </>
        )}
      </form>
    </AuthCard>
  );
}

/** Shown while Firebase restores a saved session, so the screen is never blank. */
export function BootScreen() {
  return (
    <main className="signin" aria-busy="true">
      <p className="signin__loading" role="status">
        {t("signIn.loading")}
      </p>
    </main>
  );
}
