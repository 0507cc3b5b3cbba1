import { defineWords } from "../defineWords";

/** The answers every route shares: titles of the statuses, requests that are not valid, failures on our side. */
export const httpWords = defineWords({
  "http.title.400": { en: "Bad Request", es: "Solicitud no válida" },
  "http.title.401": { en: "Unauthorized", es: "No autenticado" },
  "http.title.403": { en: "Forbidden", es: "Prohibido" },
  "http.title.404": { en: "Not Found", es: "No encontrado" },
  "http.title.405": { en: "Method Not Allowed", es: "Método no permitido" },
  "http.title.406": { en: "Not Acceptable", es: "No aceptable" },
  "http.title.408": { en: "Request Timeout", es: "Tiempo de espera agotado" },
  "http.title.409": { en: "Conflict", es: "Conflicto" },
  "http.title.411": { en: "Length Required", es: "Falta la longitud" },
  "http.title.413": { en: "Content Too Large", es: "Contenido demasiado grande" },
  "http.title.414": { en: "URI Too Long", es: "URI demasiado larga" },
  "http.title.415": { en: "Unsupported Media Type", es: "Tipo de contenido no admitido" },
  "http.title.422": { en: "Unprocessable Content", es: "No se puede procesar" },
  "http.title.426": { en: "Upgrade Required", es: "Actualización necesaria" },
  "http.title.429": { en: "Too Many Requests", es: "Demasiadas solicitudes" },
  "http.title.431": { en: "Request Header Fields Too Large", es: "Encabezados demasiado grandes" },
  "http.title.500": { en: "Internal Server Error", es: "Error interno del servidor" },
  "http.title.503": { en: "Service Unavailable", es: "Servicio no disponible" },
  "http.title.other": { en: "Error", es: "Error" },
  "http.notValid.query": { en: "The query is not valid: {{issues}}", es: "La consulta no es válida: {{issues}}" },
  "http.notValid.path": { en: "The path is not valid: {{issues}}", es: "La ruta no es válida: {{issues}}" },
  "http.notValid.body": { en: "The body is not valid: {{issues}}", es: "El cuerpo no es válido: {{issues}}" },
  "http.notValid.headers": {
    en: "The headers are not valid: {{issues}}",
    es: "Los encabezados no son válidos: {{issues}}",
  },
  "http.notValid.request": { en: "The request is not valid: {{issues}}", es: "La solicitud no es válida: {{issues}}" },
  "http.invalid": { en: "invalid", es: "no válido" },
  "http.pathParamTooLong": { en: "A path parameter is too long.", es: "Un parámetro de la ruta es demasiado largo." },
  "http.urlNotValid": { en: "The request URL is not valid.", es: "La URL de la solicitud no es válida." },
  "http.noRoute": { en: "No route {{method}} {{path}}.", es: "No existe la ruta {{method}} {{path}}." },
  "http.concurrent": {
    en: "A concurrent request touched the same data, so nothing was changed; send the request again.",
    es: "Otra solicitud tocó los mismos datos al mismo tiempo, así que no se cambió nada; envía la solicitud de nuevo.",
  },
  "http.bodyTooLarge": { en: "Request body is too large", es: "El cuerpo de la solicitud es demasiado grande" },
  "http.unsupportedMediaType": {
    en: "Unsupported Media Type",
    es: "Tipo de contenido no admitido",
  },
  "http.contentLengthMismatch": {
    en: "Request body size did not match Content-Length",
    es: "El tamaño del cuerpo no coincide con Content-Length",
  },
  "http.emptyJsonBody": {
    en: "Body cannot be empty when content-type is set to 'application/json'",
    es: "El cuerpo no puede estar vacío cuando content-type es 'application/json'",
  },
  "http.invalidJson": {
    en: "Body is not valid JSON but content-type is set to 'application/json'",
    es: "El cuerpo no es JSON válido, pero content-type es 'application/json'",
  },
  "http.tooManySignIns": {
    en: "Too many sign-in requests from this network; try again later.",
    es: "Demasiadas solicitudes de inicio de sesión desde esta red; inténtalo más tarde.",
  },
  "http.internal": {
    en: "Something went wrong on our side; the request id identifies it.",
    es: "Algo falló de nuestro lado; el identificador de la solicitud permite encontrarlo.",
  },
  "http.upgradeRequired": {
    en: "This version of the portal ({{sent}}) is no longer supported; reload the page to get version {{minimum}} or newer.",
    es: "Esta versión del portal ({{sent}}) ya no es compatible; recarga la página para obtener la versión {{minimum}} o posterior.",
  },
  "http.upgradeRequiredField": { en: "must be {{minimum}} or newer", es: "debe ser {{minimum}} o posterior" },
});
