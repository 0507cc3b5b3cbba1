import type { Locale } from "#i18n/dictionaries";
import type { Bilingual } from "./defineWords";
import { intlTag, moneyText } from "./formats";
import { problemWords } from "./problems";

/** A key of the server's sentences (server/i18n/problems/*): problem details, field errors. */
export type WordsKey = keyof typeof problemWords;

/** An amount of money, written as the reader's language writes amounts. */
export interface MoneyParam {
  amount: number;
  currency: string;
}

/** What fills a hole: text as it is (an id, a name), a number or amount in the reader's format, more words, or text worded for the language. */
export type WordsParam = string | number | MoneyParam | Words | ((locale: Locale) => string);

/**
 * Words a client reads, not yet in a language: a sentence's key and its parameters. The answer is
 * written in the request's language when it is sent (server/errors.ts, sendProblem), so code that
 * refuses something never needs to know who is reading.
 */
export interface Words {
  key: WordsKey;
  params?: Record<string, WordsParam>;
}

/**
 * Words; or text written for the reader's language by a function (a validation issue, which zod
 * words); or text that is already final (a third party's own message, a value the reader sent).
 */
export type Text = Words | ((locale: Locale) => string) | string;

/** What a problem or field error says: never a bare string, so no English slips into a Spanish answer unnoticed. */
export type Worded = Exclude<Text, string>;

/** Final text that is the same in every language (a third party's own message, a value the client sent). */
export const verbatim =
  (text: string): Worded =>
  () =>
    text;

export const words = (key: WordsKey, params?: Record<string, WordsParam>): Words =>
  params ? { key, params } : { key };

const isWords = (value: unknown): value is Words =>
  typeof value === "object" && value !== null && typeof (value as Words).key === "string";

function paramIn(locale: Locale, value: WordsParam): string {
  if (typeof value === "string") return value;
  if (typeof value === "function") return value(locale);
  if (typeof value === "number") return value.toLocaleString(intlTag(locale));
  if (isWords(value)) return textIn(locale, value);
  return moneyText(value, locale);
}

/** The text in a language: a key's sentence with its holes filled, or final text as it is. */
export function textIn(locale: Locale, text: Text): string {
  if (typeof text === "string") return text;
  if (typeof text === "function") return text(locale);
  const sentence: Bilingual | undefined = (problemWords as Record<string, Bilingual>)[text.key];
  if (!sentence) return text.key;
  return sentence[locale].replace(/\{\{(\w+)\}\}/g, (hole, name: string) => {
    const value = text.params?.[name];
    return value === undefined ? hole : paramIn(locale, value);
  });
}
