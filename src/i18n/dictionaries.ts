import { en, type MessageKey } from "./en";
import { es } from "./es";

/**
 * The dictionaries and lookups both runtimes share: the server words its validation errors in
 * English with them (src/i18n/issueText.ts). The page's own language, kept in the browser, is
 * ./index.ts's.
 */
export type Locale = "en" | "es";
export const LOCALES: readonly Locale[] = ["en", "es"];
const dictionaries: Record<Locale, Record<string, string>> = { en, es };

/**
 * Adds messages a resource declaration brings with it. The built-in dictionaries win on a clash, so
 * a declaration cannot silently relabel another resource's fields.
 */
export function addMessages(messages: Record<Locale, Record<string, string>>) {
  for (const locale of LOCALES) dictionaries[locale] = { ...messages[locale], ...dictionaries[locale] };
}

/** A parameter as it reads in a sentence: text and numbers as they are, nothing for anything else. */
const paramText = (value: unknown): string =>
  typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : "";

/** `translate` in a language named by the caller, not the page's (the server answers in English). */
export function translateTo(
  locale: Locale,
  key: MessageKey | (string & {}),
  params?: Record<string, unknown>,
  fallback?: string,
): string {
  const template = dictionaries[locale][key] ?? fallback ?? en[key as MessageKey] ?? key;
  return params ? template.replace(/\{\{([\w.]+)\}\}/g, (_, name: string) => paramText(params[name])) : template;
}

/** Whether a language's dictionary (or the English one it falls back to) has a key. */
export const hasMessage = (locale: Locale, key: string): boolean =>
  Object.hasOwn(dictionaries[locale], key) || Object.hasOwn(dictionaries.en, key);

/** Whether a text is a key of the dictionaries (a declared validation message) rather than words. */
export const isMessageKey = (text: string): boolean => Object.hasOwn(en, text);
