import type { I18nProvider } from "@refinedev/core";
import { getLocale, setLocale, translate, type Locale } from "../i18n";
import { findResource } from "../resources";

/**
 * Refine asks for `<resource>.titles.list` (the List button) and `<resource>.<resource>` (the name in
 * notifications), falling back to an English plural it makes itself ("Reclamaciones de equipos").
 * A declared resource answers with its own label instead.
 */
function resourceLabel(key: string): string | undefined {
  const match = /^([a-z][a-z0-9-]*)\.(?:titles\.list|\1)$/.exec(key);
  const resource = match ? findResource(match[1]!) : undefined;
  return resource ? translate(resource.label) : undefined;
}

export const i18nProvider: I18nProvider = {
  translate: (key, options, defaultMessage) =>
    resourceLabel(key) ?? translate(key, options as Record<string, unknown> | string | undefined, defaultMessage),
  changeLocale: (locale) => Promise.resolve(setLocale(locale as Locale)),
  getLocale,
};
