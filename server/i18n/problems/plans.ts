import { defineWords } from "../defineWords";

/** The plans catalog (create, change price) and a line's change of plan. */
export const plansWords = defineWords({
  "plans.codeTaken": { en: "A plan with this code exists.", es: "Ya existe un plan con este código." },
  "plans.codeUsed": { en: "already used", es: "ya está en uso" },
  "plans.noSuchRecord": { en: "No such plans record.", es: "No existe ese plan." },
  "plans.priceChangePending": {
    en: "A price change to {{amount}} (minor units) is still reaching lines, until {{until}}; change the price again after that.",
    es: "Un cambio de precio a {{amount}} (en centavos) todavía se está aplicando a las líneas, hasta el {{until}}; vuelve a cambiar el precio después de esa fecha.",
  },
  "plans.priceChangePendingField": {
    en: "a price change is still taking effect",
    es: "un cambio de precio todavía se está aplicando",
  },
  "plans.samePrice": { en: "That is already the plan's price.", es: "Ese ya es el precio del plan." },
  "plans.samePriceField": { en: "the same as the current price", es: "igual al precio actual" },
  "plans.noSuchPlan": { en: "There is no such plan.", es: "Ese plan no existe." },
  "plans.noSuchPlanField": { en: "no plan with this id", es: "no hay ningún plan con este id" },
  "plans.alreadyOnPlan": { en: "The line is already on this plan.", es: "La línea ya tiene este plan." },
  "plans.alreadyOnPlanField": { en: "already the line's plan", es: "ya es el plan de la línea" },
  "plans.notOffered": { en: "{{name}} is not offered any more.", es: "{{name}} ya no se ofrece." },
  "plans.notOfferedField": { en: "not an active plan", es: "no es un plan activo" },
  // {{from}} and {{to}} are plans.kind.* words.
  "plans.kindChangeHere": {
    en: "Moving from {{from}} to {{to}} cannot be done here: a care agent can do it for you (call us or visit a store).",
    es: "El cambio de {{from}} a {{to}} no se puede hacer aquí: un agente de atención puede hacerlo por ti (llámanos o visita una tienda).",
  },
  "plans.kindChangeOtherAccount": {
    en: "Moving from {{from}} to {{to}} opens an account of the other kind, which this action does not do.",
    es: "Pasar de {{from}} a {{to}} abre una cuenta del otro tipo, y esta acción no hace eso.",
  },
  "plans.kindChangeField": {
    en: "a {{kind}} plan; this line is {{lineKind}}",
    es: "un plan {{kind}}; esta línea es {{lineKind}}",
  },
  "plans.kind.prepaid": { en: "prepaid", es: "prepago" },
  "plans.kind.postpaid": { en: "postpaid", es: "pospago" },
  "plans.changeScheduled": {
    en: "A plan change is already scheduled for {{date}}; cancel that order first.",
    es: "Ya hay un cambio de plan programado para el {{date}}; cancela ese pedido primero.",
  },
  "plans.changeScheduledField": { en: "a change is already scheduled", es: "ya hay un cambio programado" },
});
