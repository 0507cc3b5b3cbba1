import { defineWords } from "../defineWords";

/** Approvals: the two-person rule's refusals of a decision. */
export const approvalsWords = defineWords({
  "approvals.ownRequest": {
    en: "You asked for this request yourself: another administrator must approve or reject it (two-person rule).",
    es: "Tú hiciste esta solicitud: otro administrador debe aprobarla o rechazarla (regla de dos personas).",
  },
  "approvals.field.ownRequest": {
    en: "the approver cannot be the requester",
    es: "quien aprueba no puede ser quien hizo la solicitud",
  },
  "approvals.inviterOfRequester": {
    en: "You invited the person who asked for this less than 30 days ago: another administrator must approve or reject it (two-person rule).",
    es: "Invitaste a la persona que hizo esta solicitud hace menos de 30 días: otro administrador debe aprobarla o rechazarla (regla de dos personas).",
  },
  "approvals.field.inviterOfRequester": {
    en: "the approver cannot be the requester's inviter of the last 30 days",
    es: "quien aprueba no puede ser quien invitó a quien hizo la solicitud en los últimos 30 días",
  },
});
