import { defineWords } from "../defineWords";

/** People on an account (issue 28 item 6): inviting, accepting and removing members and managers. */
export const accountMembersWords = defineWords({
  "accountMembers.noSuchAccount": { en: "No such account.", es: "Esa cuenta no existe." },
  "accountMembers.reasonRequired": {
    en: "Staff must give a reason.",
    es: "El personal debe indicar un motivo.",
  },
  "accountMembers.required": { en: "required", es: "obligatorio" },
  "accountMembers.accountClosed": {
    en: "This account is closed: no one can join it.",
    es: "Esta cuenta está cerrada: nadie puede unirse a ella.",
  },
  "accountMembers.field.closed": { en: "closed", es: "cerrada" },
  "accountMembers.alreadyInvited": {
    en: "{{email}} is already on this account or invited to it.",
    es: "{{email}} ya está en esta cuenta o ya tiene una invitación.",
  },
  "accountMembers.field.alreadyInvited": {
    en: "already on this account or invited",
    es: "ya está en la cuenta o invitado",
  },
  "accountMembers.holderEmail": {
    en: "That is the account holder's email.",
    es: "Ese es el correo del titular de la cuenta.",
  },
  "accountMembers.field.holder": { en: "is the account holder", es: "es el titular de la cuenta" },
  "accountMembers.notTheirLines": {
    en: "Every line must be a line of this account.",
    es: "Cada línea debe ser una línea de esta cuenta.",
  },
  "accountMembers.field.notTheirLine": {
    en: "not a line of this account",
    es: "no es una línea de esta cuenta",
  },
  "accountMembers.noSuchMember": {
    en: "No such person on this account.",
    es: "Esa persona no está en esta cuenta.",
  },
  "accountMembers.field.noSuchMember": { en: "not on this account", es: "no está en esta cuenta" },
  "accountMembers.linkUnknown": {
    en: "This invitation link is not valid.",
    es: "Este enlace de invitación no es válido.",
  },
  "accountMembers.linkUsed": {
    en: "This invitation was already accepted.",
    es: "Esta invitación ya fue aceptada.",
  },
  "accountMembers.linkExpired": {
    en: "This invitation has expired: invitations last {{days}} days. Ask the account holder for a new one.",
    es: "Esta invitación venció: las invitaciones duran {{days}} días. Pide una nueva al titular de la cuenta.",
  },
  "accountMembers.field.link": {
    en: "ask the account holder for a new invitation",
    es: "pide una nueva invitación al titular de la cuenta",
  },
  "accountMembers.ownAccount": {
    en: "You hold this account already.",
    es: "Ya eres el titular de esta cuenta.",
  },
  "accountMembers.alreadyMember": {
    en: "You are on this account already.",
    es: "Ya estás en esta cuenta.",
  },
  "accountMembers.subscribersOnly": {
    en: "Only subscribers can join an account; staff accounts cannot.",
    es: "Solo los suscriptores pueden unirse a una cuenta; las cuentas del personal no.",
  },
});
