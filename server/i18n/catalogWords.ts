import type { Locale } from "#i18n/dictionaries";
import type { CatalogTranslations } from "#resources/catalogTranslations";
import { textIn, words, type Worded, type WordsKey, type WordsParam } from "./words";

/** A plan or add-on as the catalog stores it: its default (English) name and its translations. */
interface CatalogItem {
  name: string;
  translations?: CatalogTranslations | null;
}

/**
 * The item's name in a language: its translation where the catalog has one, else the default name
 * (as the portal reads it, src/i18n/catalogText.ts, which is not imported here: it reads the page's locale).
 */
export const catalogNameIn = (item: CatalogItem, locale: Locale): string =>
  (locale === "es" ? item.translations?.es?.name?.trim() : undefined) || item.name;

/** Words whose `{{name}}` is a catalog item's name, written in the reader's language when the answer is sent. */
export const wordsNaming =
  (key: WordsKey, item: CatalogItem, params: Record<string, WordsParam> = {}): Worded =>
  (locale) =>
    textIn(locale, words(key, { ...params, name: catalogNameIn(item, locale) }));
