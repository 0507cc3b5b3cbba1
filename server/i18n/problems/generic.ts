import { defineWords } from "../defineWords";

/** The generic documents' write rules (server/generic): fields a caller may not send, records not theirs. */
export const genericWords = defineWords({
  "generic.unknownField": { en: "unknown field", es: "campo desconocido" },
  "generic.serverSet": {
    en: "set by the server; it cannot be given",
    es: "lo asigna el servidor; no se puede enviar",
  },
  "generic.cannotChange": { en: "cannot be changed", es: "no se puede cambiar" },
  "generic.roleMayNotSet": {
    en: "your role ({{role}}) may not set this field",
    es: "con tu rol ({{role}}) no puedes asignar este campo",
  },
  "generic.onlyOwnRecords": {
    en: "You may only create {{resource}} records of your own.",
    es: "Solo puedes crear registros de «{{resource}}» que sean tuyos.",
  },
});
