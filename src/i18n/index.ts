import type { MessageKey } from "./en";
import { hasMessage, translateTo, type Locale } from "./dictionaries";

export { addMessages, isMessageKey, LOCALES, translateTo, type Locale } from "./dictionaries";

const STORAGE_KEY = "portal.locale";

function initialLocale(): Locale {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === "en" || saved === "es") return saved;
  } catch {
    // storage may be blocked (private mode): fall back to the browser's language
  }
  return typeof navigator !== "undefined" && navigator.language?.toLowerCase().startsWith("es") ? "es" : "en";
}

let current: Locale = typeof window === "undefined" ? "en" : initialLocale();
const listeners = new Set<(locale: Locale) => void>();

export const getLocale = () => current;

/** `remember: false` switches for this page only (main.tsx hydrating the prerendered English form). */
export function setLocale(locale: Locale, { remember = true }: { remember?: boolean } = {}) {
  current = locale;
  try {
    if (remember) localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // not persisted; still switched for this visit
  }
  if (typeof document !== "undefined") document.documentElement.lang = locale;
  listeners.forEach((l) => l(locale));
}

export function onLocaleChange(listener: (locale: Locale) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Who reads the page. Staff act on a customer's line, so a text that speaks to the customer ("At your
 * request", "Your plan") may have a `<key>.forStaff` variant that speaks of them instead ("At the
 * customer's request", "Current plan"): translate picks it while staff read. The signed-in identity
 * sets it (providers/authProvider.ts); subscribers, and anyone before sign-in, read the plain key.
 */
export type Reader = "subscriber" | "staff";
let reader: Reader = "subscriber";

export const getReader = () => reader;

export function setReader(next: Reader) {
  reader = next;
}

/** The key a reader reads: a staff member the key's `.forStaff` variant, where it has one. */
const voiced = (key: string) => {
  if (reader !== "staff") return key;
  const forStaff = `${key}.forStaff`;
  return hasMessage(current, forStaff) ? forStaff : key;
};

/**
 * Translates a key, filling `{{name}}` placeholders. Unknown keys (Refine's own, e.g. "buttons.save")
 * fall back to the default message the caller gives, then to the key.
 */
export function translate(
  key: MessageKey | (string & {}),
  params?: Record<string, unknown> | string,
  fallback?: string,
): string {
  // Refine also calls translate(key, defaultMessage).
  if (typeof params === "string") [params, fallback] = [undefined, fallback ?? params];
  return translateTo(current, voiced(key), params, fallback);
}
