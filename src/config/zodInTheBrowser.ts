import { config, locales } from "zod";
import { getLocale, onLocaleChange, type Locale } from "../i18n";

// Zod as the browser needs it, imported first by the modules that bring zod into the browser (App.tsx
// and the light pages' lazy parts), before any schema is built:
//
// - Zod compiles object parsers with `new Function` unless told not to. The portal's policy forbids
//   eval, and even zod's probe for it is reported as a violation.
// - Zod's own messages (a wrong type, "Invalid input") follow the page's language. This lives here,
//   not in src/i18n, so that the sign-in page and the light pages, which need no zod to draw, do not
//   load it (with every language zod knows) before their first paint. zod merges each config into the
//   last, so `jitless` stays; the server never imports this and keeps its compiled parsers.
config({ jitless: true });
const followPage = (locale: Locale) => config(locale === "es" ? locales.es() : locales.en());
followPage(getLocale());
onLocaleChange(followPage);
