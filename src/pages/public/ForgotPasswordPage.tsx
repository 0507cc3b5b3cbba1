import { useId, useState, type FormEvent } from "react";
import { translate as t } from "../../i18n";
import { formText } from "./formText";
import { resetPassword } from "../../providers/identityFlows";
import { AuthCard, FormAlert, FormField, useLocale } from "./AuthCard";
import { isEmail } from "./validation";


/** Password reset by email. The answer is the same whether or not the email has an account. */
export function ForgotPasswordPage() {
  useLocale();
  const id = useId();
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [sentTo, setSentTo] = useState<string>();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), "email").trim();
    if (!isEmail(email)) return setError({ field: "email", message: t(email ? "signIn.errors.emailInvalid" : "signIn.errors.emailRequired") });
    setPending(true);
    const result = await resetPassword(email);
    setPending(false);
    if (result.ok) setSentTo(email);
    else setError({ field: result.field, message: result.message });
  }

  return (
    <AuthCard title={t("forgot.title")} subtitle={t("forgot.subtitle")} footerLinks={<a href="/login">{t("signIn.backToSignIn")}</a>}>
      {sentTo ? (
        <FormAlert tone="success" message={t("forgot.sent", { email: sentTo })} />
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
          <FormAlert message={error && error.field !== "email" ? error.message : undefined} />
          <FormField id={`${id}-email`} name="email" label={t("signIn.email")} type="email" inputMode="email" autoComplete="email" error={error?.field === "email" ? error.message : undefined} />
          <button type="submit" className="signin__submit" disabled={pending}>
            {t("forgot.submit")}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
