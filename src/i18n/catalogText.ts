import { getLocale, type Locale } from "./index";
import type { CatalogTranslations } from "../resources/catalogTranslations";

/** A plan or add-on as the portal reads it: the default-language (English) text and its translations. */
interface CatalogItem {
  name: string;
  features?: readonly string[];
  translations?: CatalogTranslations | null;
}

/** Catalog text in the page's language (issue 25); the operator's default (English) where no translation is given. */
const translationOf = (item: CatalogItem, locale: Locale) =>
  locale === "en" ? undefined : item.translations?.[locale];

/** The plan or add-on name in `locale`, or the default name when it has none in that language. */
export function catalogName(item: CatalogItem, locale: Locale = getLocale()): string {
  return translationOf(item, locale)?.name?.trim() || item.name;
}

/** The plan's features in `locale`: the translated list when one is given (even shorter), else the default list. */
export function catalogFeatures(item: CatalogItem, locale: Locale = getLocale()): readonly string[] {
  const translated = translationOf(item, locale)?.features;
  return translated?.length ? translated : (item.features ?? []);
}
