import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { translate as t } from "../../i18n";
import { formText } from "./formText";
import type { FlowResult } from "../../providers/identityFlows";
import { FormAlert, FormField } from "./AuthCard";

/**
 * Asks for the 6-digit SMS code: used by phone sign-in, the second sign-in step (MFA), phone
 * linking and MFA enrolment. `send` (optional) is called once on mount and by "Send a new code";
 * it receives the invisible reCAPTCHA container Firebase needs.
 */
export function CodeStep({
  sentTo,
  send,
  verify,
  onDone,
  submitLabel,
}: {
  sentTo: string;
  send?: (recaptcha: HTMLElement) => Promise<FlowResult>;
  verify: (code: string) => Promise<FlowResult>;
  onDone: () => void | Promise<void>;
  submitLabel?: string;
}) {
  const id = useId();
  const recaptcha = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(!send);

  async function sendCode() {
    if (!send || !recaptcha.current) return;
    setPending(true);
    const result = await send(recaptcha.current);
    setPending(false);
    if (result.ok) setSent(true);
    else setError({ field: result.field, message: result.message });
  }

  useEffect(() => {
    void sendCode();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- send once, when the step appears
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = formText(new FormData(event.currentTarget), "code").trim();
    if (!/^\d{6}$/.test(code)) return setError({ field: "code", message: t("auth.errors.codeRequired") });
    setPending(true);
    const result = await verify(code);
    setPending(false);
    if (result.ok) await onDone();
    else setError({ field: result.field, message: result.message });
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={pending}>
      <p>{sent ? t("code.sentTo", { to: sentTo }) : t("code.sending", { to: sentTo })}</p>
      <FormAlert message={error && error.field !== "code" ? error.message : undefined} />
      <FormField
        id={`${id}-code`}
        name="code"
        label={t("code.label")}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\d{6}"
        maxLength={6}
        error={error?.field === "code" ? error.message : undefined}
      />
      <div ref={recaptcha} />
      <button type="submit" className="signin__submit" disabled={pending}>
        {submitLabel ?? t("code.submit")}
      </button>
      {send && (
        <button type="button" className="signin__link-button" onClick={() => void sendCode()} disabled={pending}>
          {t("code.resend")}
        </button>
      )}
    </form>
  );
}
