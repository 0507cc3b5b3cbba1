import { locales } from "zod";
import type { $ZodIssue } from "zod/v4/core";
import type { Locale } from "#i18n/dictionaries";
import { isMessageKey } from "#i18n/dictionaries";
import { issueText } from "#i18n/issueText";
import { problemWords } from "./problems";
import { textIn, type WordsKey, type WordsParam } from "./words";

const zodLocales = { en: locales.en(), es: locales.es() };

/** zod's own sentence for an issue in a language (its locales word every issue code). */
function zodSentence(locale: Locale, issue: $ZodIssue): string | undefined {
  const said = zodLocales[locale].localeError(issue as Parameters<(typeof zodLocales)["en"]["localeError"]>[0]);
  return typeof said === "string" ? said : said?.message;
}

/**
 * One validation issue in the reader's language: a declared message is a dictionary key, filled with
 * the issue's bounds (src/i18n/issueText.ts); a server-only check's message is a key of the server's
 * sentences (server/i18n/problems), filled with the custom issue's params; zod's own English sentence is worded again by zod's
 * locale for the language (the issue must carry its input: parse with `reportInput`, or "received
 * number" reads "received undefined"); any other text stays as written.
 */
export function validationText(issue: $ZodIssue, locale: Locale): string {
  if (isMessageKey(issue.message)) return issueText(issue, locale);
  if (Object.hasOwn(problemWords, issue.message)) {
    const params = issue.code === "custom" ? (issue.params as Record<string, WordsParam> | undefined) : undefined;
    return textIn(locale, { key: issue.message as WordsKey, ...(params && { params }) });
  }
  if (locale === "en" || zodSentence("en", issue) !== issue.message) return issue.message;
  return zodSentence(locale, issue) ?? issue.message;
}
