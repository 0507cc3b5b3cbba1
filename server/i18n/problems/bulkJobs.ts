import { defineWords } from "../defineWords";

/** Bulk jobs: who may start them, the lines they name, and the CSV of an import (its rows' errors in a dry run). */
export const bulkJobsWords = defineWords({
  "bulkJobs.roleMayNotStart": {
    en: "Your role ({{role}}) may not start bulk jobs.",
    es: "Tu rol ({{role}}) no puede iniciar trabajos masivos.",
  },
  // A role as the refusal names it: its code in English (as before), the portal's name for it in Spanish.
  "bulkJobs.role.subscriber": { en: "subscriber", es: "cliente" },
  "bulkJobs.role.agent": { en: "agent", es: "agente de atención" },
  "bulkJobs.role.admin": { en: "admin", es: "administrador" },
  "bulkJobs.linesMissing": {
    en: "Some of the selected lines do not exist.",
    es: "Algunas de las líneas seleccionadas no existen.",
  },
  "bulkJobs.field.noSuchLine": { en: "no such line", es: "esa línea no existe" },
  "bulkJobs.csvUnreadable": { en: "The CSV cannot be read: {{reason}}.", es: "No se puede leer el CSV: {{reason}}." },
  "bulkJobs.headerColumns": {
    en: "The header row must name the columns {{columns}}.",
    es: "La fila de encabezado debe nombrar las columnas {{columns}}.",
  },
  "bulkJobs.field.missingColumns": { en: "missing columns: {{columns}}", es: "faltan las columnas: {{columns}}" },
  "bulkJobs.noRows": {
    en: "The CSV has no rows under its header.",
    es: "El CSV no tiene filas debajo del encabezado.",
  },
  "bulkJobs.field.noRows": { en: "no rows", es: "no hay filas" },
  "bulkJobs.tooManyRows": { en: "At most {{max}} rows per import.", es: "Como máximo {{max}} filas por importación." },
  "bulkJobs.field.tooManyRows": { en: "at most {{max}} rows", es: "como máximo {{max}} filas" },
  // A row's errors, listed by a dry run in the request's language (stored in English on a job's items).
  "bulkJobs.row.noSuchAccount": { en: "no such account", es: "esa cuenta no existe" },
  "bulkJobs.row.noSuchPlan": { en: "no such plan", es: "ese plan no existe" },
  "bulkJobs.row.numberInUse": { en: "already a line of this operator", es: "ya es una línea de este operador" },
  "bulkJobs.row.simInUse": { en: "this SIM is already in use", es: "esta SIM ya está en uso" },
  "bulkJobs.row.alsoInRow": { en: "also in row {{row}}", es: "también está en la fila {{row}}" },
});
