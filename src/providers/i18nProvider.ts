import type { I18nProvider } from "@refinedev/core";
import { getLocale, setLocale, translate, type Locale } from "../i18n";

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) => translate(key, options as Record<string, unknown> | string | undefined, defaultMessage),
  changeLocale: async (locale) => setLocale(locale as Locale),
  getLocale,
};
