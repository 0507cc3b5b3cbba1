import { runtimeConfig } from "../config/runtime";

/**
 * The visitor's consent to the operator's third-party services, kept in this browser (and, when
 * signed in, on their profile: see ConsentSync). Nothing third-party loads until a choice says so.
 *
 * - `analytics`: the tag manager, the analytics ids and the CRM tracker (measurement).
 * - `chat`: the CRM's chat widget, which receives the subscriber's name and account id.
 */
export interface ConsentChoice {
  analytics: boolean;
  chat: boolean;
  /** When the choice was made (ISO); the newer of the browser's and the profile's wins. */
  decidedAt: string;
}

export type ConsentCategory = "analytics" | "chat";

const STORAGE_KEY = "portal.consent.v1";
const { switches } = runtimeConfig;

/** Which categories this build has anything for: a category without a configured service is never asked about. */
export const consentCategories: readonly ConsentCategory[] = [
  ...(switches.tagManagerId || switches.analyticsIds.length || switches.crmTrackerUrl ? (["analytics"] as const) : []),
  ...(switches.crmChatScriptUrl ? (["chat"] as const) : []),
];

/** A build with no third-party switch set asks nothing and loads nothing. */
export const consentNeeded = consentCategories.length > 0;

function isChoice(value: unknown): value is ConsentChoice {
  const v = value as ConsentChoice | null;
  return (
    !!v &&
    typeof v.analytics === "boolean" &&
    typeof v.chat === "boolean" &&
    typeof v.decidedAt === "string" &&
    !Number.isNaN(Date.parse(v.decidedAt))
  );
}

function readStored(): ConsentChoice | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
    return isChoice(parsed) ? parsed : null;
  } catch {
    return null; // storage blocked or a damaged value: ask again
  }
}

let current: ConsentChoice | null = typeof window === "undefined" ? null : readStored();
const listeners = new Set<(choice: ConsentChoice | null) => void>();

export const getConsent = () => current;

/** The choice for one category; undecided counts as no. */
export const hasConsent = (category: ConsentCategory) => current?.[category] === true;

/** Records a choice made now (banner, profile page) or adopted from the profile (`decidedAt` given). */
export function setConsent(choice: Omit<ConsentChoice, "decidedAt"> & { decidedAt?: string }): ConsentChoice {
  const next: ConsentChoice = {
    analytics: choice.analytics,
    chat: choice.chat,
    decidedAt: choice.decidedAt ?? new Date().toISOString(),
  };
  current = next;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // not kept beyond this visit; the choice still holds for it
  }
  listeners.forEach((l) => l(next));
  return next;
}

export function onConsentChange(listener: (choice: ConsentChoice | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** useSyncExternalStore's subscribe signature. */
export const subscribeConsent = (onChange: () => void) => onConsentChange(onChange);
