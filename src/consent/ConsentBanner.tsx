import { useEffect, useState, useSyncExternalStore } from "react";
import { getLocale, onLocaleChange, translate as t } from "../i18n";
import { consentCategories, getConsent, setConsent, subscribeConsent, type ConsentCategory } from "./consent";
import "./ConsentBanner.css";

/**
 * Asks once, before anything third-party loads: accept all, reject all, or choose per category.
 * Plain HTML (no antd) so it can show on the light signed-out pages too. The choice is changed
 * later on the profile page.
 */
export function ConsentBanner() {
  const choice = useSyncExternalStore(subscribeConsent, getConsent, () => null);
  const [, setLocale] = useState(getLocale());
  useEffect(() => onLocaleChange(setLocale), []);
  const [choosing, setChoosing] = useState(false);
  const [picked, setPicked] = useState<Record<ConsentCategory, boolean>>({ analytics: false, chat: false });
  if (choice) return null;

  const decide = (all: boolean) =>
    setConsent({
      analytics: all && consentCategories.includes("analytics"),
      chat: all && consentCategories.includes("chat"),
    });
  return (
    <section className="consent-banner" aria-labelledby="consent-banner-title">
      <h2 id="consent-banner-title">{t("switches.consent.title")}</h2>
      <p>{t("switches.consent.intro")}</p>
      {choosing && (
        <fieldset>
          <legend className="visually-hidden">{t("switches.consent.choose")}</legend>
          {consentCategories.map((category) => (
            <label key={category}>
              <input
                type="checkbox"
                checked={picked[category]}
                onChange={(e) => setPicked({ ...picked, [category]: e.target.checked })}
              />
              <span>
                <strong>{t(`switches.consent.${category}.label`)}</strong>
                <br />
                {t(`switches.consent.${category}.detail`)}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="consent-banner__actions">
        {choosing ? (
          <button type="button" className="consent-banner__primary" onClick={() => setConsent(picked)}>
            {t("switches.consent.save")}
          </button>
        ) : (
          <>
            <button type="button" className="consent-banner__primary" onClick={() => decide(true)}>
              {t("switches.consent.accept")}
            </button>
            <button type="button" onClick={() => decide(false)}>
              {t("switches.consent.reject")}
            </button>
            <button type="button" onClick={() => setChoosing(true)}>
              {t("switches.consent.choose")}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
