import { defineWords } from "../defineWords";

/** Tickets: the files attached to a message. */
export const ticketsWords = defineWords({
  "tickets.attachmentsNotValid": {
    en: "The attachments are not valid: {{issues}}",
    es: "Los archivos adjuntos no son válidos: {{issues}}",
  },
  "tickets.field.notYourAttachment": {
    en: "no attachment with this id that you uploaded",
    es: "no subiste ningún archivo adjunto con este id",
  },
  "tickets.field.alreadyAttached": {
    en: "this file is already attached to a message",
    es: "este archivo ya está adjunto a un mensaje",
  },
});
