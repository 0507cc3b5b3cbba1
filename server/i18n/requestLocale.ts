import Negotiator from "negotiator";
import { LOCALES, type Locale } from "#i18n/dictionaries";

/**
 * The language a request asks its answer in: the best of the portal's languages by its
 * `Accept-Language` (q-values, "es-MX" is Spanish, "*" anything), English when it names none of them.
 * The portal sends the page's language; other clients get their browser's or English.
 */
export function localeOf(headers: { "accept-language"?: string | string[] | undefined }): Locale {
  const header = headers["accept-language"];
  if (!header) return "en";
  const best = new Negotiator({ headers: { "accept-language": Array.isArray(header) ? header.join(",") : header } })
    .languages([...LOCALES])
    .at(0);
  return LOCALES.find((locale) => locale === best) ?? "en";
}

/** A saved language (a profile's "es"), or English for anything else. */
export function savedLocale(value: unknown): Locale {
  return LOCALES.find((locale) => locale === value) ?? "en";
}
