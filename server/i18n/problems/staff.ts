import { defineWords } from "../defineWords";

/** Staff members: inviting, changing and confirming them, and the two-person rule's trust in a new member. */
export const staffWords = defineWords({
  "staff.adminsOnly": {
    en: "Only the operator's admins manage staff.",
    es: "Solo los administradores del operador gestionan al personal.",
  },
  "staff.idempotencyKeyRequired": {
    en: "required: a unique key per invitation, e.g. a UUID",
    es: "obligatorio: una clave única por invitación, por ejemplo, un UUID",
  },
  "staff.idempotencyKeyTooShort": { en: "at least 8 characters", es: "al menos 8 caracteres" },
  "staff.uidCharacters": { en: "letters, digits, - and _", es: "letras, dígitos, - y _" },
  "staff.userEmailTaken": {
    en: "A user with this email already exists.",
    es: "Ya existe un usuario con este correo electrónico.",
  },
  "staff.field.alreadyRegistered": { en: "already registered", es: "ya está registrado" },
  "staff.memberEmailTaken": {
    en: "A staff member with this email already exists.",
    es: "Ya existe un miembro del personal con este correo electrónico.",
  },
  "staff.field.alreadyStaff": { en: "already a staff member", es: "ya es miembro del personal" },
  "staff.noSuchMember": { en: "No such staff member.", es: "Ese miembro del personal no existe." },
  "staff.notYourself": {
    en: "You cannot change your own role or disable yourself; ask another admin.",
    es: "No puedes cambiar tu propio rol ni desactivarte; pídeselo a otro administrador.",
  },
  "staff.field.isYourself": { en: "is yourself", es: "eres tú" },
  "staff.confirm.yourself": {
    en: "You cannot confirm yourself: another administrator must (two-person rule).",
    es: "No puedes confirmarte a ti mismo: debe hacerlo otro administrador (regla de dos personas).",
  },
  "staff.confirm.inviter": {
    en: "You invited this member: an administrator other than you must confirm them (two-person rule).",
    es: "Tú invitaste a este miembro: debe confirmarlo un administrador distinto de ti (regla de dos personas).",
  },
  "staff.confirm.field.inviter": {
    en: "the confirmer cannot be the inviter",
    es: "quien confirma no puede ser quien invitó",
  },
  // What an unconfirmed member may not do yet ({{doing}} below).
  "staff.doing.confirm": { en: "confirm staff members", es: "confirmar a miembros del personal" },
  "staff.doing.decideApprovals": { en: "decide approvals", es: "decidir aprobaciones" },
  "staff.unconfirmed": {
    en: "You cannot {{doing}} yet: an administrator other than the one who invited you must confirm you first (two-person rule).",
    es: "Todavía no puedes {{doing}}: primero debe confirmarte un administrador distinto del que te invitó (regla de dos personas).",
  },
  "staff.unconfirmedOr24Hours": {
    en: "You cannot {{doing}} yet: an administrator other than the one who invited you must confirm you first, or 24 hours must pass since your invitation (two-person rule).",
    es: "Todavía no puedes {{doing}}: primero debe confirmarte un administrador distinto del que te invitó, o deben pasar 24 horas desde tu invitación (regla de dos personas).",
  },
  "staff.notOnRecord": {
    en: "You cannot {{doing}}: you are not on this operator's staff record.",
    es: "No puedes {{doing}}: no figuras en el registro del personal de este operador.",
  },
  "staff.field.notConfirmed": {
    en: "not confirmed by an administrator other than the inviter",
    es: "sin la confirmación de un administrador distinto de quien te invitó",
  },
});
