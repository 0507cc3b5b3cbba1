import { useEffect, useId, useState, type FormEvent } from "react";
import { translate as t } from "../../i18n";
import { formText } from "./formText";
import { emailWaitingForLink, finishEmailLinkSignIn, isEmailSignInLink, sendSignInLink } from "../../providers/identityFlows";
import { AuthCard, FormAlert, FormField, useLocale } from "./AuthCard";
import { isEmail } from "./validation";


/**
 * Passwordless sign-in: asks for the email and sends the link; opened from that link, finishes the
 * sign-in (asking for the email again only when the link is opened on another device).
 */
export function EmailLinkPage({ onSignedIn }: { onSignedIn: () => void | Promise<void> }) {
  useLocale();
  const id = useId();
  const arrivedByLink = isEmailSignInLink(location.href);
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [sentTo, setSentTo] = useState<string>();
  const [pending, setPending] = useState(false);

  async function finish(email: string) {
    setPending(true);
    const result = await finishEmailLinkSignIn(email, location.href);
    setPending(false);
    if (result.ok) await onSignedIn();
    else setError({ field: result.field, message: result.message });
  }

  useEffect(() => {
    const email = emailWaitingForLink();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- finishing the sign-in is work outside React, started once on arrival
    if (arrivedByLink && email) void finish(email);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), "email").trim();
    if (!isEmail(email)) return setError({ field: "email", message: t(email ? "signIn.errors.emailInvalid" : "signIn.errors.emailRequired") });
    if (arrivedByLink) return finish(email);
    setPending(true);
    const result = await sendSignInLink(email);
    setPending(false);
    if (result.ok) setSentTo(email);
    else setError({ field: result.field, message: result.message });
  }

  return (
    <AuthCard title={t("emailLink.title")} subtitle={arrivedByLink ? t("emailLink.confirm") : t("emailLink.subtitle")} footerLinks={<a href="/login">{t("signIn.backToSignIn")}</a>}>
      {sentTo ? (
        <FormAlert tone="success" message={t("emailLink.sent", { email: sentTo })} />
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
          <FormAlert message={error && error.field !== "email" ? error.message : undefined} />
          <FormField id={`${id}-email`} name="email" label={t("signIn.email")} type="email" inputMode="email" autoComplete="email" error={error?.field === "email" ? error.message : undefined} />
          <button type="submit" className="signin__submit" disabled={pending}>
            {arrivedByLink ? t("emailLink.finish") : t("emailLink.submit")}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
