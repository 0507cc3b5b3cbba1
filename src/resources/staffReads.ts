import { z } from "zod";
import { defineResource } from "./define";
import { isoDateTime } from "./common";
import { STAFF_ROLES } from "./staff";

/** One logged staff read (the access log, issue 27) as admins see it: who read whose what, when. */
export const staffReadSchema = z.object({
  id: z.uuid(),
  readAt: isoDateTime,
  staffUid: z.string(),
  /** The staff member's display name (else email): admins know their colleagues. */
  staffName: z.string().nullable(),
  staffRole: z.enum(STAFF_ROLES),
  subscriberUid: z.string(),
  /** The subscriber's name on their first account; null when none is found. */
  subscriberName: z.string().nullable(),
  /** A resource's name or a 360 section ("identity"); the viewer words it. */
  section: z.string(),
});
export type StaffRead = z.output<typeof staffReadSchema>;

/**
 * GET /api/v1/staff-reads: the access log for the operator's admins, the second tab of the audit
 * viewer (not in the menu). Written only by the server (server/domain/accessLog); never edited.
 */
export const staffReadsResource = defineResource({
  name: "staff-reads",
  store: "table",
  label: "resources.staffReads.label",
  icon: "EyeOutlined",
  schema: staffReadSchema,
  recordTitle: "section",
  fields: {
    readAt: { label: "fields.readAt", kind: "datetime" },
    staffName: { label: "fields.staffMember", kind: "text" },
    staffRole: { label: "fields.role", kind: "enum", options: STAFF_ROLES, labels: "roles" },
    subscriberName: { label: "fields.subscriber", kind: "text" },
    section: { label: "fields.dataSection", kind: "text" },
  },
  list: {
    columns: ["readAt", "staffName", "staffRole", "subscriberName", "section"],
    defaultSort: [{ field: "readAt", order: "desc" }],
    sortable: ["readAt"],
    filters: {
      staffUid: ["eq"],
      subscriberUid: ["eq"],
      section: ["eq"],
      readAt: ["gte", "lte", "between"],
    },
  },
  show: ["readAt", "staffName", "staffRole", "subscriberName", "section"],
  access: {
    list: { admin: "all" },
    show: { admin: "all" },
  },
  menu: false,
  source: "backend",
  audit: false,
  messages: {
    en: {
      "resources.staffReads.label": "Staff reads",
      "fields.readAt": "Read at",
      "fields.staffMember": "Staff member",
      "fields.subscriber": "Subscriber",
      "fields.dataSection": "What they read",
    },
    es: {
      "resources.staffReads.label": "Consultas del personal",
      "fields.readAt": "Consultado el",
      "fields.staffMember": "Persona del personal",
      "fields.subscriber": "Abonado",
      "fields.dataSection": "Qué consultó",
    },
  },
});
