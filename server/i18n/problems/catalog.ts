import { defineWords } from "../defineWords";

/** What plans and add-ons share: the catalog's one currency. */
export const catalogWords = defineWords({
  "catalog.pricedIn": {
    en: "The catalog is priced in {{currency}}.",
    es: "Los precios del catálogo están en {{currency}}.",
  },
  "catalog.mustBeCurrency": { en: "must be {{currency}}", es: "debe ser {{currency}}" },
});
