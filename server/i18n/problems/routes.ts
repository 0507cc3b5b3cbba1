import { defineWords } from "../defineWords";

/** The hand-written routes' refusals (server/routes): the operator's own pages, home, live events, sign-up limits. */
export const routesWords = defineWords({
  "routes.securityPolicy.staffOnly": {
    en: "Only the operator's staff see its security policy.",
    es: "Solo el personal del operador puede ver su política de seguridad.",
  },
  "routes.securityPolicy.adminsOnly": {
    en: "Only the operator's admins change its security policy.",
    es: "Solo los administradores del operador pueden cambiar su política de seguridad.",
  },
  "routes.noSuchOperator": { en: "No such operator.", es: "Ese operador no existe." },
  "routes.kpis.adminsOnly": {
    en: "Only the operator's admins see its KPIs.",
    es: "Solo los administradores del operador pueden ver sus KPI.",
  },
  "routes.unknownOperator": { en: "Unknown operator.", es: "Operador desconocido." },
  "routes.home.noSuchLine": { en: "No such line.", es: "Esa línea no existe." },
  "routes.home.subscribersOnly": {
    en: "The home page's lines are a subscriber's own; staff find subscribers instead.",
    es: "Las líneas de la página de inicio son las del propio abonado; el personal busca abonados.",
  },
  "routes.live.mayNotFollow": { en: "You may not follow {{resources}}.", es: "No puedes seguir {{resources}}." },
  "routes.live.resourcesRequired": {
    en: "required: the resources to follow, comma-separated, e.g. lines,staff",
    es: "obligatorio: los recursos que quieres seguir, separados por comas, p. ej. lines,staff",
  },
  "routes.live.atLeastOne": { en: "name at least one resource", es: "indica al menos un recurso" },
  "routes.live.unknownResource": {
    en: "unknown resource; one or more of: {{resources}}",
    es: "recurso desconocido; indica uno o más de: {{resources}}",
  },
  "routes.sms.perNumber": {
    en: "Too many verification codes for this number; try again later.",
    es: "Demasiados códigos de verificación para este número; vuelve a intentarlo más tarde.",
  },
  "routes.sms.perNetwork": {
    en: "Too many verification codes from this network; try again later.",
    es: "Demasiados códigos de verificación desde esta red; vuelve a intentarlo más tarde.",
  },
  "routes.me.tooManyClaims": {
    en: "Too many claims for this account; wait a minute.",
    es: "Demasiadas solicitudes de alta para esta cuenta; espera un minuto.",
  },
  "routes.me.staffCannotSubscribe": {
    en: "Staff accounts cannot become subscribers; use a separate account.",
    es: "Las cuentas del personal no pueden convertirse en abonados; usa otra cuenta.",
  },
});
