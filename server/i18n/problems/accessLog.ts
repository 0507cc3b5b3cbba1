import { defineWords } from "../defineWords";

/** The access log's refusals (`/me/access-log`, and a staff read that could not be logged). */
export const accessLogWords = defineWords({
  "accessLog.subscribersOnly": {
    en: "Only the account holder can see who looked at their account.",
    es: "Solo el titular de la cuenta puede ver quién ha consultado su cuenta.",
  },
  "accessLog.notRecorded": {
    en: "This could not be recorded in the customer's access log, so it is not shown. Try again in a moment.",
    es: "No se pudo anotar en el registro de accesos del cliente, así que no se muestra. Vuelve a intentarlo en un momento.",
  },
});
