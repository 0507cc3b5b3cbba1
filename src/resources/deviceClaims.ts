import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDate, isoDateTime } from "./common";

/**
 * Device-protection claims, declared by configuration alone (docs/add-a-resource.md walks through
 * this file): a subscriber files a claim for one of their own lines, a care agent approves or
 * rejects it, the subscriber may withdraw it while it waits. Served by the generic API.
 */
const INCIDENTS = ["damage", "theft", "loss", "malfunction"] as const;
const CLAIM_STATUSES = ["submitted", "approved", "rejected", "withdrawn"] as const;

export const deviceClaimSchema = z.object({
  id: idSchema,
  lineId: idSchema,
  incident: z.enum(INCIDENTS),
  occurredOn: isoDate,
  description: z.string().trim().min(10, "validation.atLeastChars").max(1000),
  status: z.enum(CLAIM_STATUSES),
  assessment: z.string().trim().max(1000).nullable(),
  /** A photo or PDF uploaded first (POST /api/v1/files): the writer must be able to open it, so only their own. */
  attachmentId: idSchema.nullable().optional(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const deviceClaimsResource = defineResource({
  name: "device-claims",
  label: "resources.device-claims.label",
  icon: "SafetyCertificateOutlined",
  schema: deviceClaimSchema,
  recordTitle: "description",
  createLabel: "resources.device-claims.create",
  // True only when written: a claim filed today stays readable tomorrow.
  writeRules: {
    occurredOn: isoDate.refine((day) => day <= new Date().toISOString().slice(0, 10), "validation.notFuture"),
  },
  fields: {
    lineId: { label: "fields.line", kind: "reference", reference: { resource: "lines" } },
    incident: { label: "fields.incident", kind: "enum", options: INCIDENTS },
    occurredOn: { label: "fields.occurredOn", kind: "date" },
    description: { label: "fields.description", kind: "longText", help: "resources.device-claims.descriptionHelp" },
    status: { label: "fields.status", kind: "enum", options: CLAIM_STATUSES },
    assessment: { label: "fields.assessment", kind: "longText", writableBy: ["agent", "admin"] },
    attachmentId: { label: "fields.attachment", kind: "reference", reference: { resource: "files" } },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["description", "lineId", "incident", "occurredOn", "status", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "occurredOn", "status", "incident"],
    filters: {
      status: ["eq", "ne", "in"],
      incident: ["eq", "in"],
      lineId: ["eq", "in"],
      occurredOn: ["gte", "lte", "between"],
    },
    search: { placeholder: "resources.device-claims.search", fields: ["description", "assessment"] },
  },
  show: ["lineId", "incident", "occurredOn", "description", "attachmentId", "status", "assessment", "createdAt"],
  form: {
    create: ["lineId", "incident", "occurredOn", "description", "attachmentId"],
    edit: ["incident", "occurredOn", "description", "assessment"],
  },
  defaults: { status: "submitted", assessment: null },
  actions: {
    approve: { label: "resources.device-claims.approve", set: { status: "approved" }, when: { status: ["submitted"] } },
    reject: {
      label: "resources.device-claims.reject",
      set: { status: "rejected" },
      when: { status: ["submitted"] },
      reason: true,
      danger: true,
    },
    withdraw: {
      label: "resources.device-claims.withdraw",
      set: { status: "withdrawn" },
      when: { status: ["submitted"] },
      danger: true,
    },
  },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    create: { subscriber: "own", agent: "all", admin: "all" },
    edit: { agent: "all", admin: "all" },
    delete: { admin: "all" },
    approve: { agent: "all", admin: "all" },
    reject: { agent: "all", admin: "all" },
    withdraw: { subscriber: "own" },
  },
  ownership: { path: "lineId → lines → account.ownerUid", through: "lineId" },
  source: "backend",
  audit: true,
  indexes: ["status", "lineId"],
  messages: {
    en: {
      "resources.device-claims.label": "Device claims",
      "resources.device-claims.create": "Claim for a damaged, lost or stolen phone",
      "resources.device-claims.search": "Search claims",
      "resources.device-claims.descriptionHelp": "What happened, and when and where it happened.",
      "resources.device-claims.approve": "Approve",
      "resources.device-claims.reject": "Reject",
      "resources.device-claims.withdraw": "Withdraw",
      "fields.line": "Line",
      "fields.incident": "What happened",
      "fields.occurredOn": "Date of the incident",
      "fields.description": "Description",
      "fields.assessment": "Assessment",
      "enums.incident.damage": "Damage",
      "enums.incident.theft": "Theft",
      "enums.incident.loss": "Loss",
      "enums.incident.malfunction": "Malfunction",
      "enums.status.submitted": "Submitted",
      "enums.status.approved": "Approved",
      "enums.status.rejected": "Rejected",
      "enums.status.withdrawn": "Withdrawn",
    },
    es: {
      "resources.device-claims.label": "Reclamaciones de equipo",
      "resources.device-claims.create": "Reclamar por un teléfono dañado, perdido o robado",
      "resources.device-claims.search": "Buscar reclamaciones",
      "resources.device-claims.descriptionHelp": "Qué pasó, cuándo y dónde.",
      "resources.device-claims.approve": "Aprobar",
      "resources.device-claims.reject": "Rechazar",
      "resources.device-claims.withdraw": "Retirar",
      "fields.line": "Línea",
      "fields.incident": "Qué pasó",
      "fields.occurredOn": "Fecha del incidente",
      "fields.description": "Descripción",
      "fields.assessment": "Valoración",
      "enums.incident.damage": "Daño",
      "enums.incident.theft": "Robo",
      "enums.incident.loss": "Pérdida",
      "enums.incident.malfunction": "Avería",
      "enums.status.submitted": "Enviada",
      "enums.status.approved": "Aprobada",
      "enums.status.rejected": "Rechazada",
      "enums.status.withdrawn": "Retirada",
    },
  },
});
