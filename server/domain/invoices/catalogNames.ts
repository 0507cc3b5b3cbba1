import { eq } from "drizzle-orm";
import type { Locale } from "#i18n/dictionaries";
import type { Executor } from "../../audit";
import { addOns, plans } from "../../db/schema";
import type { CatalogNames } from "./itemText";
import { catalogNameIn } from "../../i18n/catalogWords";

/**
 * The operator's plan and add-on names in `locale`, by their default (English) name, as bills name
 * them: only those the catalog translates (issue 25). English needs none.
 */
export async function catalogNamesIn(db: Executor, operator: string, locale: Locale): Promise<CatalogNames> {
  const names = new Map<string, string>();
  if (locale === "en") return names;
  const rows = [
    ...(await db
      .select({ name: plans.name, translations: plans.translations })
      .from(plans)
      .where(eq(plans.operatorCode, operator))),
    ...(await db
      .select({ name: addOns.name, translations: addOns.translations })
      .from(addOns)
      .where(eq(addOns.operatorCode, operator))),
  ];
  for (const row of rows) {
    const translated = catalogNameIn(row, locale);
    if (translated !== row.name) names.set(row.name, translated);
  }
  return names;
}
