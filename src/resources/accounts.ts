import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, moneySchema } from "./common";
import { voucherCodeSchema } from "./voucherBatches";
import { PLAN_KINDS } from "./plans";
import { approvalSchema } from "./approvals";
import { MEMBER_ROLES, inviteMemberInputSchema, removeMemberInputSchema } from "./accountMembers";
import { SIM_TYPES } from "./lines";
import { usMsisdnSchema } from "./numberInventory";
import { addressSchema } from "./profile";
import { portInCorrectionSchema } from "./orders";
import { ADD_LINE_LABEL, ADD_LINE_WHEN } from "./addLineOffer";

/** A number brought from another carrier (issue 28): the exchange checks the account, PIN and ZIP with that carrier. */
export const portInSchema = portInCorrectionSchema.extend({ msisdn: usMsisdnSchema }).strict();

/**
 * accounts/{id}/actions/add-line (issue 28): a plan, a number (one picked from the inventory, or one
 * brought from another carrier) and a SIM (an eSIM, active at once; or a physical SIM posted to an
 * address, pending until activated). Errors land at their nested field (`number.portIn.msisdn`).
 */
export const addLineInputSchema = z.object({
  planId: idSchema,
  number: z
    .object({ msisdn: usMsisdnSchema.optional(), portIn: portInSchema.optional() })
    .strict()
    .superRefine((value, ctx) => {
      if (!value.msisdn && !value.portIn)
        ctx.addIssue({ code: "custom", path: ["msisdn"], message: "validation.numberRequired" });
      if (value.msisdn && value.portIn)
        ctx.addIssue({ code: "custom", path: ["portIn"], message: "validation.numberOrPortIn" });
    }),
  sim: z
    .object({
      simType: z.enum(SIM_TYPES, "esim or physical"),
      address: addressSchema.partial({ line2: true }).optional(),
    })
    .strict()
    .superRefine((value, ctx) => {
      if (value.simType === "physical" && !value.address)
        ctx.addIssue({ code: "custom", path: ["address"], message: "validation.addressRequired" });
      if (value.simType === "esim" && value.address)
        ctx.addIssue({ code: "custom", path: ["address"], message: "validation.addressNotForEsim" });
    }),
});

/** How a new line gets its number, as add-line's form asks it (form-only: the input says it by `number`'s shape). */
export const NUMBER_CHOICES = ["new", "port"] as const;

export const ACCOUNT_STATUSES = ["active", "suspended", "closed"] as const;

/**
 * The most one staff member may credit, or charge, by hand on one account in a rolling 24 hours (credits
 * and charges counted apart), in the operator currency's minor units; past it, the next one waits for approval.
 */
export const ADJUSTMENT_LIMITS = { agent: 5_000, admin: 100_000 } as const;

/** A positive amount of money typed by staff or set for auto top-up; at most 100,000.00, within the integer columns that store it. */
const positiveMoney = moneySchema.extend({
  amount: z
    .number()
    .int("validation.wholeCents")
    .positive("validation.moreThanZero")
    .max(10_000_000, "validation.atMostMoney"),
});

/** How many automatic top-ups a month an account may have at most. */
export const AUTO_TOP_UP_MAX_PER_MONTH = 31;

/**
 * The auto top-up setting of a prepaid account (issue 9 item 5): when a charge leaves the balance
 * below `threshold`, `amount` is topped up from the holder's default card, at most `maxPerMonth`
 * times a calendar month of the operator's time zone.
 */
export const autoTopUpSettingSchema = z.object({
  enabled: z.boolean("true or false"),
  threshold: positiveMoney,
  amount: positiveMoney,
  maxPerMonth: z
    .number("a whole number")
    .int("a whole number")
    .min(1, "validation.atLeast")
    .max(AUTO_TOP_UP_MAX_PER_MONTH, "validation.atMost"),
});
export type AutoTopUpSetting = z.output<typeof autoTopUpSettingSchema>;

