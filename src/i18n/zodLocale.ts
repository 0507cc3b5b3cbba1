import { config, locales } from "zod";

/**
 * zod's own messages (a wrong type, "Invalid input") in the reader's language, switched with the
 * page's. zod merges each config into the last, so the browser's `jitless` (src/config/zodWithoutEval.ts)
 * stays as it was, and the server, which never switches, keeps its compiled parsers.
 */
export function switchZodLocale(locale: "en" | "es"): void {
  config(locale === "es" ? locales.es() : locales.en());
}
