import { defineWords } from "../defineWords";

/** Top-ups of a prepaid balance: by card now, and automatically below a threshold. */
export const topUpsWords = defineWords({
  "topUps.roleMayNotCreate": {
    en: "Your role ({{role}}) may not create top-ups.",
    es: "Tu rol ({{role}}) no puede crear recargas.",
  },
  "topUps.turnedOff": {
    en: "Card top-up is turned off for now: add credit with a voucher instead (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
    es: "La recarga con tarjeta está desactivada por ahora: añade saldo con un cupón (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
  },
  "topUps.noSuchAccount": { en: "No such accounts record.", es: "No existe esa cuenta." },
  "topUps.prepaidOnly": {
    en: "Only prepaid accounts are topped up; postpaid accounts pay their bills.",
    es: "Solo se recargan las cuentas prepago; las cuentas pospago pagan sus facturas.",
  },
  "topUps.prepaidOnlyField": { en: "must be a prepaid account", es: "debe ser una cuenta prepago" },
  "topUps.keyReused": {
    en: "This Idempotency-Key was already used for a different top-up; use a new key.",
    es: "Esta Idempotency-Key ya se usó para otra recarga; usa una clave nueva.",
  },
  "topUps.autoUnavailable": {
    en: "Card top-up is unavailable for this operator, so it cannot top up automatically: add credit with a voucher instead.",
    es: "La recarga con tarjeta no está disponible para este operador, así que no se puede recargar automáticamente: añade saldo con un cupón.",
  },
  "topUps.autoUnavailableField": {
    en: "card top-up is unavailable for this operator",
    es: "la recarga con tarjeta no está disponible para este operador",
  },
  "topUps.autoNeedsDefaultCard": {
    en: "Auto top-up needs a default saved card: add one under payment methods first.",
    es: "La recarga automática necesita una tarjeta principal guardada: añade una primero en Formas de pago.",
  },
  "topUps.autoNeedsDefaultCardField": { en: "no default payment method", es: "no hay forma de pago principal" },
});
