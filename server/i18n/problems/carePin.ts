import { defineWords } from "../defineWords";

/** The care PIN's refusals (`/me/care-pin`): whose it is, and the recent sign-in that setting it needs. */
export const carePinWords = defineWords({
  "carePin.subscribersOnly": {
    en: "Only the account holder can see or change their care PIN.",
    es: "Solo el titular de la cuenta puede ver o cambiar su PIN de atención.",
  },
  "carePin.reauth": {
    en: "Confirm it is you: setting your care PIN needs a sign-in from the last {{minutes}} minutes.",
    es: "Confirma que eres tú: para configurar tu PIN de atención necesitas haber iniciado sesión en los últimos {{minutes}} minutos.",
  },
});
