import { useState } from "react";
import { runtimeConfig } from "../../config/runtime";
import { getLocale, translate as t } from "../../i18n";
import type { ThisWasntMeResult } from "../../resources/accountAlerts";
import { AuthCard, FormAlert } from "./AuthCard";

const ENDPOINT = `${runtimeConfig.apiUrl.replace(/\/$/, "")}/api/v1/public/this-wasnt-me`;

/** The link's token, from the address's fragment (`/this-wasnt-me#<token>`); null when it is not one. */
function tokenOfAddress(): string | null {
  const token = decodeURIComponent(location.hash.replace(/^#/, "")).trim();
  // The shape of alertTokenSchema (resources/accountAlerts.ts), without bringing zod into this light page.
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

/**
 * Where an account alert's "This wasn't me" link leads (issue 27): no sign-in, a plain explanation of
 * what pressing the one button does, then what was done. Plain React like the other signed-out pages.
 */
export function ThisWasntMePage() {
  const [token] = useState(tokenOfAddress);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<ThisWasntMeResult>();

  async function press() {
    if (!token) return;
    setPending(true);
    setError(undefined);
    try {
      const response = await fetch(ENDPOINT, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json", "accept-language": getLocale() },
        body: JSON.stringify({ token }),
      });
      const body = (await response.json().catch(() => null)) as
        | (ThisWasntMeResult & { detail?: string })
        | { detail?: string }
        | null;
      if (response.ok) setDone(body as ThisWasntMeResult);
      else setError(body?.detail || t("signIn.errors.generic"));
    } catch {
      setError(t("thisWasntMe.unreachable"));
    } finally {
      setPending(false);
    }
  }

  const signIn = <a href="/login">{t("thisWasntMe.signIn")}</a>;
  if (done)
    return (
      <AuthCard title={t("thisWasntMe.doneTitle")} footerLinks={signIn}>
        <div role="status">
          <ul className="signin__list">
            <li>{t("thisWasntMe.doneLocked", { count: done.linesLocked })}</li>
            <li>{t("thisWasntMe.doneSignedOut")}</li>
            <li>{t(done.ticketOpened ? "thisWasntMe.doneTicket" : "thisWasntMe.doneNoTicket")}</li>
          </ul>
          <p>{t("thisWasntMe.doneNext")}</p>
        </div>
      </AuthCard>
    );

  return (
    <AuthCard title={t("thisWasntMe.title")} footerLinks={signIn}>
      {token ? (
        <>
          <p>{t("thisWasntMe.intro")}</p>
          <ul className="signin__list">
            <li>{t("thisWasntMe.willLock")}</li>
            <li>{t("thisWasntMe.willSignOut")}</li>
            <li>{t("thisWasntMe.willTicket")}</li>
          </ul>
          <p className="signin__hint" style={{ marginBottom: 16 }}>
            {t("thisWasntMe.noSignIn")}
          </p>
          <FormAlert message={error} />
          <button
            type="button"
            className="signin__submit"
            disabled={pending}
            aria-busy={pending}
            onClick={() => void press()}
          >
            {pending ? t("thisWasntMe.pending") : t("thisWasntMe.button")}
          </button>
        </>
      ) : (
        <FormAlert message={t("thisWasntMe.missing")} />
      )}
    </AuthCard>
  );
}
