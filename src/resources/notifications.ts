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
  "line.sim_ordered",
  "line.added",
  "line.activated",
  "line.number_changed",
  "line.cancelled",
  "line.cancel_scheduled",
  "line.cancel_withdrawn",
  "order.cancelled",
  "port_in.submitted",
  "port_in.accepted",
  "port_in.rejected",
  "port_in.resubmitted",
  "usage.threshold",
  "usage.capped",
  "usage.pool_threshold",
  "plan.changed",
  "plan.change_scheduled",
  "plan.price_changed",
  "add_on.purchased",
  "add_on.renewed",
  "add_on.expired",
  "money.adjusted",
  "money.charged",
  "money.voucher_redeemed",
  "top_up.completed",
  "top_up.failed",
  "top_up.refund_claimed",
  "top_up.refunded",
  "auto_top_up.attempted",
  "auto_top_up.failed",
  "bill.issued",
  "bill.overdue",
  "bill.voided",
  "bill.paid",
  "bill.payment_failed",
  "bill.payment_received",
  "bill.payment_returned",
  "bill.payment_returned_credit_used",
  "line.suspended_non_payment",
  "line.restored_payment",
  "line.renewal_due_soon",
  "line.renewed",
  "line.grace_entered",
  "line.suspended_grace_ended",
  "ticket.replied",
  "ticket.pending",
  "ticket.resolved",
  "ticket.closed",
  "ticket.cancelled",
  "approval.decided",
  "account.alert",
  "care.verification_locked",
  "care.verification_override",
  // A declared resource's own notice (issue 29): its words are the declaration's message, in params.message.
  "resource.notice",
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
    "mark-read": {
      label: "resources.notifications.markRead",
      handler: "notifications.markRead",
      when: { read: [false] },
    },
  },
  access: {
    // Everyone has an inbox of their own, and only their own.
    list: { subscriber: "own", agent: "own", admin: "own" },
    show: { subscriber: "own", agent: "own", admin: "own" },
    "mark-read": { subscriber: "own", agent: "own", admin: "own" },
  },
  ownership: { path: "recipientUid" },
  subscriberPlace: "account",
  source: "backend",
  audit: false,
  menu: false,
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
      "notifications.kinds.line.sim_ordered":
        "A new SIM for {{msisdn}} was ordered {{by}}; it is posted to {{address}}.",
      "notifications.kinds.line.added": "Line {{msisdn}} was added on {{planName}} {{by}}.",
      "notifications.kinds.line.activated": "Line {{msisdn}} was activated {{by}}; its plan is charged from today.",
      "notifications.kinds.line.number_changed": "The number of line {{oldMsisdn}} was changed to {{msisdn}} {{by}}.",
      "notifications.kinds.line.cancelled": "Line {{msisdn}} was cancelled {{by}}.",
      "notifications.kinds.line.cancel_scheduled":
        "The cancellation of line {{msisdn}} was scheduled for {{date}} {{by}}.",
      "notifications.kinds.line.cancel_withdrawn":
        "Line {{msisdn}} will not be cancelled on {{date}} after all: the cancellation was withdrawn {{by}}.",
      "notifications.kinds.order.cancelled": "An order for {{msisdn}} was cancelled {{by}}.",
      "notifications.kinds.port_in.submitted":
        "We asked your old carrier to move {{msisdn}} to us. Until then your new line works as {{temporaryMsisdn}}.",
      "notifications.kinds.port_in.accepted": "{{msisdn}} has moved to us: your line now uses it.",
      "notifications.kinds.port_in.rejected":
        "Moving {{msisdn}} did not work. {{portInReason}} Correct the details and send it again from the order.",
      "notifications.kinds.port_in.resubmitted": "The transfer of {{msisdn}} was corrected and sent again {{by}}.",
      "notifications.kinds.plan.changed": "{{msisdn}} is now on {{planName}} {{by}}.",
      "notifications.kinds.add_on.purchased": "{{addOnName}} was added to {{msisdn}} {{by}}.",
      "notifications.kinds.add_on.renewed": "{{addOnName}} on {{msisdn}} was renewed.",
      "notifications.kinds.add_on.expired": "{{addOnName}} on {{msisdn}} has expired.",
      "notifications.kinds.plan.change_scheduled": "{{msisdn}} moves to {{planName}} on {{date}} {{by}}.",
      "notifications.kinds.usage.threshold":
        "You have used {{threshold}} % of the {{usageType}} allowance of {{msisdn}} this cycle.",
      "notifications.kinds.usage.capped": "Your {{usageType}} on {{msisdn}} stopped for this cycle: {{capReason}}",
      "notifications.kinds.usage.pool_threshold":
        "The lines sharing {{planName}} have used {{threshold}} % of their shared data this cycle.",
      "notifications.kinds.money.adjusted": "{{amount}} was credited to your balance {{by}}.",
      "notifications.kinds.money.charged": "{{amount}} was charged to your account {{by}}.",
      "notifications.kinds.money.voucher_redeemed": "A voucher added {{amount}} to your balance.",
      "notifications.kinds.top_up.completed": "Your card top-up of {{amount}} was added to your balance.",
      "notifications.kinds.top_up.failed": "Your card top-up of {{amount}} did not go through ({{failureReason}}).",
      "notifications.kinds.top_up.refund_claimed":
        "We received your claim for the {{amount}} top-up; a care agent will review it.",
      "notifications.kinds.top_up.refunded": "The {{amount}} of your card top-up was refunded to your balance {{by}}.",
      "notifications.kinds.auto_top_up.attempted":
        "Your balance fell to {{balance}}: we are topping it up by {{amount}} from your default card.",
      "notifications.kinds.auto_top_up.failed":
        "Your automatic top-up of {{amount}} did not go through ({{failureReason}}).",
      "notifications.kinds.bill.issued": "Your bill of {{total}} is ready; it is due on {{dueOn}}.",
      "notifications.kinds.bill.overdue": "Your bill of {{total}} is overdue. Pay it to keep your lines active.",
      "notifications.kinds.bill.voided": "Bill {{number}} of {{total}} was voided {{by}}: you no longer owe it.",
      "notifications.kinds.bill.paid": "Your bill {{number}} of {{total}} is paid. Thank you.",
      "notifications.kinds.bill.payment_failed":
        "The payment of your bill {{number}} of {{total}} with your card ending {{last4}} did not go through ({{failureReason}}).",
      "notifications.kinds.bill.payment_received":
        "We received {{paid}} for your bill {{number}}; {{left}} is left to pay.",
      "notifications.kinds.bill.payment_returned":
        "Your bank returned the payment of {{paid}} for bill {{number}} from the account ending {{last4}} ({{returnCode}}): the bill is open again. Pay it with another account or a card.",
      "notifications.kinds.bill.payment_returned_credit_used":
        "Your bank returned the payment of {{paid}} for bill {{number}} from the account ending {{last4}} ({{returnCode}}). The credit of {{owed}} it left had already come off bill {{creditBill}}, so {{owed}} is added to your next bill.",
      "notifications.kinds.line.suspended_non_payment":
        "Your line {{msisdn}} is suspended because bill {{number}} is unpaid. Pay it to restore the line.",
      "notifications.kinds.line.restored_payment": "Your line {{msisdn}} is active again: thank you for paying.",
      "notifications.kinds.line.renewal_due_soon":
        "{{planName}} on {{msisdn}} renews on {{date}} for {{amount}}, and your balance is {{balance}}: top up at least {{missing}} to keep your service.",
      "notifications.kinds.line.renewed":
        "{{planName}} on {{msisdn}} was renewed for {{amount}} from your balance; your allowances start again.",
      "notifications.kinds.line.grace_entered":
        "Your balance could not renew {{planName}} on {{msisdn}}: top up at least {{missing}} by {{date}} to keep your number. Until then only top-ups, emergency calls and incoming calls work.",
      "notifications.kinds.line.suspended_grace_ended":
        "{{msisdn}} is suspended: its plan was not renewed in the grace period. Top up at least {{missing}} to renew and restore it.",
      "notifications.kinds.ticket.replied": "Care answered your request “{{subject}}”.",
      "notifications.kinds.ticket.pending": "Your request “{{subject}}” is waiting for your answer.",
      "notifications.kinds.ticket.resolved": "Your request “{{subject}}” was resolved.",
      "notifications.kinds.ticket.closed": "Your request “{{subject}}” was closed {{by}}.",
      "notifications.kinds.ticket.cancelled": "Your request “{{subject}}” was cancelled {{by}}.",
      "notifications.kinds.plan.price_changed":
        "The price of {{planName}} changes to {{amount}} a month; {{msisdn}} pays it from {{date}}.",
      "notifications.kinds.approval.decided":
        "Your request ({{approvalKind}} of {{amount}} for {{accountName}}) was {{decision}} {{by}}: {{reason}}",
      "notifications.kinds.account.alert":
        "Security alert: {{what}} If it wasn't you, open this notice and press “This wasn't me”.",
      "notifications.kinds.care.verification_locked":
        "Someone calling customer care gave a wrong PIN or code 5 times, so verifying callers on your account is paused for {{minutes}} minutes. If it was not you, change your care PIN under Security.",
      "notifications.kinds.care.verification_override":
        "An administrator let a care agent help a caller on your account without your PIN or code: {{reason}}",
      "notifications.kinds.resource.notice": "A notice about a service you have",
      "notifications.decision.approved": "approved",
      "notifications.decision.rejected": "rejected",
      // Why a payment did not go through, as the gateway or the bank said it (a code people do not read).
      "notifications.failure.card_declined": "the bank declined the card",
      "notifications.failure.insufficient_funds": "not enough money on the card",
      "notifications.failure.expired_card": "the card has expired",
      "notifications.failure.R01": "not enough money in the account",
      "notifications.failure.R02": "the account is closed",
      "notifications.failure.R03": "no such account at the bank",
      "notifications.failure.other": "the payment was refused",
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
      "notifications.kinds.line.sim_ordered": "Se pidió una SIM nueva para {{msisdn}} {{by}}; se envía a {{address}}.",
      "notifications.kinds.line.added": "Se añadió la línea {{msisdn}} con {{planName}} {{by}}.",
      "notifications.kinds.line.activated": "Se activó la línea {{msisdn}} {{by}}; su plan se cobra desde hoy.",
      "notifications.kinds.line.number_changed": "Se cambió el número de la línea {{oldMsisdn}} a {{msisdn}} {{by}}.",
      "notifications.kinds.line.cancelled": "Se dio de baja la línea {{msisdn}} {{by}}.",
      "notifications.kinds.line.cancel_scheduled":
        "La baja de la línea {{msisdn}} se programó para el {{date}} {{by}}.",
      "notifications.kinds.line.cancel_withdrawn":
        "La línea {{msisdn}} ya no se dará de baja el {{date}}: la baja se retiró {{by}}.",
      "notifications.kinds.order.cancelled": "Se canceló un pedido de {{msisdn}} {{by}}.",
      "notifications.kinds.port_in.submitted":
        "Pedimos a tu compañía anterior que nos pase el {{msisdn}}. Mientras tanto tu línea nueva funciona como {{temporaryMsisdn}}.",
      "notifications.kinds.port_in.accepted": "El {{msisdn}} ya está con nosotros: tu línea lo usa ahora.",
      "notifications.kinds.port_in.rejected":
        "No se pudo traer el {{msisdn}}. {{portInReason}} Corrige los datos y envíala de nuevo desde el pedido.",
      "notifications.kinds.port_in.resubmitted":
        "La portabilidad del {{msisdn}} se corrigió y se envió de nuevo {{by}}.",
      "notifications.kinds.plan.changed": "{{msisdn}} tiene ahora el plan {{planName}} {{by}}.",
      "notifications.kinds.add_on.purchased": "Se añadió {{addOnName}} a {{msisdn}} {{by}}.",
      "notifications.kinds.add_on.renewed": "Se renovó {{addOnName}} en {{msisdn}}.",
      "notifications.kinds.add_on.expired": "{{addOnName}} en {{msisdn}} ha caducado.",
      "notifications.kinds.plan.change_scheduled": "{{msisdn}} pasará al plan {{planName}} el {{date}} {{by}}.",
      "notifications.kinds.usage.threshold":
        "Has usado el {{threshold}} % de tu saldo de {{usageType}} de {{msisdn}} en este ciclo.",
      "notifications.kinds.usage.capped": "Tus {{usageType}} en {{msisdn}} se detuvieron en este ciclo: {{capReason}}",
      "notifications.kinds.usage.pool_threshold":
        "Las líneas que comparten {{planName}} han usado el {{threshold}} % de sus datos compartidos en este ciclo.",
      "notifications.kinds.money.adjusted": "Se abonaron {{amount}} a tu saldo {{by}}.",
      "notifications.kinds.money.charged": "Se cargaron {{amount}} a tu cuenta {{by}}.",
      "notifications.kinds.money.voucher_redeemed": "Un cupón añadió {{amount}} a tu saldo.",
      "notifications.kinds.top_up.completed": "Tu recarga con tarjeta de {{amount}} se añadió a tu saldo.",
      "notifications.kinds.top_up.failed": "Tu recarga con tarjeta de {{amount}} no se completó ({{failureReason}}).",
      "notifications.kinds.top_up.refund_claimed":
        "Recibimos tu reclamación por la recarga de {{amount}}; un agente la revisará.",
      "notifications.kinds.top_up.refunded":
        "Los {{amount}} de tu recarga con tarjeta se reembolsaron a tu saldo {{by}}.",
      "notifications.kinds.auto_top_up.attempted":
        "Tu saldo bajó a {{balance}}: lo estamos recargando con {{amount}} de tu tarjeta predeterminada.",
      "notifications.kinds.auto_top_up.failed":
        "Tu recarga automática de {{amount}} no se completó ({{failureReason}}).",
      "notifications.kinds.bill.issued": "Tu factura de {{total}} está lista; vence el {{dueOn}}.",
      "notifications.kinds.bill.overdue":
        "Tu factura de {{total}} está vencida. Págala para mantener tus líneas activas.",
      "notifications.kinds.bill.voided": "La factura {{number}} de {{total}} se anuló {{by}}: ya no la debes.",
      "notifications.kinds.bill.paid": "Tu factura {{number}} de {{total}} está pagada. Gracias.",
      "notifications.kinds.bill.payment_failed":
        "El pago de tu factura {{number}} de {{total}} con la tarjeta terminada en {{last4}} no se completó ({{failureReason}}).",
      "notifications.kinds.bill.payment_received":
        "Recibimos {{paid}} para tu factura {{number}}; quedan {{left}} por pagar.",
      "notifications.kinds.bill.payment_returned":
        "Tu banco devolvió el pago de {{paid}} de la factura {{number}} desde la cuenta terminada en {{last4}} ({{returnCode}}): la factura vuelve a estar pendiente. Págala con otra cuenta o con una tarjeta.",
      "notifications.kinds.bill.payment_returned_credit_used":
        "Tu banco devolvió el pago de {{paid}} de la factura {{number}} desde la cuenta terminada en {{last4}} ({{returnCode}}). El saldo a favor de {{owed}} que dejó ya se descontó de la factura {{creditBill}}, así que {{owed}} se suma a tu próxima factura.",
      "notifications.kinds.line.suspended_non_payment":
        "Tu línea {{msisdn}} está suspendida porque la factura {{number}} no está pagada. Págala para reactivarla.",
      "notifications.kinds.line.restored_payment": "Tu línea {{msisdn}} vuelve a estar activa: gracias por tu pago.",
      "notifications.kinds.line.renewal_due_soon":
        "{{planName}} en {{msisdn}} se renueva el {{date}} por {{amount}} y tu saldo es {{balance}}: recarga al menos {{missing}} para mantener el servicio.",
      "notifications.kinds.line.renewed":
        "{{planName}} en {{msisdn}} se renovó por {{amount}} con tu saldo; tus saldos de datos, minutos y SMS empiezan de nuevo.",
      "notifications.kinds.line.grace_entered":
        "Tu saldo no alcanzó para renovar {{planName}} en {{msisdn}}: recarga al menos {{missing}} antes del {{date}} para conservar tu número. Hasta entonces solo funcionan las recargas, las llamadas de emergencia y las llamadas entrantes.",
      "notifications.kinds.line.suspended_grace_ended":
        "{{msisdn}} está suspendida: su plan no se renovó en el período de gracia. Recarga al menos {{missing}} para renovarlo y reactivarla.",
      "notifications.kinds.ticket.replied": "Atención al cliente respondió a tu solicitud «{{subject}}».",
      "notifications.kinds.ticket.pending": "Tu solicitud «{{subject}}» espera tu respuesta.",
      "notifications.kinds.ticket.resolved": "Tu solicitud «{{subject}}» se resolvió.",
      "notifications.kinds.ticket.closed": "Tu solicitud «{{subject}}» se cerró {{by}}.",
      "notifications.kinds.ticket.cancelled": "Tu solicitud «{{subject}}» se canceló {{by}}.",
      "notifications.kinds.plan.price_changed":
        "El precio de {{planName}} pasa a {{amount}} al mes; {{msisdn}} lo paga desde el {{date}}.",
      "notifications.kinds.approval.decided":
        "Tu solicitud ({{approvalKind}} de {{amount}} para {{accountName}}) fue {{decision}} {{by}}: {{reason}}",
      "notifications.kinds.account.alert":
        "Alerta de seguridad: {{what}} Si no fuiste tú, abre este aviso y pulsa «No fui yo».",
      "notifications.kinds.care.verification_locked":
        "Alguien que llamó a atención al cliente dio un PIN o código incorrecto 5 veces, así que la verificación de llamadas en tu cuenta queda en pausa {{minutes}} minutos. Si no fuiste tú, cambia tu PIN de atención en Seguridad.",
      "notifications.kinds.care.verification_override":
        "Un administrador permitió a un agente atender una llamada sobre tu cuenta sin tu PIN ni tu código: {{reason}}",
      "notifications.kinds.resource.notice": "Un aviso sobre un servicio que tienes",
      "notifications.decision.approved": "aprobada",
      "notifications.decision.rejected": "rechazada",
      "notifications.failure.card_declined": "el banco rechazó la tarjeta",
      "notifications.failure.insufficient_funds": "no hay dinero suficiente en la tarjeta",
      "notifications.failure.expired_card": "la tarjeta está caducada",
      "notifications.failure.R01": "no hay dinero suficiente en la cuenta",
      "notifications.failure.R02": "la cuenta está cerrada",
      "notifications.failure.R03": "el banco no tiene esa cuenta",
      "notifications.failure.other": "se rechazó el pago",
    },
  },
});
