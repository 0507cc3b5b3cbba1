import { defineWords } from "../defineWords";

/** Caller verification (issue 27 item 2): what an agent hears before and while verifying a caller. */
export const callerVerificationWords = defineWords({
  "callerVerification.notVerified": {
    en: "Verify the caller first: this subscriber's records open once they give their care PIN or the code sent to their phone.",
    es: "Primero verifica a quien llama: los datos de este abonado se abren cuando da su PIN de atención o el código enviado a su teléfono.",
  },
  "callerVerification.locked": {
    en: "Too many wrong answers: verifying this caller is locked for {{minutes}} more minutes. The subscriber has been alerted.",
    es: "Demasiadas respuestas incorrectas: la verificación de este abonado está bloqueada {{minutes}} minutos más. Se ha avisado al abonado.",
  },
  "callerVerification.pinRequired": {
    en: "Enter the PIN the caller gives.",
    es: "Escribe el PIN que da quien llama.",
  },
  "callerVerification.codeRequired": {
    en: "Enter the code the caller reads out.",
    es: "Escribe el código que lee quien llama.",
  },
  "callerVerification.noPin": {
    en: "This subscriber has not set a care PIN: send a code by SMS instead.",
    es: "Este abonado no ha configurado un PIN de atención: envíale un código por SMS.",
  },
  "callerVerification.wrongPin": {
    en: "That is not the subscriber's care PIN.",
    es: "Ese no es el PIN de atención del abonado.",
  },
  "callerVerification.wrongCode": {
    en: "That is not the code we sent.",
    es: "Ese no es el código que enviamos.",
  },
  "callerVerification.noCode": {
    en: "No code is waiting, or it expired: send a new code by SMS.",
    es: "No hay ningún código pendiente o ha caducado: envía un código nuevo por SMS.",
  },
  "callerVerification.noLine": {
    en: "The subscriber has no active line to send a code to: ask for their care PIN.",
    es: "El abonado no tiene ninguna línea activa a la que enviar un código: pídele su PIN de atención.",
  },
  "callerVerification.adminsOnly": {
    en: "Only an admin can grant a verification without the caller's PIN or code.",
    es: "Solo un administrador puede conceder una verificación sin el PIN o el código de quien llama.",
  },
  "callerVerification.reasonRequired": {
    en: "Say why the caller is verified without their PIN or code.",
    es: "Indica por qué se verifica a quien llama sin su PIN ni su código.",
  },
  "callerVerification.agentRequired": {
    en: "Choose the agent who may help this caller.",
    es: "Elige el agente que puede atender a quien llama.",
  },
  "callerVerification.noSuchAgent": {
    en: "No active staff member of this operator has that id.",
    es: "Ningún miembro activo del personal de este operador tiene ese identificador.",
  },
  "callerVerification.notForThisMethod": {
    en: "Not used with this method.",
    es: "No se usa con este método.",
  },
});
