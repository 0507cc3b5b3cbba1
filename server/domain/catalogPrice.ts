import { eq } from "drizzle-orm";
import type { Executor } from "../audit";
import { operators } from "../db/schema";
import { badRequest } from "../errors";
import { words } from "../i18n/words";

/** The operator's own currency, the one its catalog (plans, add-ons) is priced in. */
export async function catalogCurrency(tx: Executor, operator: string): Promise<string> {
  const [row] = await tx.select({ currency: operators.currency }).from(operators).where(eq(operators.code, operator));
  return row!.currency;
}

/** A catalog price (a plan's, an add-on's) in another currency than the catalog's: 400 at `price.currency`. */
export function requireCatalogCurrency(price: { currency: string } | undefined, currency: string): void {
  if (price && price.currency !== currency)
    throw badRequest(words("catalog.pricedIn", { currency }), [
      { path: "price.currency", message: words("catalog.mustBeCurrency", { currency }) },
    ]);
}
