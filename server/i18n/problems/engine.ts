import { defineWords } from "../defineWords";

/**
 * The generic resource API's refusals (server/engine): access by role, records that are not there or
 * not reachable, fields a caller may not send, actions whose record is not in the right state.
 * A role's refusals name the resource and action by the API's codes, quoted as such in Spanish (an
 * API caller reads them; the portal never offers what a role may not do). What a page can show (a
 * record not found, a reference not usable) names the resource by its label, in the reader's words.
 */
export const engineWords = defineWords({
  "engine.roleMayNot.list": {
    en: "Your role ({{role}}) may not list {{resource}}.",
    es: "Con tu rol ({{role}}) no puedes ver la lista de «{{resource}}».",
  },
  "engine.roleMayNot.show": {
    en: "Your role ({{role}}) may not show {{resource}}.",
    es: "Con tu rol ({{role}}) no puedes ver registros de «{{resource}}».",
  },
  "engine.roleMayNot.create": {
    en: "Your role ({{role}}) may not create {{resource}}.",
    es: "Con tu rol ({{role}}) no puedes crear registros de «{{resource}}».",
  },
  "engine.roleMayNot.edit": {
    en: "Your role ({{role}}) may not edit {{resource}}.",
    es: "Con tu rol ({{role}}) no puedes modificar registros de «{{resource}}».",
  },
  "engine.roleMayNot.delete": {
    en: "Your role ({{role}}) may not delete {{resource}}.",
    es: "Con tu rol ({{role}}) no puedes eliminar registros de «{{resource}}».",
  },
  "engine.roleMayNot.action": {
    en: "Your role ({{role}}) may not {{action}} {{resource}}.",
    es: "Con tu rol ({{role}}) no puedes usar la acción «{{action}}» en «{{resource}}».",
  },
  "engine.noSuchRecord": {
    en: "Not found in {{resource}}: it does not exist, or it is not yours to see.",
    es: "No está en «{{resource}}»: no existe o no puedes verlo.",
  },
  "engine.noUsableReference": {
    en: "nothing in {{resource}} with this id that you may use",
    es: "no hay nada en «{{resource}}» con este id que puedas usar",
  },
  "engine.unknownField": { en: "Unknown field: {{fields}}.", es: "Campo desconocido: {{fields}}." },
  "engine.unknownFields": { en: "Unknown fields: {{fields}}.", es: "Campos desconocidos: {{fields}}." },
  "engine.mayNotSet": { en: "You may not set {{fields}}.", es: "No puedes asignar {{fields}}." },
  "engine.nothingToChange": {
    en: "Nothing to change: give at least one field.",
    es: "No hay nada que cambiar: indica al menos un campo.",
  },
  "engine.empty": { en: "empty", es: "vacío" },
  "engine.reasonRequired": { en: "Give a reason for this action.", es: "Indica un motivo para esta acción." },
  "engine.required": { en: "required", es: "obligatorio" },
  "engine.cannotNow": {
    en: "You cannot {{action}} this record now: {{reasons}}.",
    es: "Ahora no puedes usar la acción «{{action}}» en este registro: {{reasons}}.",
  },
  "engine.onlyWhile": {
    en: "only while {{field}} is {{values}} (it is {{current}})",
    es: "solo mientras {{field}} sea {{values}} (ahora es {{current}})",
  },
  // A list of values, one more each time: "a or b or c".
  "engine.either": { en: "{{first}} or {{rest}}", es: "{{first}} o {{rest}}" },
  "engine.reauth": {
    en: "Confirm it is you: this needs a sign-in from the last {{minutes}} minutes.",
    es: "Confirma que eres tú: esto requiere haber iniciado sesión en los últimos {{minutes}} minutos.",
  },
  "engine.reauthField": {
    en: "sign-in too old for this action",
    es: "el inicio de sesión es demasiado antiguo para esta acción",
  },
  "engine.identityAdminMissing": {
    en: "Identity administration is not configured on this server.",
    es: "La administración de identidades no está configurada en este servidor.",
  },
  "engine.uuid": { en: "must be a UUID", es: "debe ser un UUID" },
  "engine.idCharacters": { en: "letters, digits, - and _", es: "letras, dígitos, - y _" },
  "engine.idempotencyKeyLength": { en: "at least 8 characters", es: "al menos 8 caracteres" },
});
