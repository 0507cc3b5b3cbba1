import { defineWords } from "../defineWords";

/** Shared data and per-line caps (issue 28 item 5). */
export const sharedPoolWords = defineWords({
  "sharedPool.capBelowUsed": {
    en: "This line has already used {{used}} MB this cycle, so its limit cannot be lower than that.",
    es: "Esta línea ya usó {{used}} MB en este ciclo, así que su límite no puede ser menor.",
  },
  "sharedPool.capBelowUsedField": {
    en: "at least {{used}} MB (already used this cycle)",
    es: "al menos {{used}} MB (ya usados en este ciclo)",
  },
  "sharedPool.noSuchAccount": { en: "No such accounts record.", es: "No existe esa cuenta." },
});
