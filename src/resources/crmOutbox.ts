import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";

/**
 * The CRM outbox: every lead meant for the operator's Bitrix24 (device claims, contact requests,
 * refund claims) with its delivery state. Admins watch it and send a dead or waiting lead again.
 */
export const CRM_OUTBOX_STATUSES = ["pending", "delivered", "dead"] as const;
export const CRM_LEAD_SOURCES = ["device_claim", "contact_request", "refund_claim"] as const;

export const crmOutboxSchema = z.object({
  id: idSchema,
  sourceType: z.enum(CRM_LEAD_SOURCES),
  sourceId: z.string(),
  title: z.string(),
  status: z.enum(CRM_OUTBOX_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: isoDateTime.nullable(),
  lastError: z.string().nullable(),
  crmLeadId: z.string().nullable(),
  deliveredAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type CrmOutboxEntry = z.output<typeof crmOutboxSchema>;

export const crmOutboxResource = defineResource({
  name: "crm-outbox",
  store: "table",
  label: "resources.crm-outbox.label",
  icon: "CloudUploadOutlined",
  schema: crmOutboxSchema,
  recordTitle: "title",
  fields: {
    title: { label: "fields.crmLeadTitle", kind: "text" },
    sourceType: { label: "fields.crmLeadSource", kind: "enum", options: CRM_LEAD_SOURCES },
    sourceId: { label: "fields.crmSourceId", kind: "text" },
    status: { label: "fields.status", kind: "enum", options: CRM_OUTBOX_STATUSES, labels: "enums.crmOutboxStatus" },
    attempts: { label: "fields.crmAttempts", kind: "quantity" },
    nextAttemptAt: { label: "fields.crmNextAttemptAt", kind: "datetime" },
    lastError: { label: "fields.crmLastError", kind: "longText" },
    crmLeadId: { label: "fields.crmLeadId", kind: "text" },
    deliveredAt: { label: "fields.crmDeliveredAt", kind: "datetime" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["title", "sourceType", "status", "attempts", "nextAttemptAt", "lastError", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "status", "attempts", "nextAttemptAt"],
    filters: { status: ["eq", "in"], sourceType: ["eq", "in"] },
  },
  show: [
    "title",
    "sourceType",
    "sourceId",
    "status",
    "attempts",
    "nextAttemptAt",
    "lastError",
    "crmLeadId",
    "deliveredAt",
    "createdAt",
  ],
  actions: {
    retry: {
      label: "resources.crm-outbox.retry",
      handler: "crmOutbox.retry",
      when: { status: ["dead", "pending"] },
      confirm: "resources.crm-outbox.confirmRetry",
    },
  },
  access: {
    list: { admin: "all" },
    show: { admin: "all" },
    retry: { admin: "all" },
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.crm-outbox.label": "CRM outbox",
      "resources.crm-outbox.retry": "Send again",
      "resources.crm-outbox.confirmRetry": "The lead is sent to the CRM again now, with a fresh set of tries.",
      "fields.crmLeadTitle": "Lead",
      "fields.crmLeadSource": "From",
      "fields.crmSourceId": "Record",
      "fields.crmAttempts": "Tries",
      "fields.crmNextAttemptAt": "Next try",
      "fields.crmLastError": "Last error",
      "fields.crmLeadId": "Lead id in the CRM",
      "fields.crmDeliveredAt": "Delivered",
      "enums.sourceType.device_claim": "Device claim",
      "enums.sourceType.contact_request": "Contact request",
      "enums.sourceType.refund_claim": "Refund claim",
      "enums.crmOutboxStatus.pending": "Waiting",
      "enums.crmOutboxStatus.delivered": "Delivered",
      "enums.crmOutboxStatus.dead": "Failed (dead letter)",
    },
    es: {
      "resources.crm-outbox.label": "Bandeja CRM",
      "resources.crm-outbox.retry": "Enviar de nuevo",
      "resources.crm-outbox.confirmRetry":
        "El contacto se envía de nuevo al CRM ahora, con una nueva serie de intentos.",
      "fields.crmLeadTitle": "Contacto",
      "fields.crmLeadSource": "Origen",
      "fields.crmSourceId": "Registro",
      "fields.crmAttempts": "Intentos",
      "fields.crmNextAttemptAt": "Próximo intento",
      "fields.crmLastError": "Último error",
      "fields.crmLeadId": "Id en el CRM",
      "fields.crmDeliveredAt": "Entregado",
      "enums.sourceType.device_claim": "Reclamación de equipo",
      "enums.sourceType.contact_request": "Solicitud de contacto",
      "enums.sourceType.refund_claim": "Reclamación de reembolso",
      "enums.crmOutboxStatus.pending": "En espera",
      "enums.crmOutboxStatus.delivered": "Entregado",
      "enums.crmOutboxStatus.dead": "Fallido (sin entregar)",
    },
  },
});
