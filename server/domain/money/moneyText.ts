import type { Money } from "#resources/common";

/**
 * An amount in English ("$12.50"), in the currency's own decimals, for text that stays in English (a CRM lead's
 * title). A problem's amounts are words' money params instead (server/i18n/words.ts), written for their reader.
 */
export function moneyText(money: Money): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: money.currency }).format(
    money.amount /
      10 **
        (new Intl.NumberFormat("en", { style: "currency", currency: money.currency }).resolvedOptions()
          .maximumFractionDigits ?? 2),
  );
}
