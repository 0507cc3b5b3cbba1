import { defineWords } from "../defineWords";

/** A line's own actions: suspend and restore, port-out PIN, PUK, SIM orders and swaps. */
export const linesWords = defineWords({
  "lines.noSuchRecord": { en: "No such line.", es: "No existe esa línea." },
  // {{action}} is a lines.lockedAction.* word.
  "lines.locked": {
    en: "The number is locked against transfers, so {{action}} is refused; unlock it first.",
    es: "El número está bloqueado contra transferencias, por eso se rechaza {{action}}; desbloquéalo primero.",
  },
  "lines.lockedAction.portOutPin": { en: "a port-out PIN", es: "el PIN de portabilidad" },
  "lines.lockedAction.simSwap": { en: "a SIM swap", es: "el cambio de SIM" },
  "lines.lockedField": { en: "the number is locked", es: "el número está bloqueado" },
  "lines.suspendedNotRenewed": {
    en: "This line was suspended because its plan was not renewed: a top-up that covers the plan renews it and restores the line.",
    es: "Esta línea se suspendió porque su plan no se renovó: una recarga que cubra el plan lo renueva y restablece la línea.",
  },
  "lines.suspendedUnpaid": {
    en: "This line was suspended for an unpaid bill: paying the bill restores it.",
    es: "Esta línea se suspendió por una factura sin pagar: al pagar la factura se restablece.",
  },
  // English names the reason's code, as it always has.
  "lines.suspendedForNonPayment": { en: "non_payment", es: "suspendida por falta de pago" },
  "lines.noPuk": {
    en: "There is no PUK on record for this SIM; a new SIM comes with one.",
    es: "No hay un PUK registrado para esta SIM; una SIM nueva trae uno.",
  },
  "lines.noPukField": { en: "not on record", es: "no registrado" },
  "lines.simOnItsWay": {
    en: "A SIM for this line is already on its way; activate it with Replace SIM when it arrives.",
    es: "Ya hay una SIM en camino para esta línea; actívala con Cambiar SIM cuando llegue.",
  },
  "lines.simOnItsWayField": { en: "a SIM is already on its way", es: "ya hay una SIM en camino" },
  "lines.sameSim": { en: "That is the SIM the line already has.", es: "Esa es la SIM que la línea ya tiene." },
  "lines.sameSimField": { en: "already this line's SIM", es: "ya es la SIM de esta línea" },
  "lines.simInUse": { en: "That SIM is already in use on another line.", es: "Esa SIM ya está en uso en otra línea." },
  "lines.simInUseField": { en: "already in use", es: "ya está en uso" },
});
