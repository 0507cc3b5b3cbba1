import { createRoot } from "react-dom/client";
import { ConsentBanner } from "./ConsentBanner";
import { applyConsentToScripts } from "./thirdPartyScripts";

/**
 * Starts consent handling on every page, signed in or not: the banner in a root of its own (the
 * portal replaces #root's content on sign-in; the banner must survive that) and the scripts the
 * choice allows. main.tsx calls it after the first paint, and only for a build with a switch that needs consent.
 */
export function mountConsent(): void {
  const host = document.createElement("div");
  host.id = "consent-root";
  document.body.appendChild(host);
  createRoot(host).render(<ConsentBanner />);
  applyConsentToScripts();
}
