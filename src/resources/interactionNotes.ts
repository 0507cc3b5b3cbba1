import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";

/** How long one note may be: a call's summary, not a transcript. */
export const NOTE_MAX_CHARS = 2000;

/**
 * A care interaction note (issue 27 item 6): what an agent or admin wrote down about a call or a
 * chat, on the subscriber 360. Kept per person (`personId`: the holder, or the account while no one
 * holds it), so every account of the person shows it; who wrote it and when are set by the server.
 * Staff only: subscribers have no access at all.
 */
export const interactionNoteSchema = z.object({
  id: idSchema,
  /** The account whose 360 the note was written on (an account id: `subscribers`). */
  subscriberId: idSchema,
  /** The person of that account when the note was written (server-set, as `subscribers.personId`). */
  personId: z.string(),
  text: z.string().trim().min(1, "validation.atLeastChars").max(NOTE_MAX_CHARS, "validation.atMostChars"),
  /** The writer's display name as it was when they wrote (server-set). */
  authorName: z.string(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type InteractionNote = z.output<typeof interactionNoteSchema>;

export const interactionNotesResource = defineResource({
  name: "interaction-notes",
  label: "resources.interaction-notes.label",
  icon: "CommentOutlined",
  schema: interactionNoteSchema,
  recordTitle: "text",
  fields: {
    subscriberId: { label: "fields.subscriber", kind: "reference", reference: { resource: "subscribers" } },
    personId: { label: "fields.person", kind: "text" },
    text: { label: "fields.note", kind: "longText" },
    authorName: { label: "fields.noteAuthor", kind: "text" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["createdAt", "authorName", "text"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt"],
    filters: { personId: ["eq"], subscriberId: ["eq"] },
  },
  show: ["createdAt", "authorName", "text"],
  form: { create: ["subscriberId", "text"], edit: [] },
  // Set by the server on every create (server/domain/interactionNotes): never taken from the writer.
  defaults: { personId: "", authorName: "" },
  access: {
    list: { agent: "all", admin: "all" },
    show: { agent: "all", admin: "all" },
    create: { agent: "all", admin: "all" },
  },
  source: "backend",
  audit: true,
  indexes: ["personId"],
  menu: false,
  messages: {
    en: {
      "resources.interaction-notes.label": "Interaction notes",
      "fields.subscriber": "Subscriber",
      "fields.note": "Note",
      "fields.noteAuthor": "Written by",
    },
    es: {
      "resources.interaction-notes.label": "Notas de interacción",
      "fields.subscriber": "Abonado",
      "fields.note": "Nota",
      "fields.noteAuthor": "Escrita por",
    },
  },
});
