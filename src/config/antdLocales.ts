// The ESM paths: antd/locale/* re-export CommonJS, and through the bundler's interop the portal got
// the module object instead of the locale, leaving every antd text in English.
import enUS from "antd/es/locale/en_US";
import esES from "antd/es/locale/es_ES";
import type { Locale } from "../i18n";

/** antd's own texts (date pickers, pagination, confirmations) in the portal's language. */
export const antdLocaleOf = (locale: Locale) => (locale === "es" ? esES : enUS);
