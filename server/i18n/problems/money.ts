import { defineWords } from "../defineWords";

/** Money on an account: the ledger (currency, amounts, balance), staff's credits and charges, vouchers. */
export const moneyWords = defineWords({
  "money.keptIn": { en: "This account is kept in {{currency}}.", es: "Esta cuenta está en {{currency}}." },
  "money.mustBeCurrency": { en: "must be {{currency}}", es: "debe ser {{currency}}" },
  "money.noSuchAccount": { en: "No such account.", es: "No existe esa cuenta." },
  "money.amountNotWhole": {
    en: "An amount must be a positive whole number of minor units.",
    es: "Un importe debe ser un número entero positivo de la unidad mínima de la moneda (por ejemplo, centavos).",
  },
  "money.amountNotWholeField": { en: "must be a positive integer", es: "debe ser un número entero positivo" },
  "money.entryKeyReused": {
    en: "This idempotency key was already used for a different entry on this account.",
    es: "Esta clave de idempotencia ya se usó para otro movimiento de esta cuenta.",
  },
  "money.entryKeyReusedField": { en: "already used for a different entry", es: "ya se usó para otro movimiento" },
  "money.shortfall": {
    en: "The balance ({{balance}}) is short by {{shortfall}} for this {{amount}}: top up at least {{shortfall}}, then try again.",
    es: "Al saldo ({{balance}}) le faltan {{shortfall}} para cubrir {{amount}}: recarga al menos {{shortfall}} y vuelve a intentarlo.",
  },
  "money.shortfallField": { en: "short by {{shortfall}}", es: "faltan {{shortfall}}" },
  "money.staffOnly": {
    en: "Only staff move money on an account by hand.",
    es: "Solo el personal puede mover dinero de una cuenta a mano.",
  },
  "money.voucherRefused": {
    en: "This voucher code cannot be redeemed. Check the code, or contact us if you think it is right.",
    es: "Este código de cupón no se puede canjear. Revisa el código o contáctanos si crees que es correcto.",
  },
  "money.voucherRefusedField": {
    en: "Check the 16 characters on the card; a used or expired code cannot be redeemed.",
    es: "Revisa los 16 caracteres del cupón; un código usado o vencido no se puede canjear.",
  },
  // Not used yet: a rate limit's detail is a string (server/lib/rateLimits.ts, LimitHit.detail).
  "money.voucherTooManyFailures": {
    en: "Too many voucher codes that could not be redeemed on this account; try again later.",
    es: "Demasiados códigos de cupón sin canjear en esta cuenta; inténtalo de nuevo más tarde.",
  },
});
