import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";

/**
 * What a notification says, by kind: the text is `notifications.kinds.<kind>` in the reader's
 * language, filled from `params` (the portal turns `byRole` into "by you" / "by a care agent" and
 * enum values into their labels).
 */
export const NOTIFICATION_KINDS = [
  "line.suspended",
  "line.restored",
  "line.number_locked",
  "line.number_unlocked",
  "line.port_out_pin",
  "line.puk_revealed",
  "line.sim_swapped",
  "order.cancelled",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** An in-app notice for one person (the inbox). Written by domain actions; read and marked read by its recipient. */
export const notificationSchema = z.object({
  id: idSchema,
  kind: z.enum(NOTIFICATION_KINDS),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** A portal path the notice is about (the line page), or null. */
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Notification = z.output<typeof notificationSchema>;

export const notificationsResource = defineResource({
  name: "notifications",
  store: "table",
  label: "resources.notifications.label",
  icon: "BellOutlined",
  schema: notificationSchema,
  recordTitle: "kind",
  fields: {
    kind: { label: "fields.notification", kind: "enum", options: NOTIFICATION_KINDS, labels: "notifications.kinds" },
    read: { label: "fields.read", kind: "boolean" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["kind", "createdAt", "read"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt"],
    filters: { read: ["eq"], kind: ["eq", "in", "startswith"] },
  },
  show: ["kind", "createdAt", "read"],
  actions: {
    "mark-read": { label: "resources.notifications.markRead", handler: "notifications.markRead", when: { read: [false] } },
  },
  access: {
    // Everyone has an inbox of their own, and only their own.
    list: { subscriber: "own", agent: "own", admin: "own" },
    show: { subscriber: "own", agent: "own", admin: "own" },
    "mark-read": { subscriber: "own", agent: "own", admin: "own" },
  },
  ownership: { path: "recipientUid" },
  source: "backend",
  audit: false,
  menu: false,
  views: { list: () => import("../pages/notifications/NotificationsPage") },
  messages: {
    en: {
      "resources.notifications.label": "Notifications",
      "resources.notifications.markRead": "Mark as read",
      "resources.notifications.markAllRead": "Mark all as read",
      "resources.notifications.empty": "Nothing new.",
      "resources.notifications.unread": "{{count}} unread",
      "fields.notification": "Notice",
      "fields.read": "Read",
      "notifications.by.subscriber": "by you",
      "notifications.by.agent": "by a care agent",
      "notifications.by.admin": "by an administrator",
      "notifications.by.system": "automatically",
      "notifications.kinds.line.suspended": "Line {{msisdn}} was suspended ({{suspendReason}}) {{by}}.",
      "notifications.kinds.line.restored": "Line {{msisdn}} was restored {{by}}.",
      "notifications.kinds.line.number_locked": "Number {{msisdn}} was locked against transfers {{by}}.",
      "notifications.kinds.line.number_unlocked": "Number {{msisdn}} was unlocked for transfers {{by}}.",
      "notifications.kinds.line.port_out_pin": "A number transfer PIN for {{msisdn}} was issued {{by}}.",
      "notifications.kinds.line.puk_revealed": "The PUK of {{msisdn}} was shown {{by}}.",
      "notifications.kinds.line.sim_swapped": "The SIM of {{msisdn}} was replaced {{by}}.",
      "notifications.kinds.order.cancelled": "An order for {{msisdn}} was cancelled {{by}}.",
    },
    es: {
      "resources.notifications.label": "Avisos",
      "resources.notifications.markRead": "Marcar como leído",
      "resources.notifications.markAllRead": "Marcar todo como leído",
      "resources.notifications.empty": "No hay nada nuevo.",
      "resources.notifications.unread": "{{count}} sin leer",
      "fields.notification": "Aviso",
      "fields.read": "Leído",
      "notifications.by.subscriber": "por ti",
      "notifications.by.agent": "por un agente de atención",
      "notifications.by.admin": "por un administrador",
      "notifications.by.system": "automáticamente",
      "notifications.kinds.line.suspended": "La línea {{msisdn}} se suspendió ({{suspendReason}}) {{by}}.",
      "notifications.kinds.line.restored": "La línea {{msisdn}} se reactivó {{by}}.",
      "notifications.kinds.line.number_locked": "El número {{msisdn}} se bloqueó para portabilidad {{by}}.",
      "notifications.kinds.line.number_unlocked": "El número {{msisdn}} se desbloqueó para portabilidad {{by}}.",
      "notifications.kinds.line.port_out_pin": "Se emitió un PIN de portabilidad para {{msisdn}} {{by}}.",
      "notifications.kinds.line.puk_revealed": "Se mostró el PUK de {{msisdn}} {{by}}.",
      "notifications.kinds.line.sim_swapped": "Se cambió la SIM de {{msisdn}} {{by}}.",
      "notifications.kinds.order.cancelled": "Se canceló un pedido de {{msisdn}} {{by}}.",
    },
  },
});
