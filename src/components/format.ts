import { parsePhoneNumberFromString, type MetadataJson } from "libphonenumber-js/core";
import homePhoneMetadata from "virtual:home-phone-metadata";
import type { Money } from "../resources/common";
import { getLocale, translate as t } from "../i18n";

const intlLocale = () => (getLocale() === "es" ? "es-US" : "en-US");

/**
 * Intl formatters are costly to build (about a millisecond each on a slow phone) and the home page
 * formats dozens of values: one formatter per locale and options, kept.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.NumberFormat(locale, options)));
  return formatter as Intl.NumberFormat;
}
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(locale, options)));
  return formatter as Intl.DateTimeFormat;
}

/** Digits after the decimal point of a currency (USD 2, JPY 0), as Intl knows them. */
export function minorDigits(currency: string): number {
  return numberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Major units as typed (12.34) to integer minor units (1234), rounding away float noise; and back. */
export const toMinor = (major: number, currency: string) => Math.round(major * 10 ** minorDigits(currency));
export const toMajor = (minor: number, currency: string) => minor / 10 ** minorDigits(currency);

/** The sign of a currency in the viewer's language ("$", "US$"). */
export const currencySymbol = (currency: string) =>
  numberFormat(intlLocale(), { style: "currency", currency })
    .formatToParts(0)
    .find((p) => p.type === "currency")?.value ?? currency;

/** Integer minor units to a localised amount: {amount: 3500, currency: "USD"} → "$35.00". */
export function formatMoney(money: Money): string {
  return numberFormat(intlLocale(), { style: "currency", currency: money.currency }).format(
    toMajor(money.amount, money.currency),
  );
}

// A subscriber's own pages show their lines' numbers, of the operator's numbering plan: its metadata
// is enough there (scripts/vite/homePhoneMetadata.ts). The portal's staff pages also show contact
// numbers of any country: its chunk brings the full metadata.
let phoneMetadata: MetadataJson = homePhoneMetadata;

/** From now on numbers of every country are formatted too (App.tsx, with libphonenumber-js's full minimal metadata). */
export function formatPhonesOfAnyCountry(metadata: MetadataJson): void {
  phoneMetadata = metadata;
}

/** E.164 to the national format people recognise: +12025550101 → (202) 555-0101; as it is when not known. */
export function formatMsisdn(msisdn: string): string {
  return parsePhoneNumberFromString(msisdn, phoneMetadata)?.formatNational() ?? msisdn;
}

/** Data allowance in MB; null means unlimited. */
export function formatDataMb(mb: number | null): string {
  if (mb === null) return t("units.unlimited");
  if (mb >= 1024)
    return t("units.gb", { value: numberFormat(intlLocale(), { maximumFractionDigits: 1 }).format(mb / 1024) });
  return t("units.mb", { value: mb });
}

/** A count as people read it in their language: 1536 → "1,536". */
export const formatNumber = (value: number) => numberFormat(intlLocale()).format(value);

/** A large count rounded as people say it: 1,234,567 → "1.2 million" ("1,2 millones"). */
export const formatRoughCount = (value: number) =>
  numberFormat(intlLocale(), { notation: "compact", compactDisplay: "long", maximumSignificantDigits: 2 }).format(
    value,
  );

export function formatQuantity(value: number | null, unitKey: "units.minutes" | "units.texts"): string {
  return value === null ? t("units.unlimited") : t(unitKey, { value: numberFormat(intlLocale()).format(value) });
}

export function formatDateTime(iso: string): string {
  return dateTimeFormat(intlLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** A time of day ("3:28 AM"), in the viewer's time zone. */
export function formatTime(iso: string): string {
  return dateTimeFormat(intlLocale(), { timeStyle: "short" }).format(new Date(iso));
}

/** A calendar date ("2026-11-20") as people read it; never shifted by the viewer's time zone. */
export function formatDate(day: string): string {
  return dateTimeFormat(intlLocale(), { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}

/** A calendar day without its year, as a chart's axis says it: "2026-11-03" → "Nov 3" ("3 nov"). */
export function formatDayOfMonth(day: string): string {
  return dateTimeFormat(intlLocale(), { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** A file's size as people read it: 812 → "812 byte", 48_213 → "47.1 kB", 2_400_000 → "2.3 MB". */
export function formatBytes(bytes: number): string {
  const [value, unit] =
    bytes >= 1024 * 1024
      ? [bytes / (1024 * 1024), "megabyte"]
      : bytes >= 1024
        ? [bytes / 1024, "kilobyte"]
        : [bytes, "byte"];
  return numberFormat(intlLocale(), { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: 1 }).format(
    value,
  );
}
