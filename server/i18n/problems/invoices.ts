import { defineWords } from "../defineWords";

/** Bills: paying one (by hand or autopay), voiding one while a payment is on its way. */
export const invoicesWords = defineWords({
  "invoices.noSuchInvoice": { en: "No such invoices record.", es: "No existe esa factura." },
  "invoices.roleMayNotPay": {
    en: "Your role ({{role}}) may not pay invoices.",
    es: "Tu rol ({{role}}) no puede pagar facturas.",
  },
  "invoices.reasonRequired": { en: "Give a reason for this action.", es: "Indica un motivo para esta acción." },
  "invoices.required": { en: "required", es: "obligatorio" },
  "invoices.noSuchSavedMethod": {
    en: "No such saved card or bank account of this account's holder (for bills).",
    es: "El titular de esta cuenta no tiene esa tarjeta ni esa cuenta bancaria guardada (para facturas).",
  },
  "invoices.noSuchSavedMethodField": {
    en: "not a saved card or bank account of the account's holder",
    es: "no es una tarjeta ni una cuenta bancaria guardada del titular de la cuenta",
  },
  "invoices.gone": { en: "The bill is gone.", es: "La factura ya no existe." },
  "invoices.paymentKeyReused": {
    en: "This Idempotency-Key was already used for a different payment; use a new key.",
    es: "Esta Idempotency-Key ya se usó para otro pago; usa una clave nueva.",
  },
  // A bill that is not open, by its status (only issued and overdue bills are paid).
  "invoices.notPayable.paid": {
    en: "This bill is paid: only an issued or overdue bill is paid.",
    es: "Esta factura ya está pagada: solo se pagan facturas emitidas o vencidas.",
  },
  "invoices.notPayable.void": {
    en: "This bill is void: only an issued or overdue bill is paid.",
    es: "Esta factura está anulada: solo se pagan facturas emitidas o vencidas.",
  },
  "invoices.notPayableField.paid": { en: "is paid", es: "ya está pagada" },
  "invoices.notPayableField.void": { en: "is void", es: "está anulada" },
  "invoices.atMostDue": {
    en: "At most the amount due, {{due}}, is paid.",
    es: "Se paga como máximo el importe pendiente, {{due}}.",
  },
  "invoices.atMostDueField": { en: "at most {{due}}", es: "como máximo {{due}}" },
  "invoices.paymentOnItsWay": {
    en: "A payment of {{pending}} of this bill is still on its way; nothing else is due meanwhile.",
    es: "Un pago de {{pending}} de esta factura todavía está en camino; mientras tanto no hay nada más por pagar.",
  },
  "invoices.paymentInProgress": { en: "a payment is in progress", es: "hay un pago en curso" },
  "invoices.atMostWhileOnItsWay": {
    en: "{{pending}} of this bill is still on its way: at most {{payable}} more can be paid now.",
    es: "{{pending}} de esta factura todavía está en camino: ahora se puede pagar como máximo {{payable}} más.",
  },
  "invoices.atMostWhileOnItsWayField": {
    en: "at most {{payable}} while a payment is on its way",
    es: "como máximo {{payable}} mientras hay un pago en camino",
  },
  "invoices.cardDeclined": {
    en: "The card ending {{last4}} was declined: nothing was charged and the bill is unchanged. Try another card or a bank account.",
    es: "Se rechazó la tarjeta terminada en {{last4}}: no se cobró nada y la factura no cambió. Prueba con otra tarjeta o con una cuenta bancaria.",
  },
  "invoices.bankAccountDeclined": {
    en: "The bank account ending {{last4}} was declined: nothing was charged and the bill is unchanged. Try another account or a card.",
    es: "Se rechazó la cuenta bancaria terminada en {{last4}}: no se cobró nada y la factura no cambió. Prueba con otra cuenta o con una tarjeta.",
  },
  "invoices.cardDeclinedField": {
    en: "the card ending {{last4}} was declined",
    es: "se rechazó la tarjeta terminada en {{last4}}",
  },
  "invoices.bankAccountDeclinedField": {
    en: "the bank account ending {{last4}} was declined",
    es: "se rechazó la cuenta bancaria terminada en {{last4}}",
  },
  "invoices.autopayNeedsCard": {
    en: "Save a card first: autopay pays with the holder's default card.",
    es: "Guarda una tarjeta primero: el pago automático usa la tarjeta principal del titular.",
  },
  "invoices.autopayNeedsCardField": { en: "no default card", es: "no hay tarjeta principal" },
  "invoices.voidWhilePaying": {
    en: "A card payment of this bill is still waiting for the gateway's answer; void the bill once it is settled.",
    es: "Un pago con tarjeta de esta factura todavía espera la respuesta de la pasarela; anula la factura cuando se haya resuelto.",
  },
});
