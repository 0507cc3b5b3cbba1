import { defineWords } from "../defineWords";

/** Account alerts' "This wasn't me" link (issue 27): its refusals, and the fraud ticket it opens for care. */
export const accountAlertsWords = defineWords({
  "accountAlerts.linkUnknown": {
    en: "This link is not one we sent, or it was copied only in part. Open it again from the email or text message we sent you.",
    es: "Este enlace no es uno de los que enviamos, o se copió solo en parte. Vuelve a abrirlo desde el correo o el SMS que te enviamos.",
  },
  "accountAlerts.linkUsed": {
    en: "This link was already used: the account's numbers were locked and every device signed out then. Each link works once.",
    es: "Este enlace ya se usó: entonces se bloquearon los números de la cuenta y se cerró la sesión en todos los dispositivos. Cada enlace funciona una sola vez.",
  },
  "accountAlerts.linkUsedField": {
    en: "already used",
    es: "ya usado",
  },
  "accountAlerts.linkExpired": {
    en: "This link has expired: links work for {{days}} days after the alert. If someone else changed your account, call customer care.",
    es: "Este enlace caducó: los enlaces funcionan durante {{days}} días desde la alerta. Si otra persona cambió tu cuenta, llama a atención al cliente.",
  },
  "accountAlerts.linkExpiredField": {
    en: "expired",
    es: "caducado",
  },
  "accountAlerts.tooManyTries": {
    en: "Too many tries from this network. Wait a few minutes, then open the link again.",
    es: "Demasiados intentos desde esta red. Espera unos minutos y vuelve a abrir el enlace.",
  },
  "accountAlerts.ticketSubject": {
    en: "Fraud: the account holder did not make a change to their account",
    es: "Fraude: el titular no hizo un cambio en su cuenta",
  },
  "accountAlerts.ticketMessage": {
    en: "The account holder pressed “This wasn't me” on this alert: {{what}}\n\nEvery number of theirs is now locked against transfer ({{lines}}) and every session was signed out. Call them back on a contact point from before the change, verify them and check the account.",
    es: "El titular pulsó «No fui yo» en esta alerta: {{what}}\n\nTodos sus números quedaron bloqueados para portabilidad ({{lines}}) y se cerraron todas sus sesiones. Llámalo a un contacto anterior al cambio, verifica su identidad y revisa la cuenta.",
  },
});
