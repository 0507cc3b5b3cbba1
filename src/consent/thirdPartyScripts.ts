import { runtimeConfig } from "../config/runtime";
import { getLocale } from "../i18n";
import { getConsent, hasConsent, onConsentChange, type ConsentChoice } from "./consent";

/**
 * Loads the operator's third-party scripts, and only once the visitor has said yes: the tag
 * manager, the analytics ids and the CRM tracker with consent to analytics, the CRM chat widget with
 * consent to chat and a press of the help button. Scripts come only from the configured URLs, which
 * are also the only hosts the build's Content-Security-Policy allows.
 */
const { switches } = runtimeConfig;
type Globals = Window & {
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
  CrmTrackerConfig?: { accessKey: string };
  CrmChatConfig?: ChatConfig;
  CrmChat?: { open?: () => void };
};
const w = window as Globals;

function addScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} did not load`));
    document.head.appendChild(script);
  });
}

let measurementLoaded = false;

/** Tag manager, analytics and tracker: each configured one, once. */
function loadMeasurement(): void {
  if (measurementLoaded) return;
  measurementLoaded = true;
  w.dataLayer = w.dataLayer ?? [];
  if (switches.tagManagerId) {
    w.dataLayer.push({ "gtm.start": Date.now(), event: "gtm.js" });
    void addScript(`${switches.tagScriptOrigin}/gtm.js?id=${encodeURIComponent(switches.tagManagerId)}`).catch(
      console.warn,
    );
  }
  if (switches.analyticsIds.length) {
    // gtag.js reads the `arguments` objects this pushes, exactly as Google's snippet does.
    w.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params
      w.dataLayer!.push(arguments);
    };
    w.gtag("js", new Date());
    for (const id of switches.analyticsIds) w.gtag("config", id);
    void addScript(`${switches.tagScriptOrigin}/gtag/js?id=${encodeURIComponent(switches.analyticsIds[0]!)}`).catch(
      console.warn,
    );
  }
  if (switches.crmTrackerUrl) {
    w.CrmTrackerConfig = { accessKey: switches.chatAccessKey };
    void addScript(switches.crmTrackerUrl).catch(console.warn);
  }
}

/** What the chat widget is told: the access key and who is asking. Never a token. */
export interface ChatConfig {
  accessKey: string;
  locale: string;
  subscriber: { name: string; accountId: string } | null;
}

let chatLoading: Promise<void> | undefined;

/** Opens the CRM chat (loading its widget the first time); the caller has checked consent to chat. */
export async function openChat(subscriber: ChatConfig["subscriber"]): Promise<void> {
  if (!switches.crmChatScriptUrl || !hasConsent("chat")) return;
  if (!chatLoading) {
    w.CrmChatConfig = {
      accessKey: switches.chatAccessKey,
      locale: getLocale(),
      subscriber: subscriber ? { name: subscriber.name, accountId: subscriber.accountId } : null,
    };
    chatLoading = addScript(switches.crmChatScriptUrl).catch((error) => {
      chatLoading = undefined; // a failed load may be retried with the next press
      throw error;
    });
  }
  await chatLoading;
  w.CrmChat?.open?.();
}

/**
 * Applies the current choice now and every later one. A script that has run cannot be unloaded: taking
 * consent back after something loaded reloads the page, which then loads nothing.
 */
export function applyConsentToScripts(): () => void {
  const apply = (choice: ConsentChoice | null) => {
    if (choice?.analytics) loadMeasurement();
    const revoked = (measurementLoaded && !choice?.analytics) || (chatLoading && !choice?.chat);
    if (revoked) window.location.reload();
  };
  apply(getConsent());
  return onConsentChange(apply);
}
