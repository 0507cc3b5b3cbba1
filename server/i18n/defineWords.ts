import type { Locale } from "#i18n/dictionaries";

/** One sentence in every language the portal speaks, with `{{name}}` holes for its parameters. */
export type Bilingual = Record<Locale, string>;

/** Declares one area's sentences (server/i18n/problems/*); the type keeps every language of each present. */
export const defineWords = <T extends Record<string, Bilingual>>(sentences: T): T => sentences;
