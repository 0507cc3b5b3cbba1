import { useEffect } from "react";
import type { ConsentRecord } from "../../resources/consent";
import { dataProvider } from "../../providers/dataProvider";
import { consentNeeded, getConsent, onConsentChange, setConsent, type ConsentChoice } from "../../consent/consent";

const newer = (a: ConsentChoice | null, b: ConsentChoice | null) =>
  !!a && (!b || Date.parse(a.decidedAt) > Date.parse(b.decidedAt));

/**
 * Keeps the browser's consent and the signed-in person's profile in step: the newer decision wins
 * on both sides, and every later change is stored on the profile. Renders nothing.
 */
export function ConsentSync() {
  useEffect(() => {
    if (!consentNeeded) return;
    const store = (choice: ConsentChoice | null) => {
      if (choice)
        void dataProvider.custom!({ url: "/me/consent", method: "put", payload: choice }).catch((error) =>
          console.warn("Consent not stored on the profile", error),
        );
    };
    let active = true;
    dataProvider.custom!<{ consent: ConsentRecord | null }>({ url: "/me/consent", method: "get" })
      .then(({ data: { consent: stored } }) => {
        if (!active) return;
        const local = getConsent();
        if (newer(stored, local)) setConsent(stored!);
        else if (newer(local, stored)) store(local);
      })
      .catch((error) => console.warn("Consent not read from the profile", error));
    const stop = onConsentChange(store);
    return () => {
      active = false;
      stop();
    };
  }, []);
  return null;
}
