import type { Money } from "#resources/common";
import type { Locale } from "#i18n/dictionaries";

/**
 * The Intl locale the server formats a language's amounts and dates in: the operator is in the US,
 * so Spanish is US Spanish ("$86.60", "1 nov 2026"), as the portal writes it.
 */
export const intlTag = (locale: Locale): string => (locale === "es" ? "es-US" : "en-US");

/** A calendar date ("2026-11-01") as a reader of `locale` writes it: "Nov 1, 2026", "1 nov 2026". */
export function dateText(isoDate: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlTag(locale), { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${isoDate.slice(0, 10)}T00:00:00Z`),
  );
}

/**
 * An amount as the server writes it, in the currency's own decimals ("$12.50", "¥3,500"): English by
 * default (a CRM lead's title); a bill, message or problem worded for a reader passes their language
 * (problems through words' money params, server/i18n/words.ts).
 */
export function moneyText(money: Money, locale: Locale = "en"): string {
  const decimals =
    new Intl.NumberFormat("en", { style: "currency", currency: money.currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(intlTag(locale), { style: "currency", currency: money.currency }).format(
    money.amount / 10 ** decimals,
  );
}
