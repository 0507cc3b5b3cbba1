import { defineWords } from "../defineWords";

/** The number inventory and the life of a line (issue 28): picking numbers, adding, changing and cancelling lines. */
export const numbersWords = defineWords({
  "numbers.roleMayNot": {
    en: "The {{role}} role may not pick numbers.",
    es: "El rol {{role}} no puede elegir números.",
  },
  "numbers.noneFree": {
    en: "There are no free numbers in area code {{areaCode}} right now; try a nearby area code.",
    es: "Ahora no hay números libres con el código de área {{areaCode}}; prueba con uno cercano.",
  },
  "numbers.noneFreeAtAll": {
    en: "There are no free numbers right now to give the line while your number is transferred.",
    es: "Ahora no hay números libres para dar a la línea mientras se transfiere tu número.",
  },
  "numbers.noneFreeField": { en: "no free numbers", es: "no hay números libres" },
  "numbers.notOurs": {
    en: "That is not one of our free numbers; pick one from the list of an area code.",
    es: "Ese no es uno de nuestros números libres; elige uno de la lista de un código de área.",
  },
  "numbers.notOursField": { en: "not one of our numbers", es: "no es uno de nuestros números" },
  "numbers.inUse": { en: "That number is already in use.", es: "Ese número ya está en uso." },
  "numbers.inUseField": { en: "already in use", es: "ya está en uso" },
  "numbers.reserved": {
    en: "Someone else is holding that number for a few minutes; pick another one.",
    es: "Otra persona tiene reservado ese número unos minutos; elige otro.",
  },
  "numbers.reservedField": { en: "reserved by someone else", es: "reservado por otra persona" },
  "numbers.quarantined": {
    en: "That number was released recently and rests for 90 days before it is offered again; pick another one.",
    es: "Ese número se liberó hace poco y descansa 90 días antes de volver a ofrecerse; elige otro.",
  },
  "numbers.quarantinedField": { en: "recently released", es: "liberado hace poco" },
  "numbers.alreadyOurs": {
    en: "That number is already with us, or already on its way to us, so it cannot be transferred in again.",
    es: "Ese número ya está con nosotros, o ya viene hacia nosotros, así que no se puede traer otra vez.",
  },
  "numbers.alreadyOursField": { en: "already one of our numbers", es: "ya es uno de nuestros números" },
  "numbers.sameNumber": { en: "That is the line's number already.", es: "Ese ya es el número de la línea." },
  "numbers.sameNumberField": { en: "already this line's number", es: "ya es el número de esta línea" },
  "lines.planOfOtherKind": {
    en: "That is a {{kind}} plan, and this account is {{lineKind}}: pick a {{lineKind}} plan.",
    es: "Ese es un plan {{kind}} y esta cuenta es {{lineKind}}: elige un plan {{lineKind}}.",
  },
  "lines.cancelScheduled": {
    en: "This line is already to be cancelled on {{date}}; keep the line first to change it.",
    es: "Esta línea ya se dará de baja el {{date}}; conserva la línea primero para cambiarlo.",
  },
  "lines.cancelScheduledField": { en: "a cancellation is scheduled", es: "ya hay una baja programada" },
  "lines.nothingScheduled": {
    en: "No cancellation is scheduled for this line, so there is nothing to withdraw.",
    es: "Esta línea no tiene una baja programada, así que no hay nada que retirar.",
  },
  "lines.nothingScheduledField": { en: "no cancellation is scheduled", es: "no hay una baja programada" },
});
