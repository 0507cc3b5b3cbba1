import { defineWords } from "../defineWords";

/** Care's subscriber pages: opening one, and the search box. */
export const subscribersWords = defineWords({
  "subscribers.roleMayNotOpen": {
    en: "Your role ({{role}}) may not open subscribers.",
    es: "Tu rol ({{role}}) no permite abrir abonados.",
  },
  "subscribers.noSuch": { en: "No such subscriber.", es: "No existe ese abonado." },
  // {{issue}} is a subscribers.q.* word.
  "subscribers.searchNotValid": {
    en: "The search is not valid: {{issue}}.",
    es: "La búsqueda no es válida: {{issue}}.",
  },
  "subscribers.q.control": {
    en: "must not contain control characters",
    es: "no debe contener caracteres de control",
  },
  "subscribers.q.tooShort": { en: "at least 2 characters", es: "al menos 2 caracteres" },
  "subscribers.q.fewDigits": {
    en: "a number needs at least {{minimum}} digits",
    es: "un número necesita al menos {{minimum}} dígitos",
  },
});
