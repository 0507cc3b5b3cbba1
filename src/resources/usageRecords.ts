import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDate, isoDateTime } from "./common";
import { ROAMING_ZONES, USAGE_TYPES } from "./usage";

const UNITS = ["MB", "seconds", "messages"] as const;

/** One usage record as counted (immutable): mediation's id, the line, what, when, how much, where. */
export const usageRecordSchema = z.object({
  id: z.string(),
  lineId: idSchema,
  msisdn: z.string(),
  type: z.enum(USAGE_TYPES),
  startedAt: isoDateTime,
  quantity: z.number().int(),
  unit: z.enum(UNITS),
  /** Used abroad (a roaming zone), or at home. */
  roaming: z.boolean(),
  roamingZone: z.enum(ROAMING_ZONES).nullable(),
  /** The first day of the billing cycle it counts in. */
  cycleStart: isoDate,
  receivedAt: isoDateTime,
});
export type UsageRecord = z.output<typeof usageRecordSchema>;

/** Usage history: read-only records, a subscriber's own lines', filtered and exported like any list. */
export const usageRecordsResource = defineResource({
  name: "usage-records",
  store: "table",
  label: "resources.usage-records.label",
  icon: "BarChartOutlined",
  schema: usageRecordSchema,
  recordTitle: "startedAt",
  fields: {
    startedAt: { label: "fields.startedAt", kind: "datetime" },
    msisdn: { label: "fields.msisdn", kind: "msisdn", reference: { resource: "lines", idField: "lineId" } },
    type: { label: "fields.usageType", kind: "enum", options: USAGE_TYPES, labels: "enums.usageType" },
    quantity: { label: "fields.quantity", kind: "number" },
    unit: { label: "fields.unit", kind: "enum", options: UNITS, labels: "enums.usageUnit" },
    roaming: { label: "fields.roaming", kind: "boolean" },
    roamingZone: { label: "fields.roamingZone", kind: "enum", options: ROAMING_ZONES, labels: "enums.roamingZone" },
    cycleStart: { label: "fields.cycleStart", kind: "date" },
    receivedAt: { label: "fields.receivedAt", kind: "datetime" },
  },
  list: {
    columns: ["startedAt", "msisdn", "type", "quantity", "unit", "roamingZone"],
    defaultSort: [{ field: "startedAt", order: "desc" }],
    sortable: ["startedAt", "quantity"],
    filters: {
      // "in": the care 360 asks for the usage of all the account's lines at once.
      lineId: ["eq", "in"],
      type: ["eq", "in"],
      startedAt: ["gte", "lte", "between"],
      roaming: ["eq"],
      roamingZone: ["eq", "in"],
      cycleStart: ["eq"],
    },
  },
  show: ["startedAt", "msisdn", "type", "quantity", "unit", "roaming", "roamingZone", "cycleStart", "receivedAt"],
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
  },
  ownership: { path: "line.account.ownerUid", sharedWith: { manager: "all", member: "all" } },
  subscriberPlace: "usage",
  subscriberCard: {
    title: [
      { text: "resources.usage-records.card.data", when: { type: ["data"] } },
      { text: "resources.usage-records.card.voice", when: { type: ["voice"] } },
      { text: "resources.usage-records.card.sms", when: { type: ["sms"], quantity: [1] } },
      { text: "resources.usage-records.card.smsMany", when: { type: ["sms"] } },
    ],
    lines: [
      "resources.usage-records.card.when",
      { text: "resources.usage-records.card.abroad", when: { roaming: [true] } },
    ],
  },
  source: "backend",
  // Read-only: nothing is written through the API, so there is nothing to audit.
  audit: false,
  messages: {
    en: {
      "resources.usage-records.label": "Usage history",
      "fields.startedAt": "When",
      "fields.usageType": "Type",
      "fields.quantity": "Amount",
      "fields.unit": "Unit",
      "fields.roaming": "Abroad",
      "fields.roamingZone": "Roaming zone",
      "fields.cycleStart": "Cycle from",
      "fields.receivedAt": "Received",
      "enums.usageType.data": "Data",
      "enums.usageType.voice": "Call",
      "enums.usageType.sms": "Text",
      "enums.usageUnit.MB": "MB",
      "enums.usageUnit.seconds": "seconds",
      "enums.usageUnit.messages": "messages",
      "resources.usage-records.card.data": "{{quantity}} MB of data",
      "resources.usage-records.card.voice": "A call of {{quantity}} seconds",
      "resources.usage-records.card.sms": "A text message",
      "resources.usage-records.card.smsMany": "{{quantity}} text messages",
      "resources.usage-records.card.when": "{{startedAt}} · {{msisdn}}",
      "resources.usage-records.card.abroad": "Used abroad: {{roamingZone}}",
    },
    es: {
      "resources.usage-records.label": "Historial de consumo",
      "fields.startedAt": "Cuándo",
      "fields.usageType": "Tipo",
      "fields.quantity": "Cantidad",
      "fields.unit": "Unidad",
      "fields.roaming": "En el extranjero",
      "fields.roamingZone": "Zona de roaming",
      "fields.cycleStart": "Ciclo desde",
      "fields.receivedAt": "Recibido",
      "enums.usageType.data": "Datos",
      "enums.usageType.voice": "Llamada",
      "enums.usageType.sms": "SMS",
      "enums.usageUnit.MB": "MB",
      "enums.usageUnit.seconds": "segundos",
      "enums.usageUnit.messages": "mensajes",
      "resources.usage-records.card.data": "{{quantity}} MB de datos",
      "resources.usage-records.card.voice": "Una llamada de {{quantity}} segundos",
      "resources.usage-records.card.sms": "Un mensaje de texto",
      "resources.usage-records.card.smsMany": "{{quantity}} mensajes de texto",
      "resources.usage-records.card.when": "{{startedAt}} · {{msisdn}}",
      "resources.usage-records.card.abroad": "Usado en el extranjero: {{roamingZone}}",
    },
  },
});
