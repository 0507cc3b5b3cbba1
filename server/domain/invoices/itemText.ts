import { translateTo, type Locale } from "#i18n/dictionaries";
import { postedTextIn } from "#i18n/postedText";
import type { InvoiceItem } from "#resources/invoices";
import { dateText } from "../../i18n/formats";

export { overageDetail } from "#i18n/postedText";

/** Plan and add-on names in the bill's language, by their default (English) name; missing: as they are. */
export type CatalogNames = ReadonlyMap<string, string>;

/**
 * A charge's description in `locale` (src/i18n/postedText.ts): the forms the system posts re-worded,
 * with the catalog's names in that language and the dates as its readers write them; anything else
 * (a staff member's own words) as written.
 */
export function descriptionIn(description: string, locale: Locale, names: CatalogNames): string {
  return postedTextIn(description, locale, {
    date: (isoDate) => dateText(isoDate, locale),
    name: (english) => names.get(english) ?? english,
  });
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
