import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";

/**
 * "Contact me": a subscriber asks care to call or write back about a topic. Care marks it done.
 * With Bitrix on, each request also becomes a CRM lead (server/domain/crm).
 */
const TOPICS = ["billing", "plan", "coverage", "device", "other"] as const;
const CHANNELS = ["phone", "email"] as const;
const REQUEST_STATUSES = ["open", "done"] as const;

export const contactRequestSchema = z.object({
  id: idSchema,
  topic: z.enum(TOPICS),
  channel: z.enum(CHANNELS),
  message: z.string().trim().min(10, "validation.atLeastChars").max(1000, "validation.atMostChars"),
  status: z.enum(REQUEST_STATUSES),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const contactRequestsResource = defineResource({
  name: "contact-requests",
  label: "resources.contact-requests.label",
  icon: "PhoneOutlined",
  schema: contactRequestSchema,
  recordTitle: "message",
  createLabel: "resources.contact-requests.create",
  fields: {
    topic: { label: "fields.contactTopic", kind: "enum", options: TOPICS },
    channel: { label: "fields.contactChannel", kind: "enum", options: CHANNELS },
    message: { label: "fields.contactMessage", kind: "longText" },
    status: { label: "fields.status", kind: "enum", options: REQUEST_STATUSES, labels: "enums.contactStatus" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["message", "topic", "channel", "status", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "status", "topic"],
    filters: { status: ["eq", "in"], topic: ["eq", "in"] },
  },
  show: ["topic", "channel", "message", "status", "createdAt"],
  form: { create: ["topic", "channel", "message"], edit: [] },
  defaults: { status: "open" },
  actions: {
    done: { label: "resources.contact-requests.done", set: { status: "done" }, when: { status: ["open"] } },
  },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    create: { subscriber: "own" },
    done: { agent: "all", admin: "all" },
  },
  ownership: { path: "createdBy" },
  subscriberPlace: "account",
  subscriberCard: {
    title: ["resources.contact-requests.card.title"],
    lines: [
      "resources.contact-requests.card.message",
      { text: "resources.contact-requests.card.openPhone", when: { status: ["open"], channel: ["phone"] } },
      { text: "resources.contact-requests.card.openEmail", when: { status: ["open"], channel: ["email"] } },
      { text: "resources.contact-requests.card.done", when: { status: ["done"] } },
    ],
  },
  source: "backend",
  audit: true,
  indexes: ["status"],
  messages: {
    en: {
      "resources.contact-requests.label": "Contact me",
      "resources.contact-requests.empty": "You have not asked us to contact you yet.",
      "resources.contact-requests.create": "Ask us to contact you",
      "resources.contact-requests.card.title": "{{topic}}",
      "resources.contact-requests.card.message": "“{{message}}”",
      "resources.contact-requests.card.openPhone": "Asked {{createdAt}}: we will call you.",
      "resources.contact-requests.card.openEmail": "Asked {{createdAt}}: we will email you.",
      "resources.contact-requests.card.done": "Asked {{createdAt}}: we have contacted you.",
      "resources.contact-requests.done": "Mark as done",
      "fields.contactTopic": "About",
      "fields.contactChannel": "Reach me by",
      "fields.contactMessage": "What can we help with?",
      "enums.topic.billing": "Billing",
      "enums.topic.plan": "My plan",
      "enums.topic.coverage": "Coverage",
      "enums.topic.device": "My device",
      "enums.topic.other": "Something else",
      "enums.channel.phone": "Phone call",
      "enums.channel.email": "Email",
      "enums.contactStatus.open": "Open",
      "enums.contactStatus.done": "Done",
    },
    es: {
      "resources.contact-requests.label": "Contáctame",
      "resources.contact-requests.empty": "Todavía no nos has pedido que te contactemos.",
      "resources.contact-requests.create": "Pide que te contactemos",
      "resources.contact-requests.card.title": "{{topic}}",
      "resources.contact-requests.card.message": "«{{message}}»",
      "resources.contact-requests.card.openPhone": "Pedido el {{createdAt}}: te llamaremos.",
      "resources.contact-requests.card.openEmail": "Pedido el {{createdAt}}: te escribiremos.",
      "resources.contact-requests.card.done": "Pedido el {{createdAt}}: ya te contactamos.",
      "resources.contact-requests.done": "Marcar como atendida",
      "fields.contactTopic": "Tema",
      "fields.contactChannel": "Contactarme por",
      "fields.contactMessage": "¿En qué podemos ayudarte?",
      "enums.topic.billing": "Facturación",
      "enums.topic.plan": "Mi plan",
      "enums.topic.coverage": "Cobertura",
      "enums.topic.device": "Mi equipo",
      "enums.topic.other": "Otra cosa",
      "enums.channel.phone": "Llamada",
      "enums.channel.email": "Correo electrónico",
      "enums.contactStatus.open": "Abierta",
      "enums.contactStatus.done": "Atendida",
    },
  },
});
