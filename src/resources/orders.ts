import { z } from "zod";
import { defineResource, ROLES } from "./define";
import { idSchema, isoDateTime, reasonSchema } from "./common";

/** TMF622 product order states. */
export const ORDER_STATES = ["acknowledged", "in_progress", "completed", "failed", "cancelled"] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const ORDER_TYPES = [
  "change_plan",
  "add_on",
  "suspend",
  "restore",
  "sim_swap",
  "esim_transfer",
  "port_in",
  "new_line",
  /** A line given another number from the inventory (issue 28). */
  "change_number",
  /** A line cancelled, at once or at the end of its cycle (issue 28). */
  "terminate",
] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export const ORDER_EFFECTIVE = ["now", "next_cycle"] as const;

/** The order state machine: which state may follow which (final states have none). */
export const ORDER_TRANSITIONS: Record<OrderState, readonly OrderState[]> = {
  acknowledged: ["in_progress", "cancelled"],
  in_progress: ["completed", "failed"],
  completed: [],
  failed: [],
  cancelled: [],
};

export const canTransition = (from: OrderState, to: OrderState) => ORDER_TRANSITIONS[from].includes(to);

/** One change of an order's state: when, and by which role (never a name). */
export const orderStepSchema = z.object({
  state: z.enum(ORDER_STATES),
  at: isoDateTime,
  byRole: z.enum([...ROLES, "system"]),
  note: z.string().nullable(),
});
export type OrderStep = z.output<typeof orderStepSchema>;

/** A product order (TMF622): every change to a line is one, with the timeline of its states. */
export const orderSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  lineId: idSchema.nullable(),
  msisdn: z.string().nullable(),
  type: z.enum(ORDER_TYPES),
  state: z.enum(ORDER_STATES),
  effective: z.enum(ORDER_EFFECTIVE),
  /** When a next-cycle order is due to run; null for orders done now. */
  scheduledFor: isoDateTime.nullable(),
  /** What the order changes (type-specific: the reason of a suspension, the new plan, …). */
  details: z.record(z.string(), z.unknown()),
  /** The holder's ID document an eSIM transfer was made with (`details.idDocumentFileId`); null for every other order. */
  idDocumentFileId: idSchema.nullable(),
  timeline: z.array(orderStepSchema),
  requestedByRole: z.enum(ROLES),
  reason: reasonSchema.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Order = z.output<typeof orderSchema>;

export const ordersResource = defineResource({
  name: "orders",
  store: "table",
  label: "resources.orders.label",
  icon: "ShoppingCartOutlined",
  schema: orderSchema,
  recordTitle: "type",
  fields: {
    type: { label: "fields.orderType", kind: "enum", options: ORDER_TYPES, labels: "enums.orderType" },
    state: { label: "fields.orderState", kind: "enum", options: ORDER_STATES, labels: "enums.orderState" },
    msisdn: { label: "fields.msisdn", kind: "msisdn", reference: { resource: "lines", idField: "lineId" } },
    effective: { label: "fields.effective", kind: "enum", options: ORDER_EFFECTIVE, labels: "enums.effective" },
    scheduledFor: { label: "fields.scheduledFor", kind: "datetime" },
    requestedByRole: { label: "fields.requestedBy", kind: "enum", options: ROLES, labels: "roles" },
    reason: { label: "fields.reason", kind: "text" },
    timeline: { label: "fields.timeline", kind: "timeline" },
    // Downloaded from /files/{id}/content, which lets the line's holder and staff have it.
    idDocumentFileId: { label: "fields.orderIdDocument", kind: "reference", reference: { resource: "files" } },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    updatedAt: { label: "fields.updatedAt", kind: "datetime" },
  },
  list: {
    columns: ["type", "msisdn", "state", "requestedByRole", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "updatedAt", "state", "type"],
    filters: {
      state: ["eq", "in"],
      type: ["eq", "in"],
      lineId: ["eq"],
      accountId: ["eq"],
      createdAt: ["gte", "lte", "between"],
    },
  },
  show: [
    "type",
    "state",
    "msisdn",
    "effective",
    "scheduledFor",
    "requestedByRole",
    "reason",
    "idDocumentFileId",
    "createdAt",
    "timeline",
  ],
  actions: {
    cancel: {
      label: "resources.orders.cancel",
      handler: "orders.cancel",
      when: { state: ["acknowledged"] },
      reason: "staff",
      danger: true,
      confirm: "resources.orders.cancelConfirm",
    },
  },
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    cancel: { subscriber: "own", agent: "verified", admin: "all" },
  },
  ownership: { path: "account.ownerUid" },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.orders.label": "Orders",
      "resources.orders.cancel": "Cancel order",
      "resources.orders.cancelConfirm": "Cancel this order? Nothing of it will be carried out.",
      "fields.orderType": "Order",
      "fields.orderState": "State",
      "fields.effective": "Takes effect",
      "fields.scheduledFor": "Scheduled for",
      "fields.requestedBy": "Requested by",
      "fields.timeline": "Timeline",
      "fields.orderIdDocument": "ID document",
      "enums.orderType.change_plan": "Plan change",
      "enums.orderType.add_on": "Add-on",
      "enums.orderType.suspend": "Suspension",
      "enums.orderType.restore": "Restoration",
      "enums.orderType.sim_swap": "SIM swap",
      "enums.orderType.esim_transfer": "eSIM transfer",
      "enums.orderType.port_in": "Number transfer in",
      "enums.orderType.new_line": "New line",
      "enums.orderType.change_number": "Number change",
      "enums.orderType.terminate": "Line cancellation",
      "enums.orderState.acknowledged": "Received",
      "enums.orderState.in_progress": "In progress",
      "enums.orderState.completed": "Completed",
      "enums.orderState.failed": "Failed",
      "enums.orderState.cancelled": "Cancelled",
      "enums.effective.now": "Now",
      "enums.effective.next_cycle": "Next billing cycle",
    },
    es: {
      "resources.orders.label": "Pedidos",
      "resources.orders.cancel": "Cancelar pedido",
      "resources.orders.cancelConfirm": "¿Cancelar este pedido? No se llevará a cabo nada de él.",
      "fields.orderType": "Pedido",
      "fields.orderState": "Estado",
      "fields.effective": "Se aplica",
      "fields.scheduledFor": "Programado para",
      "fields.requestedBy": "Solicitado por",
      "fields.timeline": "Historial",
      "fields.orderIdDocument": "Documento de identidad",
      "enums.orderType.change_plan": "Cambio de plan",
      "enums.orderType.add_on": "Complemento",
      "enums.orderType.suspend": "Suspensión",
      "enums.orderType.restore": "Reactivación",
      "enums.orderType.sim_swap": "Cambio de SIM",
      "enums.orderType.esim_transfer": "Transferencia de eSIM",
      "enums.orderType.port_in": "Portabilidad entrante",
      "enums.orderType.new_line": "Línea nueva",
      "enums.orderType.change_number": "Cambio de número",
      "enums.orderType.terminate": "Baja de línea",
      "enums.orderState.acknowledged": "Recibido",
      "enums.orderState.in_progress": "En curso",
      "enums.orderState.completed": "Completado",
      "enums.orderState.failed": "Fallido",
      "enums.orderState.cancelled": "Cancelado",
      "enums.effective.now": "Ahora",
      "enums.effective.next_cycle": "Próximo ciclo de facturación",
    },
  },
});
