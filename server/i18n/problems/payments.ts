import { defineWords } from "../defineWords";

/** Card gateways and saved payment methods: which gateway takes a payment, its webhooks, saving a card or bank account. */
export const paymentsWords = defineWords({
  // A gateway's webhook (server/payments/webhookRoutes.ts): the caller is a gateway, but the answer is still ours.
  "payments.webhook.gatewayName": { en: "a gateway name", es: "un nombre de pasarela" },
  "payments.webhook.noGateway": {
    en: 'No gateway "{{gateway}}" is wired to this server.',
    es: 'No hay ninguna pasarela "{{gateway}}" conectada a este servidor.',
  },
  "payments.webhook.signature.missing": { en: "The webhook has no signature.", es: "El webhook no tiene firma." },
  "payments.webhook.signature.malformed": {
    en: "The webhook has a malformed signature.",
    es: "El webhook tiene una firma mal formada.",
  },
  "payments.webhook.signature.too_old": {
    en: "The webhook has a signature outside the time tolerance.",
    es: "El webhook tiene una firma fuera del margen de tiempo permitido.",
  },
  "payments.webhook.signature.mismatch": {
    en: "The webhook has a signature that does not match.",
    es: "El webhook tiene una firma que no coincide.",
  },
  "payments.webhook.signatureField.missing": { en: "no signature", es: "sin firma" },
  "payments.webhook.signatureField.malformed": { en: "a malformed signature", es: "una firma mal formada" },
  "payments.webhook.signatureField.too_old": {
    en: "a signature outside the time tolerance",
    es: "una firma fuera del margen de tiempo permitido",
  },
  "payments.webhook.signatureField.mismatch": {
    en: "a signature that does not match",
    es: "una firma que no coincide",
  },
  "payments.webhook.notJson": { en: "The webhook body is not JSON.", es: "El cuerpo del webhook no es JSON." },
  "payments.webhook.notJsonField": { en: "not JSON", es: "no es JSON" },
  "payments.webhook.notChargeEvent": {
    en: "The webhook body is not a charge event: {{issues}}",
    es: "El cuerpo del webhook no es un evento de cobro: {{issues}}",
  },

  // Which gateway takes a payment (server/payments/gatewayFor.ts).
  "payments.billsOffline": {
    en: "Online bill payment is unavailable on this server: pay the bill at a store or by bank transfer.",
    es: "El pago de facturas en línea no está disponible en este servidor: paga la factura en una tienda o por transferencia bancaria.",
  },
  "payments.billsOfflineField": {
    en: "online bill payment is unavailable",
    es: "el pago de facturas en línea no está disponible",
  },
  "payments.billGatewayNotWired": {
    en: 'Bill payment through the "{{gateway}}" gateway is not available on this server.',
    es: 'El pago de facturas a través de la pasarela "{{gateway}}" no está disponible en este servidor.',
  },
  "payments.cardTopUpUnavailable": {
    en: "Card top-up is unavailable for this operator: add credit with a voucher instead (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
    es: "La recarga con tarjeta no está disponible para este operador: añade saldo con un cupón (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
  },
  "payments.cardTopUpUnavailableField": {
    en: "card top-up is unavailable; use a voucher",
    es: "la recarga con tarjeta no está disponible; usa un cupón",
  },
  "payments.cardTopUpGatewayNotWired": {
    en: 'Card top-up through the "{{gateway}}" gateway is not available on this server; add credit with a voucher instead.',
    es: 'La recarga con tarjeta a través de la pasarela "{{gateway}}" no está disponible en este servidor; añade saldo con un cupón.',
  },

  // A saved card of the account's holder (top-ups, autopay).
  "payments.noSuchSavedCard": {
    en: "No such saved card of this account's holder.",
    es: "El titular de esta cuenta no tiene esa tarjeta guardada.",
  },
  "payments.notHoldersCard": {
    en: "not a saved card of the account's holder",
    es: "no es una tarjeta guardada del titular de la cuenta",
  },
  "payments.keyUsedField": {
    en: "already used for a different request",
    es: "ya se usó para otra solicitud",
  },

  // Saving a payment method (server/domain/paymentMethods/routes.ts).
  "payments.methods.roleMayNotAdd": {
    en: "Your role ({{role}}) may not add payment methods.",
    es: "Tu rol ({{role}}) no puede añadir formas de pago.",
  },
  "payments.methods.nothingToSave": {
    en: "Payments are not taken online here: there is nothing to save a payment method for.",
    es: "Aquí no se aceptan pagos en línea, así que no hace falta guardar una forma de pago.",
  },
  "payments.methods.nothingToSaveField": {
    en: "online payments are unavailable",
    es: "los pagos en línea no están disponibles",
  },
  "payments.methods.noBankAccounts": {
    en: "The bill-payment gateway takes no bank accounts.",
    es: "La pasarela de pago de facturas no acepta cuentas bancarias.",
  },
  "payments.methods.noBankAccountsField": { en: "bank accounts are not taken", es: "no se aceptan cuentas bancarias" },
  "payments.methods.tooMany": {
    en: "At most {{max}} cards and bank accounts may be saved; remove one first.",
    es: "Puedes guardar como máximo {{max}} tarjetas y cuentas bancarias; quita una primero.",
  },
  "payments.methods.tooManyField": {
    en: "at most {{max}} payment methods",
    es: "como máximo {{max}} formas de pago",
  },
  "payments.methods.cardTokenRefused": {
    en: "The payment gateway refused the card token: {{why}}.",
    es: "La pasarela de pago rechazó el token de la tarjeta: {{why}}.",
  },
  "payments.methods.bankTokenRefused": {
    en: "The payment gateway refused the bank account token: {{why}}.",
    es: "La pasarela de pago rechazó el token de la cuenta bancaria: {{why}}.",
  },
  "payments.methods.tokenRefusedField": {
    en: "unknown or already used token",
    es: "token desconocido o ya usado",
  },
});
