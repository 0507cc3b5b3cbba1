import { useId, useState, type FormEvent } from "react";
import { translate as t } from "../../i18n";
import { formText } from "./formText";
import { signUp } from "../../providers/identityFlows";
import { AuthCard, FormAlert, FormField, useLocale } from "./AuthCard";
import { isEmail } from "./validation";

type Errors = Partial<Record<"displayName" | "email" | "newPassword" | "form", string>>;

/**
 * Sign-up: the account becomes a subscriber of this operator; the backend links it to the
 * customer accounts that carry the same email once that email is verified (never before).
 */
export function SignUpPage({ onSignedIn }: { onSignedIn: () => void | Promise<void> }) {
  useLocale();
  const id = useId();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values = { displayName: formText(data, "displayName"), email: formText(data, "email").trim(), password: formText(data, "newPassword") };
    const found: Errors = {};
    if (!values.displayName.trim()) found.displayName = t("register.errors.nameRequired");
    if (!values.email) found.email = t("signIn.errors.emailRequired");
    else if (!isEmail(values.email)) found.email = t("signIn.errors.emailInvalid");
    if (values.password.length < 8) found.newPassword = t("register.errors.passwordShort");
    setErrors(found);
    if (Object.keys(found).length) return;
    setPending(true);
    const result = await signUp(values);
    setPending(false);
    if (result.ok) setCreated(values.email);
    else setErrors({ [result.field === "email" || result.field === "newPassword" || result.field === "displayName" ? result.field : "form"]: result.message });
  }

  if (created) {
    return (
      <AuthCard title={t("register.title")}>
        <FormAlert tone="success" message={t("register.verifySent", { email: created })} />
        <button type="button" className="signin__submit" onClick={() => void onSignedIn()}>
          {t("code.submit")}
        </button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("register.title")} subtitle={t("register.subtitle")} footerLinks={<a href="/login">{t("signIn.backToSignIn")}</a>}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
        <FormAlert message={errors.form} />
        <FormField id={`${id}-name`} name="displayName" label={t("register.name")} autoComplete="name" error={errors.displayName} />
        <FormField id={`${id}-email`} name="email" label={t("signIn.email")} type="email" inputMode="email" autoComplete="email" autoCapitalize="none" error={errors.email} />
        <FormField
          id={`${id}-password`}
          name="newPassword"
          label={t("register.password")}
          type="password"
          autoComplete="new-password"
          hint={t("register.passwordHint")}
          error={errors.newPassword}
        />
        <button type="submit" className="signin__submit" disabled={pending}>
          {t("register.submit")}
        </button>
      </form>
    </AuthCard>
  );
}
