import type { Money } from "#resources/common";
import type { Locale } from "#i18n/dictionaries";
import { intlTag } from "../../i18n/formats";

/**
 * An amount as server messages write it ("$12.50"): problems and notices in English by default; a
 * bill or message worded for a reader passes their language (US Spanish writes "$12.50" too, but
 * other currencies differ).
 */
export function moneyText(money: Money, locale: Locale = "en"): string {
  return new Intl.NumberFormat(intlTag(locale), { style: "currency", currency: money.currency }).format(
    money.amount /
      10 **
        (new Intl.NumberFormat("en", { style: "currency", currency: money.currency }).resolvedOptions()
          .maximumFractionDigits ?? 2),
  );
}
