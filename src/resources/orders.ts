import { z } from "zod";
import { defineResource, ROLES } from "./define";
import { idSchema, isoDateTime, reasonSchema } from "./common";

/**
 * TMF622 product order states. `pending` (TMF622's "waiting for the customer"): a port-in the number
 * portability exchange rejected, until the subscriber corrects its details and resubmits it.
 */
export const ORDER_STATES = ["acknowledged", "in_progress", "pending", "completed", "failed", "cancelled"] as const;
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
  in_progress: ["completed", "failed", "pending"],
  pending: ["in_progress", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

/**
 * Why the number portability exchange refused a port-in (its reason codes); anything else it says is
 * `other`, with the exchange's own words kept on the order.
 */
export const PORT_IN_REJECTIONS = ["transfer_pin_mismatch", "zip_mismatch", "account_mismatch", "other"] as const;
export type PortInRejection = (typeof PORT_IN_REJECTIONS)[number];

/**
 * The details of a port-in the subscriber gives (and corrects after a rejection): the account at the
 * losing carrier, its transfer PIN (sealed at rest, never returned or logged) and the account's ZIP.
 */
export const portInCorrectionSchema = z.object({
  carrierAccount: z
    .string()
    .trim()
    .min(1, "validation.carrierAccount")
    .max(40, "validation.atMostChars")
    .regex(/^[A-Za-z0-9 -]+$/, "validation.carrierAccount"),
  transferPin: z.string().regex(/^\d{4,15}$/, "validation.transferPin"),
  zip: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "validation.portInZip"),
});

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
    // A port-in the exchange rejected: the subscriber (or care for them) corrects the details and sends it again.
    "resubmit-port-in": {
      label: "resources.orders.resubmitPortIn",
      about: "resources.orders.about.resubmitPortIn",
      handler: "orders.resubmitPortIn",
      when: { state: ["pending"], type: ["port_in"] },
      reason: "staff",
      input: portInCorrectionSchema,
      inputFields: {
        carrierAccount: { label: "fields.portInCarrierAccount", kind: "text", help: "help.portInCarrierAccount" },
        transferPin: { label: "fields.portInTransferPin", kind: "text", help: "help.portInTransferPin" },
        zip: { label: "fields.portInZip", kind: "text" },
      },
      done: "resources.orders.done.resubmitPortIn",
    },
  },
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    cancel: { subscriber: "own", agent: "verified", admin: "all" },
    "resubmit-port-in": { subscriber: "own", agent: "verified", admin: "all" },
  },
  // Issue 28: members see the orders of their lines (a SIM swap's), managers every order of the account.
  ownership: { path: "account.ownerUid", sharedWith: { manager: "all", member: ["list", "show"] } },
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
      "enums.orderState.pending": "Waiting for you",
      "enums.orderState.completed": "Completed",
      "enums.orderState.failed": "Failed",
      "enums.orderState.cancelled": "Cancelled",
      "enums.effective.now": "Now",
      "enums.effective.next_cycle": "Next billing cycle",
      "resources.orders.resubmitPortIn": "Correct and send again",
      "resources.orders.about.resubmitPortIn":
        "Fix the details of your number transfer and send it to your old carrier again.",
      "resources.orders.done.resubmitPortIn": "Sent again. We will let you know when your old carrier answers.",
      "fields.portInCarrierAccount": "Account number at your old carrier",
      "fields.portInTransferPin": "Transfer PIN",
      "fields.portInZip": "ZIP code of that account",
      "help.portInCarrierAccount": "It is on your old carrier's bill or in its app.",
      "help.portInTransferPin": "Ask your old carrier for a number transfer PIN.",
      "orders.portIn.submitted": "Sent to your old carrier.",
      "orders.portIn.resubmitted": "Corrected and sent to your old carrier again.",
      "orders.portIn.accepted": "Your old carrier released the number: it is now on this line.",
      "orders.portIn.rejected.transfer_pin_mismatch": "Your old carrier refused: the transfer PIN does not match.",
      "orders.portIn.rejected.zip_mismatch": "Your old carrier refused: the ZIP code does not match the account.",
      "orders.portIn.rejected.account_mismatch":
        "Your old carrier refused: the account number does not match this phone number.",
      "orders.portIn.rejected.other": "Your old carrier refused the transfer.",
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
      "enums.orderState.pending": "Esperando tus datos",
      "enums.orderState.completed": "Completado",
      "enums.orderState.failed": "Fallido",
      "enums.orderState.cancelled": "Cancelado",
      "enums.effective.now": "Ahora",
      "enums.effective.next_cycle": "Próximo ciclo de facturación",
      "resources.orders.resubmitPortIn": "Corregir y enviar de nuevo",
      "resources.orders.about.resubmitPortIn":
        "Corrige los datos de tu portabilidad y envíala otra vez a tu compañía anterior.",
      "resources.orders.done.resubmitPortIn": "Enviada de nuevo. Te avisaremos cuando responda tu compañía anterior.",
      "fields.portInCarrierAccount": "Número de cuenta en tu compañía anterior",
      "fields.portInTransferPin": "PIN de portabilidad",
      "fields.portInZip": "Código postal de esa cuenta",
      "help.portInCarrierAccount": "Aparece en la factura o en la app de tu compañía anterior.",
      "help.portInTransferPin": "Pide a tu compañía anterior un PIN de portabilidad.",
      "orders.portIn.submitted": "Enviada a tu compañía anterior.",
      "orders.portIn.resubmitted": "Corregida y enviada de nuevo a tu compañía anterior.",
      "orders.portIn.accepted": "Tu compañía anterior liberó el número: ya está en esta línea.",
      "orders.portIn.rejected.transfer_pin_mismatch":
        "Tu compañía anterior la rechazó: el PIN de portabilidad no coincide.",
      "orders.portIn.rejected.zip_mismatch":
        "Tu compañía anterior la rechazó: el código postal no coincide con la cuenta.",
      "orders.portIn.rejected.account_mismatch":
        "Tu compañía anterior la rechazó: el número de cuenta no corresponde a este número.",
      "orders.portIn.rejected.other": "Tu compañía anterior rechazó la portabilidad.",
    },
  },
});
