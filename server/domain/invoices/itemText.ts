import { translateTo, type Locale } from "#i18n/dictionaries";
import type { MessageKey } from "#i18n/en";
import type { InvoiceItem } from "#resources/invoices";
import { dateText } from "../../i18n/formats";

/** Plan and add-on names in the bill's language, by their default (English) name; missing: as they are. */
export type CatalogNames = ReadonlyMap<string, string>;

/**
 * How the charges a bill lists were worded when posted (server/domain/money/billing.ts, renewals,
 * add-ons, plan changes, the seed), each with the key that words it in another language. The first
 * match wins, so the more specific add-on renewal comes before the add-on.
 */
const POSTED: readonly [RegExp, MessageKey][] = [
  [/^(?<plan>.+): monthly plan$/, "invoicePdf.item.monthlyPlan"],
  [
    /^(?<plan>.+), (?<start>\d{4}-\d{2}-\d{2}) to (?<end>\d{4}-\d{2}-\d{2}) \((?<msisdn>[^)]+)\)$/,
    "invoicePdf.item.planFee",
  ],
  [/^(?<plan>.+), cycle from (?<start>\d{4}-\d{2}-\d{2}) \((?<msisdn>[^)]+)\)$/, "invoicePdf.item.planCycle"],
  [
    /^Plan change from (?<from>.+) to (?<to>.+) for (?<days>\d+) of (?<cycleDays>\d+) days$/,
    "invoicePdf.item.planChange",
  ],
  [/^Renewal of add-on (?<addOn>.+) on (?<msisdn>\S+)$/, "invoicePdf.item.addOnRenewal"],
  [/^Add-on (?<addOn>.+) on (?<msisdn>\S+)$/, "invoicePdf.item.addOn"],
];

/**
 * A charge's description in `locale`: English as posted; in another language re-worded when it reads
 * as one of the posted forms, with the catalog's name in that language and the dates as its readers
 * write them. Anything else (a staff member's own words) stays as written.
 */
export function descriptionIn(description: string, locale: Locale, names: CatalogNames): string {
  if (locale === "en") return description;
  for (const [pattern, key] of POSTED) {
    const parts = pattern.exec(description)?.groups;
    if (!parts) continue;
    const words: Record<string, string> = { ...parts };
    for (const name of ["plan", "from", "to", "addOn"])
      if (parts[name]) words[name] = names.get(parts[name]) ?? parts[name];
    for (const date of ["start", "end"]) if (parts[date]) words[date] = dateText(parts[date], locale);
    return translateTo(locale, key, words);
  }
  return description;
}

/**
 * An item's heading line: overage by type and zone ("Data beyond the allowance (Canada & Mexico)"),
 * else its description in the bill's language.
 */
export function itemWords(
  item: Pick<InvoiceItem, "kind" | "description" | "usageType" | "roamingZone">,
  locale: Locale,
  names: CatalogNames,
): string {
  if (item.kind !== "overage") return descriptionIn(item.description, locale, names);
  const zone = item.roamingZone ?? "home";
  return translateTo(locale, "subscriber.bill.overage", {
    type: translateTo(
      locale,
      `subscriber.bill.usage.${item.usageType ?? ""}`,
      undefined,
      translateTo(locale, "invoicePdf.usage"),
    ),
    zone: translateTo(locale, `subscriber.bill.zone.${zone}`, undefined, zone),
  });
}

/**
 * The small line under an overage: how much, on which line. English as the rating posted it; in
 * another language only the quantity and number it names ("1.5 GB", "12 min", "3 mensajes").
 */
export function overageDetail(description: string, locale: Locale): string | null {
  if (locale === "en") return description;
  const quantity = /\d[\d.,]*\s?(?:MB|GB|min)\b/.exec(description)?.[0];
  const messages = /(\d+) messages?\b/.exec(description)?.[1];
  const msisdn = /\((\+?\d{6,})\)/.exec(description)?.[1];
  const amount = quantity ?? (messages ? translateTo(locale, "invoicePdf.item.messages", { count: messages }) : null);
  const parts = [amount, msisdn].filter((p): p is string => !!p);
  return parts.length ? parts.join(", ") : null;
}
