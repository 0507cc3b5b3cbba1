import { z } from "zod";
import { defineResource, expr } from "./define";
import { idSchema, isoDate, isoDateTime, moneySchema } from "./common";

/**
 * Travel insurance for a line, declared by configuration alone (docs/add-a-resource.md walks a
 * product owner through this file): a zone, a start day and 1–90 days; the price is the zone's daily
 * rate (from the rate table below, as in force on the day of purchase) times the days, quoted before
 * buying and charged to the line's balance. The subscriber cancels before the start for a full refund;
 * staff may cancel any active policy with a reason (after the start, the days not yet begun come back).
 * The day after its last day, the policy expires by itself.
 */
const ZONES = ["europe", "americas", "rest_of_world"] as const;
const POLICY_STATUSES = ["active", "cancelled", "expired"] as const;

/** The rate table: a daily rate per zone, in force from a day on (a new rate is a new row, so history stays). */
export const travelInsuranceRateSchema = z.object({
  id: idSchema,
  zone: z.enum(ZONES),
  dailyRate: moneySchema.extend({ amount: z.number().int().positive().max(100_000) }),
  effectiveFrom: isoDate,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const travelInsuranceRatesResource = defineResource({
  name: "travel-insurance-rates",
  label: "resources.travel-insurance-rates.label",
  icon: "PercentageOutlined",
  schema: travelInsuranceRateSchema,
  recordTitle: "zone",
  recordSubtitle: "effectiveFrom",
  fields: {
    zone: { label: "fields.travelZone", kind: "enum", options: ZONES, labels: "enums.travelZone" },
    dailyRate: { label: "fields.dailyRate", kind: "money" },
    effectiveFrom: { label: "fields.effectiveFrom", kind: "date" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    updatedAt: { label: "fields.updatedAt", kind: "datetime" },
  },
  list: {
    columns: ["zone", "dailyRate", "effectiveFrom", "updatedAt"],
    defaultSort: [{ field: "effectiveFrom", order: "desc" }],
    sortable: ["zone", "effectiveFrom", "dailyRate"],
    filters: { zone: ["eq", "in"], effectiveFrom: ["gte", "lte"] },
  },
  show: ["zone", "dailyRate", "effectiveFrom", "createdAt", "updatedAt"],
  form: { create: ["zone", "dailyRate", "effectiveFrom"], edit: ["dailyRate", "effectiveFrom"] },
  rateTable: { key: "zone", value: "dailyRate", from: "effectiveFrom" },
  // The rates each operator starts with; admins change them from the back office (each edit audited).
  seed: [
    { zone: "europe", dailyRate: { amount: 200, currency: "USD" }, effectiveFrom: "2026-01-01" },
    { zone: "americas", dailyRate: { amount: 150, currency: "USD" }, effectiveFrom: "2026-01-01" },
    { zone: "rest_of_world", dailyRate: { amount: 300, currency: "USD" }, effectiveFrom: "2026-01-01" },
  ],
  access: {
    list: { agent: "all", admin: "all" },
    show: { agent: "all", admin: "all" },
    create: { admin: "all" },
    edit: { admin: "all" },
    delete: { admin: "all" },
  },
  source: "backend",
  audit: true,
  indexes: ["zone"],
  messages: {
    en: {
      "resources.travel-insurance-rates.label": "Travel insurance rates",
      "fields.dailyRate": "Price per day",
      "fields.effectiveFrom": "In force from",
    },
    es: {
      "resources.travel-insurance-rates.label": "Tarifas del seguro de viaje",
      "fields.dailyRate": "Precio por día",
      "fields.effectiveFrom": "Vigente desde",
    },
  },
});

export const travelInsuranceSchema = z.object({
  id: idSchema,
  lineId: idSchema,
  zone: z.enum(ZONES),
  startsOn: isoDate,
  days: z.number().int("validation.wholeNumber").min(1, "validation.travelDays").max(90, "validation.travelDays"),
  endsOn: isoDate,
  price: moneySchema,
  status: z.enum(POLICY_STATUSES),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const travelInsuranceResource = defineResource({
  name: "travel-insurance",
  label: "resources.travel-insurance.label",
  icon: "GlobalOutlined",
  schema: travelInsuranceSchema,
  recordTitle: "zone",
  recordSubtitle: "startsOn",
  createLabel: "resources.travel-insurance.create",
  fields: {
    lineId: { label: "fields.line", kind: "reference", reference: { resource: "lines" } },
    zone: { label: "fields.travelZone", kind: "enum", options: ZONES, labels: "enums.travelZone" },
    startsOn: { label: "fields.travelStartsOn", kind: "date" },
    days: { label: "fields.travelDays", kind: "number" },
    endsOn: { label: "fields.travelEndsOn", kind: "date" },
    price: { label: "fields.price", kind: "money" },
    status: { label: "fields.status", kind: "enum", options: POLICY_STATUSES, labels: "enums.travelPolicyStatus" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["zone", "lineId", "startsOn", "endsOn", "price", "status"],
    defaultSort: [{ field: "startsOn", order: "desc" }],
    sortable: ["startsOn", "endsOn", "price", "createdAt"],
    filters: {
      status: ["eq", "in"],
      zone: ["eq", "in"],
      lineId: ["eq"],
      startsOn: ["gte", "lte"],
      endsOn: ["gte", "lte"],
    },
  },
  show: ["zone", "lineId", "startsOn", "endsOn", "days", "price", "status", "createdAt"],
  form: { create: ["lineId", "zone", "startsOn", "days"], edit: [] },
  defaults: { startsOn: expr("today()"), days: 7, status: "active" },
  computed: {
    // The last day covered, worked out in SQL on every read (lists filter and sort on it).
    endsOn: expr("startsOn + days - 1"),
    // The price: the zone's daily rate in force today, times the days; kept as paid when rates change.
    price: { expression: "rate('travel-insurance-rates', zone) * days", stored: true },
  },
  checks: [
    { rule: "startsOn >= today()", field: "startsOn", message: "resources.travel-insurance.startsTodayOrLater" },
  ],
  onCreate: [{ charge: { account: "lineId", amount: "price", label: "resources.travel-insurance.charge" } }],
  actions: {
    cancel: {
      label: "resources.travel-insurance.cancel",
      set: { status: "cancelled" },
      when: { status: ["active"] },
      // Subscribers cancel before the start; staff at any time, giving a reason.
      allowedIf: [
        {
          rule: "role != 'subscriber' or startsOn > today()",
          field: "startsOn",
          message: "resources.travel-insurance.onlyBeforeStart",
        },
      ],
      // In full before the start; after it (staff only), the days not yet begun.
      effects: [
        {
          refund: {
            account: "lineId",
            amount: "if(startsOn > today(), price, price * max(endsOn - today(), 0) / days)",
            label: "resources.travel-insurance.refund",
          },
        },
      ],
      preview: true,
      reason: "staff",
      danger: true,
      confirm: "resources.travel-insurance.confirmCancel",
      about: "resources.travel-insurance.aboutCancel",
      done: "resources.travel-insurance.doneCancel",
    },
  },
  schedules: {
    expire: {
      when: "status == 'active' and endsOn < today()",
      set: { status: "expired" },
      notify: "resources.travel-insurance.expired",
    },
  },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    create: { subscriber: "own", agent: "all", admin: "all" },
    cancel: { subscriber: "own", agent: "all", admin: "all" },
  },
  ownership: { path: "lineId → lines → account.ownerUid", through: "lineId" },
  subscriberPlace: "shop",
  source: "backend",
  audit: true,
  indexes: ["status", "lineId"],
  messages: {
    en: {
      "resources.travel-insurance.label": "Travel insurance",
      "resources.travel-insurance.create": "Buy travel insurance",
      "resources.travel-insurance.charge": "Travel insurance, {{days}} days from {{startsOn}}",
      "resources.travel-insurance.refund": "Refund of travel insurance from {{startsOn}}",
      "resources.travel-insurance.cancel": "Cancel the insurance",
      "resources.travel-insurance.confirmCancel":
        "Cancel this travel insurance? What it cost goes back to your balance before it starts.",
      "resources.travel-insurance.aboutCancel": "Before your trip starts, with the full price back.",
      "resources.travel-insurance.doneCancel": "Your travel insurance is cancelled.",
      "resources.travel-insurance.startsTodayOrLater": "Pick today or a later day.",
      "resources.travel-insurance.onlyBeforeStart":
        "It can be cancelled only before the day it starts; call care after that.",
      "resources.travel-insurance.expired": "Your travel insurance that started on {{startsOn}} has ended.",
      "subscriber.more.travel-insurance.about": "Cover for your trips abroad, by the day.",
      "fields.travelZone": "Where you travel",
      "fields.travelStartsOn": "First day",
      "fields.travelDays": "Days",
      "fields.travelEndsOn": "Last day",
      "enums.travelZone.europe": "Europe",
      "enums.travelZone.americas": "The Americas",
      "enums.travelZone.rest_of_world": "Rest of the world",
      "enums.travelPolicyStatus.active": "Active",
      "enums.travelPolicyStatus.cancelled": "Cancelled",
      "enums.travelPolicyStatus.expired": "Ended",
      "validation.travelDays": "From 1 to 90 days",
    },
    es: {
      "resources.travel-insurance.label": "Seguro de viaje",
      "resources.travel-insurance.create": "Comprar un seguro de viaje",
      "resources.travel-insurance.charge": "Seguro de viaje, {{days}} días desde el {{startsOn}}",
      "resources.travel-insurance.refund": "Reembolso del seguro de viaje desde el {{startsOn}}",
      "resources.travel-insurance.cancel": "Cancelar el seguro",
      "resources.travel-insurance.confirmCancel":
        "¿Cancelar este seguro de viaje? Lo que costó vuelve a tu saldo antes de que empiece.",
      "resources.travel-insurance.aboutCancel": "Antes de que empiece tu viaje, con el precio completo de vuelta.",
      "resources.travel-insurance.doneCancel": "Tu seguro de viaje está cancelado.",
      "resources.travel-insurance.startsTodayOrLater": "Elige hoy o un día posterior.",
      "resources.travel-insurance.onlyBeforeStart":
        "Solo se puede cancelar antes del día en que empieza; después, llama a atención al cliente.",
      "resources.travel-insurance.expired": "Tu seguro de viaje que empezó el {{startsOn}} ha terminado.",
      "subscriber.more.travel-insurance.about": "Cobertura por días para tus viajes al extranjero.",
      "fields.travelZone": "Adónde viajas",
      "fields.travelStartsOn": "Primer día",
      "fields.travelDays": "Días",
      "fields.travelEndsOn": "Último día",
      "enums.travelZone.europe": "Europa",
      "enums.travelZone.americas": "América",
      "enums.travelZone.rest_of_world": "Resto del mundo",
      "enums.travelPolicyStatus.active": "Activo",
      "enums.travelPolicyStatus.cancelled": "Cancelado",
      "enums.travelPolicyStatus.expired": "Terminado",
      "validation.travelDays": "De 1 a 90 días",
    },
  },
});

/** The product: its rate table and its policies, added to the registry together. */
export const travelInsurance = [travelInsuranceRatesResource, travelInsuranceResource] as const;
