import type { Money } from "#resources/common";

/** An amount as server messages write it ("$12.50"): problems and notices are in English; the portal formats for the viewer. */
export function moneyText(money: Money): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: money.currency }).format(
    money.amount /
      10 **
        (new Intl.NumberFormat("en", { style: "currency", currency: money.currency }).resolvedOptions()
          .maximumFractionDigits ?? 2),
  );
}
