import { useId, useRef, useState, type FormEvent } from "react";
import { translate as t } from "../../i18n";
import { formText } from "./formText";
import { startPhoneSignIn, type CodeStep as Step } from "../../providers/identityFlows";
import { AuthCard, FormAlert, FormField, useLocale } from "./AuthCard";
import { CodeStep } from "./CodeStep";

/** Sign-in with the mobile number and a texted code: what a mobile operator's subscribers expect. */
export function PhoneSignInPage({ onSignedIn }: { onSignedIn: () => void | Promise<void> }) {
  useLocale();
  const id = useId();
  const recaptcha = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<Step>();
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const phone = formText(new FormData(event.currentTarget), "phone");
    if (!phone.trim()) return setError({ field: "phone", message: t("auth.errors.phoneRequired") });
    setPending(true);
    const result = await startPhoneSignIn(phone, recaptcha.current!);
    setPending(false);
    if (result.ok) setStep(result.step);
    else setError({ field: result.field, message: result.message });
  }

  return (
    <AuthCard title={t("phone.title")} subtitle={t("phone.subtitle")} footerLinks={<a href="/login">{t("signIn.backToSignIn")}</a>}>
      {step ? (
        <CodeStep sentTo={step.sentTo} verify={(code) => step.verify(code)} onDone={onSignedIn} />
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
          <FormAlert message={error && error.field !== "phone" ? error.message : undefined} />
          <FormField
            id={`${id}-phone`}
            name="phone"
            label={t("phone.label")}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            hint={t("phone.hint")}
            error={error?.field === "phone" ? error.message : undefined}
          />
          <div ref={recaptcha} />
          <button type="submit" className="signin__submit" disabled={pending}>
            {t("phone.send")}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
