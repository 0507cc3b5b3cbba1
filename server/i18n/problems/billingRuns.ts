import { defineWords } from "../defineWords";

/** An admin's run of the daily billing job (server/domain/billingRuns). */
export const billingRunsWords = defineWords({
  "billingRuns.adminsOnly": {
    en: "Only the operator's admins run billing.",
    es: "Solo los administradores del operador pueden ejecutar la facturación.",
  },
  "billingRuns.dayOutOfRange": {
    en: "A billing run is for a day within {{days}} days of today.",
    es: "Una ejecución de facturación debe ser para un día a no más de {{days}} días de hoy.",
  },
  "billingRuns.dayOutOfRangeField": { en: "within {{days}} days of today", es: "a no más de {{days}} días de hoy" },
});