/** A customer account (TM Forum Customer/BillingAccount): the holder of lines, balance and bills. */
export const accountSchema = z.object({
  id: idSchema,
  /** The holder's uid (null for an account without one): a staff form offers only the holder's saved cards by it. */
  ownerUid: z.string().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  type: z.enum(PLAN_KINDS),
  status: z.enum(ACCOUNT_STATUSES),
  /** How many lines the account holds (not terminated). */
  lineCount: z.number().int().nonnegative(),
  /** Prepaid: what is left to spend (the sum of the ledger); null on postpaid accounts. */
  balance: moneySchema.nullable(),
  /** Postpaid: the total of the bills still open; null on prepaid accounts. */
  amountDue: moneySchema.nullable(),
  /** Prepaid: the auto top-up setting, null until one is set. */
  autoTopUp: z
    .object({ enabled: z.boolean(), threshold: moneySchema, amount: moneySchema, maxPerMonth: z.number().int() })
    .nullable(),
  /** Postpaid autopay: the saved card new bills are paid with on issue; null when autopay is off. */
  autopayPaymentMethodId: idSchema.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Account = z.output<typeof accountSchema>;

export const accountsResource = defineResource({
  name: "accounts",
  store: "table",
  label: "resources.accounts.label",
  icon: "IdcardOutlined",
  schema: accountSchema,
  recordTitle: "name",
  recordSubtitle: "type",
  fields: {
    name: { label: "fields.accountName", kind: "text" },
    email: { label: "fields.email", kind: "text" },
    phone: { label: "fields.contactPhone", kind: "msisdn" },
    type: { label: "fields.accountType", kind: "enum", options: PLAN_KINDS, labels: "enums.accountType" },
    status: { label: "fields.status", kind: "enum", options: ACCOUNT_STATUSES },
    lineCount: { label: "fields.lineCount", kind: "number" },
    balance: { label: "fields.balance", kind: "money" },
    amountDue: { label: "fields.amountDue", kind: "money" },
    autopayPaymentMethodId: {
      label: "fields.autopayCard",
      kind: "reference",
      reference: { resource: "payment-methods" },
    },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["name", "type", "lineCount", "status", "createdAt"],
    defaultSort: [{ field: "name", order: "asc" }],
    sortable: ["name", "createdAt", "status"],
    filters: { type: ["eq"], status: ["eq", "in"] },
    search: { placeholder: "resources.accounts.search", fields: ["name", "email"] },
  },
  show: [
    "name",
    "type",
    "status",
    "balance",
    "amountDue",
    "autopayPaymentMethodId",
    "email",
    "phone",
    "lineCount",
    "createdAt",
  ],
  actions: {
    // People on the account (issue 28), served by server/domain/accountMembers/routes.ts: they answer
    // the invitation link and the people left, not the account. The portal's "People on this account" draws them.
    "invite-member": {
      label: "resources.accounts.actions.inviteMember",
      servedBy: "module",
      when: { status: ["active", "suspended"] },
      input: inviteMemberInputSchema,
      inputFields: {
        email: { label: "fields.memberEmail", kind: "text" },
        role: { label: "fields.memberRole", kind: "enum", options: MEMBER_ROLES, labels: "enums.memberRole" },
      },
      reason: "staff",
    },
    "remove-member": {
      label: "resources.accounts.actions.removeMember",
      servedBy: "module",
      input: removeMemberInputSchema,
      reason: "staff",
      danger: true,
    },
    "set-autopay": {
      label: "resources.accounts.actions.setAutopay",
      handler: "accounts.setAutopay",
      when: { type: ["postpaid"], status: ["active", "suspended"] },
      input: z.object({ enabled: z.boolean("on or off"), paymentMethodId: idSchema.optional() }),
      inputFields: {
        enabled: { label: "fields.autopayEnabled", kind: "boolean" },
        // Only the holder's cards: staff acting for a subscriber must not be offered another's.
        paymentMethodId: {
          label: "fields.autopayCard",
          kind: "reference",
          reference: { resource: "payment-methods", matching: { ownerUid: "ownerUid" } },
          help: "resources.accounts.autopayHelp",
        },
      },
      reason: "staff",
    },
    "redeem-voucher": {
      label: "resources.accounts.actions.redeemVoucher",
      handler: "accounts.redeemVoucher",
      when: { type: ["prepaid"], status: ["active", "suspended"] },
      input: z.object({ code: voucherCodeSchema }),
      inputFields: { code: { label: "fields.voucherCode", kind: "text", help: "resources.accounts.voucherHelp" } },
      reason: "staff",
      done: "resources.accounts.done.redeemVoucher",
    },
    adjust: {
      label: "resources.accounts.actions.adjust",
      handler: "accounts.adjust",
      when: { status: ["active", "suspended"] },
      input: z.object({ amount: positiveMoney }),
      inputFields: { amount: { label: "fields.amount", kind: "money", help: "resources.accounts.adjustHelp" } },
      // Above the caller's bound: 202 with a request an admin must approve (two-person rule).
      accepted: approvalSchema,
      reason: true,
      confirm: "resources.accounts.confirm.adjust",
    },
    refund: {
      label: "resources.accounts.actions.refund",
      handler: "accounts.refund",
      when: { status: ["active", "suspended"] },
      input: z.object({ amount: positiveMoney }),
      inputFields: { amount: { label: "fields.amount", kind: "money", help: "resources.accounts.adjustHelp" } },
      accepted: approvalSchema,
      reason: true,
      confirm: "resources.accounts.confirm.refund",
    },
    "set-auto-top-up": {
      label: "resources.accounts.actions.setAutoTopUp",
      handler: "accounts.setAutoTopUp",
      when: { type: ["prepaid"], status: ["active", "suspended"] },
      input: autoTopUpSettingSchema,
      inputFields: {
        enabled: { label: "fields.autoTopUpEnabled", kind: "boolean" },
        threshold: {
          label: "fields.autoTopUpThreshold",
          kind: "money",
          help: "resources.accounts.autoTopUpThresholdHelp",
        },
        amount: { label: "fields.autoTopUpAmount", kind: "money" },
        maxPerMonth: { label: "fields.autoTopUpMaxPerMonth", kind: "number" },
      },
      reason: "staff",
    },
    "add-line": {
      label: ADD_LINE_LABEL,
      about: "resources.accounts.about.addLine",
      handler: "accounts.addLine",
      when: ADD_LINE_WHEN,
      input: addLineInputSchema,
      inputFields: {
        planId: {
          label: "fields.plan",
          kind: "reference",
          reference: { resource: "plans", matching: { kind: "type" }, where: { status: "active" } },
        },
        // One way at a time: the form asks which (never sent), then shows only that way's fields.
        numberChoice: {
          label: "fields.numberChoice",
          kind: "choice",
          options: NUMBER_CHOICES,
          labels: "enums.numberChoice",
          formOnly: true,
        },
        // Picked from the free numbers near the account's lines, and held for the person while they finish.
        "number.msisdn": {
          label: "fields.newLineMsisdn",
          kind: "freeNumber",
          nearNumber: { resource: "lines", matching: { accountId: "id" }, field: "msisdn" },
          onlyWhen: { numberChoice: ["new"] },
        },
        "number.portIn.msisdn": {
          label: "fields.portInMsisdn",
          kind: "msisdn",
          help: "resources.accounts.portInMsisdnHelp",
          onlyWhen: { numberChoice: ["port"] },
        },
        "number.portIn.carrierAccount": {
          label: "fields.carrierAccount",
          kind: "text",
          onlyWhen: { numberChoice: ["port"] },
        },
        "number.portIn.transferPin": {
          label: "fields.transferPin",
          kind: "text",
          onlyWhen: { numberChoice: ["port"] },
        },
        "number.portIn.zip": { label: "fields.portInZip", kind: "text", onlyWhen: { numberChoice: ["port"] } },
        "sim.simType": { label: "fields.simType", kind: "enum", options: SIM_TYPES, labels: "enums.simType" },
        "sim.address": { label: "fields.deliveryAddress", kind: "address", onlyWhen: { "sim.simType": ["physical"] } },
      },
      preview: true,
      reason: "staff",
      confirm: "resources.accounts.confirm.addLine",
      result: {
        schema: z.object({
          lineId: idSchema,
          msisdn: z.string(),
          status: z.enum(["active", "pending"]),
          simType: z.enum(SIM_TYPES),
          activationCode: z.string().nullable(),
          firstCharge: moneySchema.nullable(),
        }),
        fields: {
          msisdn: { label: "fields.msisdn", kind: "msisdn" },
          status: { label: "fields.status", kind: "enum", options: ["active", "pending"] },
          simType: { label: "fields.simType", kind: "enum", options: SIM_TYPES },
          activationCode: { label: "fields.activationCode", kind: "qrCode" },
          firstCharge: { label: "fields.firstCharge", kind: "money" },
        },
        // An eSIM's activation code is issued for this one download.
        once: true,
      },
    },
    charge: {
      label: "resources.accounts.actions.charge",
      handler: "accounts.charge",
      when: { status: ["active", "suspended"] },
      input: z.object({ amount: positiveMoney }),
      inputFields: { amount: { label: "fields.amount", kind: "money", help: "resources.accounts.adjustHelp" } },
      accepted: approvalSchema,
      reason: true,
      danger: true,
      confirm: "resources.accounts.confirm.charge",
    },
  },
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    // The holder alone decides who is on the account (managers may not: issue 28); staff for them.
    "invite-member": { subscriber: "own", agent: "verified", admin: "all" },
    "remove-member": { subscriber: "own", agent: "verified", admin: "all" },
    "redeem-voucher": { subscriber: "own", agent: "verified", admin: "all" },
    // The holder sets it; staff may for them, with a reason.
    "set-auto-top-up": { subscriber: "own", agent: "verified", admin: "all" },
    "set-autopay": { subscriber: "own", agent: "verified", admin: "all" },
    // Money by hand: staff only, always with a reason; above the role's bound (ADJUSTMENT_LIMITS) it waits for an admin's approval.
    adjust: { agent: "verified", admin: "all" },
    refund: { agent: "verified", admin: "all" },
    charge: { agent: "verified", admin: "all" },
    // The holder adds lines; care for them with a reason, once the caller is verified.
    "add-line": { subscriber: "own", agent: "verified", admin: "all" },
  },
  // Issue 28: managers open the account and redeem vouchers; what takes the holder's cards (autopay,
  // auto top-up) and who is on the account stay the holder's. Members never open the account.
  ownership: { path: "ownerUid", sharedWith: { manager: ["list", "show", "redeem-voucher"] } },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.accounts.label": "Accounts",
      "resources.accounts.search": "Search by name or email",
      "fields.accountName": "Account holder",
      "fields.contactPhone": "Contact phone",
      "fields.lineCount": "Lines",
      "fields.balance": "Balance",
      "resources.accounts.actions.redeemVoucher": "Redeem a voucher",
      "resources.accounts.actions.setAutopay": "Autopay",
      "resources.accounts.actions.inviteMember": "Invite a person",
      "resources.accounts.actions.removeMember": "Remove a person",
      "fields.memberEmail": "Their email",
      "fields.memberRole": "What they can do",
      "enums.memberRole.member": "Member: only their lines",
      "enums.memberRole.manager": "Manager: everything but payment methods",
      "resources.accounts.autopayHelp":
        "New bills are paid with this card when they are issued; without one, your default card.",
      "fields.autopayEnabled": "Pay my bills automatically",
      "fields.autopayCard": "Autopay card",
      "fields.voucherCode": "Voucher code",
      "resources.accounts.voucherHelp": "The 16 letters and digits on the voucher; dashes are optional.",
      "resources.accounts.done.redeemVoucher": "{{balance.change}} added. Your balance is {{balance}}.",
      "resources.accounts.actions.adjust": "Credit",
      "resources.accounts.actions.charge": "Charge",
      "resources.accounts.actions.refund": "Refund",
      "resources.accounts.confirm.refund":
        "Refund this amount to {{title}}? It is credited in the account's ledger with your reason.",
      "resources.accounts.adjustHelp":
        "Agents up to $50.00 per account in 24 hours, administrators up to $1,000.00 (credits and charges counted apart); more waits for another administrator's approval.",
      "resources.accounts.confirm.adjust":
        "Credit this amount to {{title}}? It is recorded in the account's ledger with your reason.",
      "resources.accounts.confirm.charge": "Charge this amount to {{title}}? A prepaid balance must cover it.",
      "fields.amountDue": "Amount due",
      "resources.accounts.actions.setAutoTopUp": "Auto top-up",
      "fields.autoTopUpEnabled": "Top up automatically",
      "fields.autoTopUpThreshold": "When the balance falls below",
      "resources.accounts.autoTopUpThresholdHelp":
        "Checked after every charge; the top-up comes from your default card.",
      "fields.autoTopUpAmount": "Top up by",
      "fields.autoTopUpMaxPerMonth": "At most this many times a month",
      "enums.status.closed": "Closed",
      "resources.accounts.about.addLine":
        "Add a phone line to this account, with a new number or one you bring, on an eSIM or a SIM card by post.",
      "resources.accounts.confirm.addLine":
        "Add a line to {{title}}? You will see the first charge before anything is added.",
      "fields.numberChoice": "Your number",
      "enums.numberChoice.new": "A new number",
      "enums.numberChoice.port": "Bring my number from another carrier",
      "fields.newLineMsisdn": "New number",
      "resources.accounts.portInMsisdnHelp": "With the area code, such as +12025550188.",
      "fields.portInMsisdn": "Number to bring from your carrier",
      "fields.carrierAccount": "Account number at your carrier",
      "fields.transferPin": "Transfer PIN from your carrier",
      "fields.portInZip": "ZIP code on that account",
      "fields.firstCharge": "First charge",
      "resources.accounts.preview.addLine": "A new line with {{msisdn}} on {{plan}}.",
      "resources.accounts.preview.addLinePortIn": "A new line on {{plan}}; {{msisdn}} moves to it from your carrier.",
      "resources.accounts.preview.firstCharge": "{{plan}} for the {{days}} days left in this cycle (of {{cycleDays}})",
      "resources.accounts.preview.noDeposit": "Deposit: none",
      "resources.accounts.preview.monthlyFrom": "Then every month, from {{date}}",
      "resources.accounts.preview.esimAtOnce": "The eSIM works at once: scan the QR code shown next with the phone.",
      "resources.accounts.preview.physicalPending":
        "The SIM card is posted to you; the line starts, and is charged, when you activate it.",
      "resources.accounts.preview.temporaryNumber":
        "Until the transfer is done, the line works on a temporary number of ours.",
      "resources.accounts.preview.onNextBill": "The charge is on your next bill.",
    },
    es: {
      "resources.accounts.label": "Cuentas",
      "resources.accounts.search": "Buscar por nombre o correo",
      "fields.accountName": "Titular de la cuenta",
      "fields.contactPhone": "Teléfono de contacto",
      "fields.lineCount": "Líneas",
      "fields.balance": "Saldo",
      "resources.accounts.actions.redeemVoucher": "Canjear un cupón",
      "resources.accounts.actions.setAutopay": "Pago automático",
      "resources.accounts.actions.inviteMember": "Invitar a una persona",
      "resources.accounts.actions.removeMember": "Quitar a una persona",
      "fields.memberEmail": "Su correo electrónico",
      "fields.memberRole": "Qué puede hacer",
      "enums.memberRole.member": "Miembro: solo sus líneas",
      "enums.memberRole.manager": "Administrador: todo menos los métodos de pago",
      "resources.accounts.autopayHelp":
        "Las facturas nuevas se pagan con esta tarjeta al emitirse; si no eliges ninguna, con tu tarjeta predeterminada.",
      "fields.autopayEnabled": "Pagar mis facturas automáticamente",
      "fields.autopayCard": "Tarjeta del pago automático",
      "fields.voucherCode": "Código del cupón",
      "resources.accounts.voucherHelp": "Las 16 letras y cifras del cupón; los guiones son opcionales.",
      "resources.accounts.done.redeemVoucher": "Se añadieron {{balance.change}}. Tu saldo es {{balance}}.",
      "resources.accounts.actions.adjust": "Abonar",
      "resources.accounts.actions.charge": "Cargar",
      "resources.accounts.actions.refund": "Reembolsar",
      "resources.accounts.confirm.refund":
        "¿Reembolsar este importe a {{title}}? Se abona en el historial de la cuenta con tu motivo.",
      "resources.accounts.adjustHelp":
        "Agentes hasta 50,00 US$ por cuenta en 24 horas, administradores hasta 1000,00 US$ (abonos y cargos por separado); más espera la aprobación de otro administrador.",
      "resources.accounts.confirm.adjust":
        "¿Abonar este importe a {{title}}? Queda en el historial de la cuenta con tu motivo.",
      "resources.accounts.confirm.charge": "¿Cargar este importe a {{title}}? Un saldo prepago debe cubrirlo.",
      "fields.amountDue": "Importe pendiente",
      "resources.accounts.actions.setAutoTopUp": "Recarga automática",
      "fields.autoTopUpEnabled": "Recargar automáticamente",
      "fields.autoTopUpThreshold": "Cuando el saldo baje de",
      "resources.accounts.autoTopUpThresholdHelp":
        "Se comprueba después de cada cargo; la recarga se hace con tu tarjeta predeterminada.",
      "fields.autoTopUpAmount": "Recargar con",
      "fields.autoTopUpMaxPerMonth": "Como máximo estas veces al mes",
      "enums.status.closed": "Cerrada",
      "resources.accounts.about.addLine":
        "Añade una línea a esta cuenta, con un número nuevo o el tuyo de otra compañía, en una eSIM o en una tarjeta SIM por correo.",
      "resources.accounts.confirm.addLine":
        "¿Añadir una línea a {{title}}? Verás el primer cargo antes de que se añada nada.",
      "fields.numberChoice": "Tu número",
      "enums.numberChoice.new": "Un número nuevo",
      "enums.numberChoice.port": "Traer mi número de otra compañía",
      "fields.newLineMsisdn": "Número nuevo",
      "resources.accounts.portInMsisdnHelp": "Con el código de área, como +12025550188.",
      "fields.portInMsisdn": "Número que traes de tu compañía",
      "fields.carrierAccount": "Número de cuenta en tu compañía",
      "fields.transferPin": "PIN de portabilidad de tu compañía",
      "fields.portInZip": "Código postal de esa cuenta",
      "fields.firstCharge": "Primer cargo",
      "resources.accounts.preview.addLine": "Una línea nueva con {{msisdn}} en {{plan}}.",
      "resources.accounts.preview.addLinePortIn":
        "Una línea nueva en {{plan}}; {{msisdn}} pasa a ella desde tu compañía.",
      "resources.accounts.preview.firstCharge":
        "{{plan}} por los {{days}} días que quedan de este ciclo (de {{cycleDays}})",
      "resources.accounts.preview.noDeposit": "Depósito: ninguno",
      "resources.accounts.preview.monthlyFrom": "Después, cada mes, desde el {{date}}",
      "resources.accounts.preview.esimAtOnce":
        "La eSIM funciona al momento: escanea con el teléfono el código QR que verás a continuación.",
      "resources.accounts.preview.physicalPending":
        "Te enviamos la tarjeta SIM por correo; la línea empieza, y se cobra, cuando la actives.",
      "resources.accounts.preview.temporaryNumber":
        "Hasta que termine la portabilidad, la línea funciona con un número temporal nuestro.",
      "resources.accounts.preview.onNextBill": "El cargo aparece en tu próxima factura.",
    },
  },
});
