import { defineWords } from "../defineWords";

/** Privacy requests: one open request per person. */
export const privacyWords = defineWords({
  "privacy.alreadyOpen": {
    en: "You already have an open privacy request.",
    es: "Ya tienes una solicitud de privacidad abierta.",
  },
  "privacy.field.alreadyOpen": { en: "a request is already open", es: "ya hay una solicitud abierta" },
});
