import type { FieldError } from "../errors";
import { textIn, words, type Text, type Worded, type WordsKey, type WordsParam } from "../i18n/words";

/**
 * Words with holes that list other texts (field errors' messages), each worded in the reader's
 * language before it is joined: a words param cannot be a function, so the whole sentence is one.
 */
export const wordsListing =
  (key: WordsKey, params: Record<string, WordsParam>, listed: Record<string, Text[]>, separator = "; "): Worded =>
  (locale) =>
    textIn(
      locale,
      words(key, {
        ...params,
        ...Object.fromEntries(
          Object.entries(listed).map(([name, texts]) => [name, texts.map((t) => textIn(locale, t)).join(separator)]),
        ),
      }),
    );

/** "The body is not valid: path: message; …", as the validation of a request's part words it (app.ts). */
export const notValid = (
  where: "path" | "query" | "body" | "headers" | "request",
  errors: readonly FieldError[],
): Worded =>
  wordsListing(
    `http.notValid.${where}`,
    {},
    { issues: errors.map((e) => (locale) => `${e.path}: ${textIn(locale, e.message)}`) },
  );
