import { defineWords } from "../defineWords";

/**
 * What the shared request machinery refuses (server/lib): list queries (their parameters, filters and
 * sorts), text the database cannot store, repeated Idempotency-Keys, options whose feature is off.
 * Parameter names, field names and operators are the API's own codes.
 */
export const libWords = defineWords({
  "lib.list.unknownParameter": { en: "unknown parameter", es: "parámetro desconocido" },
  "lib.list.cannotSort": {
    en: "cannot sort by '{{field}}'; sortable: {{sortable}}",
    es: "no se puede ordenar por '{{field}}'; se puede ordenar por: {{sortable}}",
  },
  "lib.list.cannotFilter": {
    en: "cannot filter by '{{field}}'; filterable: {{filterable}}",
    es: "no se puede filtrar por '{{field}}'; se puede filtrar por: {{filterable}}",
  },
  "lib.list.operatorNotAllowed": {
    en: "operator '{{operator}}' is not allowed on '{{field}}'; allowed: {{allowed}}",
    es: "el operador '{{operator}}' no está permitido en '{{field}}'; permitidos: {{allowed}}",
  },
  "lib.list.once": {
    en: "give this parameter once; use the 'in' operator for several values",
    es: "indica este parámetro una sola vez; usa el operador 'in' para varios valores",
  },
  "lib.list.invalidValue": { en: "invalid value", es: "valor no válido" },
  "lib.list.oneToFifty": {
    en: "give 1 to 50 comma-separated values",
    es: "indica de 1 a 50 valores separados por comas",
  },
  "lib.list.fromTo": {
    en: "give two comma-separated values: from,to",
    es: "indica dos valores separados por comas: desde,hasta",
  },
  "lib.list.noValue": { en: "takes no value (or 'true')", es: "no lleva valor (o 'true')" },
  "lib.list.notEmpty": { en: "must not be empty", es: "no debe estar vacío" },
  "lib.list.wholeMinorUnits": {
    en: "must be whole minor units",
    es: "debe ser un número entero de unidades menores (centavos)",
  },
  // The bounds of a PostgreSQL integer, written as a client sends them (no grouping).
  "lib.list.int4": {
    en: "must be between -2147483648 and 2147483647",
    es: "debe estar entre -2147483648 y 2147483647",
  },
  "lib.list.date": { en: "a date as YYYY-MM-DD", es: "una fecha con el formato AAAA-MM-DD" },
  "lib.list.datetime": { en: "an ISO 8601 date and time", es: "una fecha y hora ISO 8601" },
  "lib.list.cursor": {
    en: "not a place in this list: give the `next` of the page before, or an empty cursor for the first page",
    es: "no es una posición de esta lista: indica el `next` de la página anterior, o un cursor vacío para la primera página",
  },
  "lib.list.cursorOtherSort": {
    en: "this cursor belongs to the list in another order: ask with the same sort as the page before",
    es: "este cursor es de la lista en otro orden: pide la página con el mismo orden que la anterior",
  },
  "lib.list.cursorUnkeyed": {
    en: "cursor pages cannot follow the sort by '{{field}}'; sort by another field, or use page",
    es: "las páginas con cursor no pueden seguir el orden por '{{field}}'; ordena por otro campo o usa page",
  },
  "lib.list.number": { en: "must be a number", es: "debe ser un número" },
  "lib.unstorable": {
    en: "contains a character that cannot be stored (NUL or an unpaired surrogate)",
    es: "contiene un carácter que no se puede guardar (NUL o un sustituto sin pareja)",
  },
  "lib.unstorableName": {
    en: "the name contains a character that cannot be stored (NUL or an unpaired surrogate)",
    es: "el nombre contiene un carácter que no se puede guardar (NUL o un sustituto sin pareja)",
  },
  "lib.idempotency.otherRequest": {
    en: "This Idempotency-Key was already used for a different request; use a new key.",
    es: "Esta Idempotency-Key ya se usó para otra solicitud; usa una clave nueva.",
  },
  "lib.idempotency.otherRequestField": {
    en: "already used for a different request",
    es: "ya se usó para otra solicitud",
  },
  "lib.idempotency.inProgress": {
    en: "A request with this Idempotency-Key is still being processed; retry in a moment.",
    es: "Todavía se está procesando una solicitud con esta Idempotency-Key; vuelve a intentarlo en un momento.",
  },
  "lib.toggledOff": {
    en: '{{field}} "{{value}}" is turned off for now (the operator\'s {{toggle}} switch); choose another.',
    es: "El valor «{{value}}» de {{field}} está desactivado por ahora (el interruptor {{toggle}} del operador); elige otro.",
  },
  "lib.toggledOffField": {
    en: '"{{value}}" is turned off for now',
    es: "el valor «{{value}}» está desactivado por ahora",
  },
  "lib.csv.textAfterQuote": {
    en: "text after a closing quote in record {{record}}",
    es: "hay texto después de unas comillas de cierre en el registro {{record}}",
  },
  "lib.csv.unclosedQuote": {
    en: "a quoted field is not closed in record {{record}}",
    es: "un campo entre comillas no se cierra en el registro {{record}}",
  },
});
