import { z } from "zod";
import { defineResource, ROLES } from "./define";
import { idSchema, isoDateTime } from "./common";

/** TMF621 trouble ticket states: acknowledged → in_progress → pending ⇄ in_progress → resolved → closed; cancelled. */
export const TICKET_STATUSES = ["acknowledged", "in_progress", "pending", "resolved", "closed", "cancelled"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** States in which the ticket still waits on care (its SLA clock runs). */
export const OPEN_TICKET_STATUSES = ["acknowledged", "in_progress", "pending"] as const;
/** `fraud`: someone else changed the account (a "This wasn't me" link opens one, urgent; issue 27). */
export const TICKET_CATEGORIES = ["billing", "network", "sim", "plan", "fraud", "other"] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_PRIORITIES = ["low", "medium", "high", "urgent"] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** The priority a new ticket starts with, by category (an agent may change it). */
export const DEFAULT_PRIORITY: Record<TicketCategory, TicketPriority> = {
  fraud: "urgent",
  network: "high",
  sim: "high",
  billing: "medium",
  plan: "low",
  other: "low",
};

/**
 * Hours within which a ticket of each priority should be resolved; an operator may set its own in
 * its settings (`ticketSlaHours`). The queue turns a ticket amber at 75 % of its time, red past it.
 */
export const DEFAULT_SLA_HOURS: Record<TicketPriority, number> = { urgent: 4, high: 8, medium: 24, low: 72 };
export const SLA_AMBER_SHARE = 0.75;

export type SlaState = "ok" | "amber" | "red" | "stopped";

/** Where a ticket stands against its SLA at `now` (the portal ticks this every minute). */
export function slaState(ticket: Pick<Ticket, "createdAt" | "slaDueAt">, now: number = Date.now()): SlaState {
  if (!ticket.slaDueAt) return "stopped";
  const start = Date.parse(ticket.createdAt);
  const due = Date.parse(ticket.slaDueAt);
  if (now >= due) return "red";
  return now >= start + (due - start) * SLA_AMBER_SHARE ? "amber" : "ok";
}

/** The most files one message may carry. */
export const MAX_TICKET_ATTACHMENTS = 5;

/** A file attached to a message: uploaded first (POST /api/v1/files), downloaded from /files/{id}/content. */
export const ticketAttachmentSchema = z.object({
  id: idSchema,
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().positive(),
});
export type TicketAttachment = z.output<typeof ticketAttachmentSchema>;

/**
 * Files the writer uploaded first and attaches to a message: their own uploads only, each once.
 * Optional: a message without files sends none.
 */
export const attachmentIdsSchema = z
  .array(idSchema)
  .max(MAX_TICKET_ATTACHMENTS, "validation.atMostFiles")
  .refine((ids) => new Set(ids).size === ids.length, "validation.sameFileTwice")
  // Optional rather than defaulted: a default would take every ticket read off the serializer's fast check.
  .optional();

export const ticketMessageSchema = z.object({
  id: idSchema,
  /** Who wrote it, by role: subscribers never see a staff member's name. */
  authorRole: z.enum(ROLES),
  body: z.string(),
  attachments: z.array(ticketAttachmentSchema),
  createdAt: isoDateTime,
});
export type TicketMessage = z.output<typeof ticketMessageSchema>;

const messageText = z.string().trim().min(2, "validation.atLeastChars").max(4000, "validation.atMostChars");

export const ticketSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  accountName: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  subject: z.string().trim().min(3, "validation.atLeastChars").max(120, "validation.atMostChars"),
  /** The opening message. */
  message: messageText,
  /** On create: ids of files uploaded first, attached to the opening message. On read: those files' ids. */
  attachmentIds: attachmentIdsSchema,
  /** The opening message's files, with name and size. */
  attachments: z.array(ticketAttachmentSchema),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(TICKET_PRIORITIES),
  /** Whether a care agent has taken it. */
  assigned: z.boolean(),
  /** When it should be resolved by; null once it is resolved, closed or cancelled. */
  slaDueAt: isoDateTime.nullable(),
  /** The conversation after the opening message, oldest first. */
  messages: z.array(ticketMessageSchema),
  /** When the last message (or the opening one) was written. */
  lastMessageAt: isoDateTime,
  createdByRole: z.enum(ROLES),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Ticket = z.output<typeof ticketSchema>;

const STAFF = { agent: "all", admin: "all" } as const;
const EVERYONE = { subscriber: "own", agent: "all", admin: "all" } as const;

/** Help requests: subscribers open and follow them; care works them from a queue by priority and age. */
export const ticketsResource = defineResource({
  name: "tickets",
  store: "table",
  label: "resources.tickets.label",
  icon: "CustomerServiceOutlined",
  schema: ticketSchema,
  recordTitle: "subject",
  createLabel: "resources.tickets.create",
  fields: {
    subject: { label: "fields.subject", kind: "text" },
    category: {
      label: "fields.ticketCategory",
      kind: "enum",
      options: TICKET_CATEGORIES,
      labels: "enums.ticketCategory",
    },
    message: { label: "fields.ticketMessage", kind: "longText", help: "resources.tickets.messageHelp" },
    attachmentIds: { label: "fields.attachments", kind: "files" },
    accountId: { label: "fields.account", kind: "reference", reference: { resource: "accounts" } },
    accountName: {
      label: "fields.accountName",
      kind: "text",
      reference: { resource: "accounts", idField: "accountId" },
    },
    status: { label: "fields.status", kind: "enum", options: TICKET_STATUSES, labels: "enums.ticketStatus" },
    priority: { label: "fields.priority", kind: "enum", options: TICKET_PRIORITIES, labels: "enums.ticketPriority" },
    assigned: { label: "fields.assigned", kind: "boolean" },
    slaDueAt: { label: "fields.slaDueAt", kind: "datetime" },
    lastMessageAt: { label: "fields.lastMessageAt", kind: "datetime" },
    createdByRole: { label: "fields.requestedBy", kind: "enum", options: ROLES, labels: "roles" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["subject", "accountName", "category", "priority", "status", "slaDueAt", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["priority", "createdAt", "lastMessageAt", "slaDueAt", "status"],
    filters: {
      status: ["eq", "in"],
      priority: ["eq", "in"],
      category: ["eq", "in"],
      accountId: ["eq"],
      assigned: ["eq"],
    },
    search: { placeholder: "resources.tickets.search", fields: ["subject"] },
  },
  show: ["subject", "accountName", "category", "priority", "status", "slaDueAt", "createdByRole", "createdAt"],
  form: { create: ["accountId", "category", "subject", "message", "attachmentIds"], edit: [] },
  actions: {
    reply: {
      label: "resources.tickets.actions.reply",
      handler: "tickets.reply",
      when: { status: ["acknowledged", "in_progress", "pending", "resolved"] },
      input: z.object({ message: messageText, attachmentIds: attachmentIdsSchema }),
      inputFields: {
        message: { label: "fields.ticketMessage", kind: "longText" },
        attachmentIds: { label: "fields.attachments", kind: "files" },
      },
    },
    take: {
      label: "resources.tickets.actions.take",
      handler: "tickets.take",
      when: { status: ["acknowledged", "pending"] },
    },
    pend: { label: "resources.tickets.actions.pend", handler: "tickets.pend", when: { status: ["in_progress"] } },
    resolve: {
      label: "resources.tickets.actions.resolve",
      handler: "tickets.resolve",
      when: { status: ["in_progress", "pending"] },
    },
    close: { label: "resources.tickets.actions.close", handler: "tickets.close", when: { status: ["resolved"] } },
    cancel: {
      label: "resources.tickets.actions.cancel",
      handler: "tickets.cancel",
      when: { status: ["acknowledged", "in_progress", "pending"] },
      reason: "staff",
      danger: true,
      confirm: "resources.tickets.confirm.cancel",
    },
    prioritize: {
      label: "resources.tickets.actions.prioritize",
      handler: "tickets.prioritize",
      when: { status: ["acknowledged", "in_progress", "pending"] },
      input: z.object({ priority: z.enum(TICKET_PRIORITIES) }),
      inputFields: {
        priority: {
          label: "fields.priority",
          kind: "enum",
          options: TICKET_PRIORITIES,
          labels: "enums.ticketPriority",
        },
      },
    },
  },
  access: {
    list: EVERYONE,
    show: EVERYONE,
    create: EVERYONE,
    reply: EVERYONE,
    take: STAFF,
    pend: STAFF,
    resolve: STAFF,
    close: EVERYONE,
    cancel: EVERYONE,
    prioritize: STAFF,
  },
  ownership: { path: "accountId → accounts.ownerUid", through: "accountId" },
  subscriberPlace: "account",
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.tickets.label": "Help requests",
      "resources.tickets.create": "Ask for help",
      "resources.tickets.search": "Search by subject",
      "resources.tickets.messageHelp": "Tell us what happened, when, and on which number.",
      "resources.tickets.actions.reply": "Reply",
      "resources.tickets.actions.take": "Take",
      "resources.tickets.actions.pend": "Wait for the customer",
      "resources.tickets.actions.resolve": "Resolve",
      "resources.tickets.actions.close": "Close",
      "resources.tickets.actions.cancel": "Cancel request",
      "resources.tickets.actions.prioritize": "Change priority",
      "resources.tickets.confirm.cancel": "Cancel “{{title}}”? Nobody will work on it any more.",
      "fields.subject": "Subject",
      "fields.ticketCategory": "Topic",
      "fields.ticketMessage": "Message",
      "fields.priority": "Priority",
      "fields.assigned": "Taken",
      "fields.slaDueAt": "Due by",
      "fields.lastMessageAt": "Last message",
      "fields.attachments": "Attachments",
      "enums.ticketCategory.billing": "Bills and payments",
      "enums.ticketCategory.network": "Coverage or service",
      "enums.ticketCategory.sim": "SIM or device",
      "enums.ticketCategory.fraud": "Someone else changed my account",
      "enums.ticketCategory.plan": "Plan and add-ons",
      "enums.ticketCategory.other": "Something else",
      "enums.ticketStatus.acknowledged": "Received",
      "enums.ticketStatus.in_progress": "In progress",
      "enums.ticketStatus.pending": "Waiting for you",
      "enums.ticketStatus.resolved": "Resolved",
      "enums.ticketStatus.closed": "Closed",
      "enums.ticketStatus.cancelled": "Cancelled",
      "enums.ticketPriority.low": "Low",
      "enums.ticketPriority.medium": "Medium",
      "enums.ticketPriority.high": "High",
      "enums.ticketPriority.urgent": "Urgent",
    },
    es: {
      "resources.tickets.label": "Solicitudes de ayuda",
      "resources.tickets.create": "Pedir ayuda",
      "resources.tickets.search": "Buscar por asunto",
      "resources.tickets.messageHelp": "Cuéntanos qué pasó, cuándo y en qué número.",
      "resources.tickets.actions.reply": "Responder",
      "resources.tickets.actions.take": "Tomar",
      "resources.tickets.actions.pend": "Esperar al cliente",
      "resources.tickets.actions.resolve": "Resolver",
      "resources.tickets.actions.close": "Cerrar",
      "resources.tickets.actions.cancel": "Cancelar solicitud",
      "resources.tickets.actions.prioritize": "Cambiar prioridad",
      "resources.tickets.confirm.cancel": "¿Cancelar «{{title}}»? Nadie seguirá trabajando en ella.",
      "fields.subject": "Asunto",
      "fields.ticketCategory": "Tema",
      "fields.ticketMessage": "Mensaje",
      "fields.priority": "Prioridad",
      "fields.assigned": "Tomada",
      "fields.slaDueAt": "Vence",
      "fields.lastMessageAt": "Último mensaje",
      "fields.attachments": "Adjuntos",
      "enums.ticketCategory.billing": "Facturas y pagos",
      "enums.ticketCategory.network": "Cobertura o servicio",
      "enums.ticketCategory.sim": "SIM o equipo",
      "enums.ticketCategory.fraud": "Otra persona cambió mi cuenta",
      "enums.ticketCategory.plan": "Plan y complementos",
      "enums.ticketCategory.other": "Otra cosa",
      "enums.ticketStatus.acknowledged": "Recibida",
      "enums.ticketStatus.in_progress": "En curso",
      "enums.ticketStatus.pending": "Esperando tu respuesta",
      "enums.ticketStatus.resolved": "Resuelta",
      "enums.ticketStatus.closed": "Cerrada",
      "enums.ticketStatus.cancelled": "Cancelada",
      "enums.ticketPriority.low": "Baja",
      "enums.ticketPriority.medium": "Media",
      "enums.ticketPriority.high": "Alta",
      "enums.ticketPriority.urgent": "Urgente",
    },
  },
});
