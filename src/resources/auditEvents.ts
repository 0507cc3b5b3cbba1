import { z } from "zod";
import { defineResource, ROLES } from "./define";
import { isoDateTime } from "./common";

/** One row of the append-only audit trail: who did what to which record, before and after, why. */
export const auditEventSchema = z.object({
  id: z.uuid(),
  operator: z.string(),
  actorUid: z.string().nullable(),
  actorRole: z.string().nullable(),
  /** The actor's name as people know it (a staff member's display name or email, a subscriber's account name); null for the system. */
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** The target's own title, raw (a line's number, a bill's number), formatted by the viewer; null when it has none. */
  targetTitle: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
  requestId: z.string().nullable(),
  createdAt: isoDateTime,
});
export type AuditEvent = z.output<typeof auditEventSchema>;

/** GET /api/v1/audit-events: read-only, for the operator's admins. */
export const auditEventsResource = defineResource({
  name: "audit-events",
  store: "table",
  label: "resources.auditEvents.label",
  icon: "AuditOutlined",
  schema: auditEventSchema,
  recordTitle: "action",
  fields: {
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    action: { label: "fields.action", kind: "text" },
    actorUid: { label: "fields.actor", kind: "text" },
    actorRole: { label: "fields.role", kind: "enum", options: ROLES, labels: "roles" },
    targetType: { label: "fields.targetType", kind: "text" },
    targetId: { label: "fields.targetId", kind: "text" },
    reason: { label: "fields.reason", kind: "text" },
    requestId: { label: "fields.requestId", kind: "text" },
  },
  list: {
    columns: ["createdAt", "action", "actorRole", "targetType", "targetId", "reason"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "action"],
    filters: {
      action: ["eq", "in", "startswith"],
      actorUid: ["eq"],
      actorRole: ["eq", "in"],
      targetType: ["eq"],
      targetId: ["eq", "in"],
      createdAt: ["gte", "lte", "between"],
    },
    search: { placeholder: "resources.auditEvents.search" },
  },
  show: ["createdAt", "action", "actorUid", "actorRole", "targetType", "targetId", "reason", "requestId"],
  // Admins only (issue 27): the trail tells what every colleague did and read; agents work a case, not the trail.
  access: {
    list: { admin: "all" },
    show: { admin: "all" },
  },
  source: "backend",
  audit: false,
  messages: {
    en: {
      "resources.auditEvents.label": "Audit trail",
      "resources.auditEvents.search": "Search by action, record or reason",
      "fields.action": "Action",
      "fields.actor": "By (user id)",
      "fields.targetType": "Record type",
      "fields.targetId": "Record",
      "fields.reason": "Reason",
      "fields.requestId": "Request id",
    },
    es: {
      "resources.auditEvents.label": "Registro de auditoría",
      "resources.auditEvents.search": "Buscar por acción, registro o motivo",
      "fields.action": "Acción",
      "fields.actor": "Por (id de usuario)",
      "fields.targetType": "Tipo de registro",
      "fields.targetId": "Registro",
      "fields.reason": "Motivo",
      "fields.requestId": "Id de la petición",
    },
  },
});
