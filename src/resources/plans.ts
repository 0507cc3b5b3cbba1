import { z } from "zod";
import { defineResource } from "./define";
import { allowanceSchema, catalogPriceSchema, idSchema, isoDateTime, moneySchema } from "./common";
import { overageRecordSchema, overageSchema } from "./overage";
import { planTranslationsRecordSchema, planTranslationsSchema } from "./catalogTranslations";

export const PLAN_KINDS = ["prepaid", "postpaid"] as const;
export const PLAN_STATUSES = ["draft", "active", "retired"] as const;
/**
 * How a plan's data allowance is held (issue 28): `none`, each line has its own; `pool`, one allowance
 * (`dataMb`) shared by every line of the account on the plan, and `price` is per line, so an account
 * pays `price` × its lines on the plan (one line $X, four lines 4 × $X). Calls and texts stay per line.
 */
export const PLAN_SHARING = ["none", "pool"] as const;

/** A plan offering (TM Forum ProductOffering). Allowances: null means unlimited. */
export const planSchema = z.object({
  id: idSchema,
  code: z.string().regex(/^[A-Z0-9_]{2,32}$/, "validation.catalogCode"),
  name: z.string().min(2).max(80),
  kind: z.enum(PLAN_KINDS),
  status: z.enum(PLAN_STATUSES),
  price: catalogPriceSchema,
  period: z.enum(["month"]),
  /** Whole MB; null is unlimited, chosen as such (the form refuses a blank amount, issue 23). */
  dataMb: z.number().int().nonnegative().max(10_000_000, "validation.atMostMb").nullable(),
  voiceMinutes: allowanceSchema.nullable(),
  sms: allowanceSchema.nullable(),
  features: z.array(z.string().max(80)).max(20),
  /** The name and features in Spanish (issue 25); the portal falls back to `name`/`features` where one is missing. */
  translations: planTranslationsRecordSchema,
  /** What each usage type costs past the allowance, with roaming zone rates; null = capped for every type (issue 24). */
  overage: overageRecordSchema.nullable(),
  /** `pool`: the data is shared by all lines of the account and the price is per line (PLAN_SHARING). */
  sharing: z.enum(PLAN_SHARING),
  /**
   * A price change on its way (issue 12): each line pays it from its next cycle start after
   * `priceChangedAt`; until then, `price`. Null when none is pending.
   */
  pendingPrice: moneySchema.nullable(),
  priceChangedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Plan = z.output<typeof planSchema>;

export const plansResource = defineResource({
  name: "plans",
  store: "table",
  label: "resources.plans.label",
  icon: "AppstoreOutlined",
  schema: planSchema,
  recordTitle: "name",
  fields: {
    code: { label: "fields.code", kind: "text" },
    name: { label: "fields.name", kind: "text" },
    kind: { label: "fields.kind", kind: "enum", options: PLAN_KINDS },
    // Its own words: the lines' "Activa" is feminine, a plan ("el plan") is not.
    status: { label: "fields.status", kind: "enum", options: PLAN_STATUSES, labels: "enums.planStatus" },
    price: { label: "fields.price", kind: "money" },
    dataMb: { label: "fields.data", kind: "dataMb" },
    voiceMinutes: { label: "fields.voice", kind: "quantity" },
    sms: { label: "fields.sms", kind: "quantity" },
    features: { label: "fields.features", kind: "tags" },
    translations: {
      label: "fields.translations.es",
      kind: "translations",
      translates: ["name", "features"],
      help: "fields.translations.help",
    },
    overage: { label: "fields.overage", kind: "overage", help: "resources.plans.overageHelp" },
    sharing: {
      label: "fields.sharing",
      kind: "enum",
      options: PLAN_SHARING,
      labels: "enums.sharing",
      help: "resources.plans.sharingHelp",
    },
    pendingPrice: { label: "fields.pendingPrice", kind: "money", help: "resources.plans.pendingPriceHelp" },
    priceChangedAt: { label: "fields.priceChangedAt", kind: "datetime" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["name", "kind", "price", "dataMb", "voiceMinutes", "sms", "status"],
    defaultSort: [{ field: "price", order: "asc" }],
    sortable: ["name", "code", "price", "dataMb", "createdAt"],
    filters: { kind: ["eq", "in"], status: ["eq", "ne", "in"], price: ["lte", "gte", "between"], code: ["eq", "in"] },
    search: { placeholder: "resources.plans.search" },
  },
  show: [
    "code",
    "name",
    "kind",
    "status",
    "price",
    "pendingPrice",
    "priceChangedAt",
    "dataMb",
    "voiceMinutes",
    "sms",
    "overage",
    "sharing",
    "features",
    "translations",
    "createdAt",
  ],
  form: {
    create: [
      "code",
      "name",
      "kind",
      "price",
      "sharing",
      "dataMb",
      "voiceMinutes",
      "sms",
      "overage",
      "features",
      "translations",
    ],
    // The price changes only through change-price: what lines pay never moves mid-cycle.
    edit: ["name", "sharing", "dataMb", "voiceMinutes", "sms", "overage", "features", "translations"],
  },
  actions: {
    activate: {
      label: "resources.plans.actions.activate",
      handler: "plans.activate",
      when: { status: ["draft"] },
      confirm: "resources.plans.confirm.activate",
    },
    retire: {
      label: "resources.plans.actions.retire",
      handler: "plans.retire",
      when: { status: ["active"] },
      danger: true,
      confirm: "resources.plans.confirm.retire",
    },
    "change-price": {
      label: "resources.plans.actions.changePrice",
      handler: "plans.changePrice",
      when: { status: ["draft", "active", "retired"] },
      input: z.object({ price: catalogPriceSchema }),
      inputFields: { price: { label: "fields.newPrice", kind: "money", help: "resources.plans.changePriceHelp" } },
      preview: true,
      confirm: "resources.plans.confirm.changePrice",
    },
  },
  access: {
    // The catalog is open to every signed-in role; subscribers see only what is on sale. Admins manage it.
    list: { subscriber: "all", agent: "all", admin: "all" },
    show: { subscriber: "all", agent: "all", admin: "all" },
    create: { admin: "all" },
    edit: { admin: "all" },
    activate: { admin: "all" },
    retire: { admin: "all" },
    "change-price": { admin: "all" },
  },
  // Left out of a new plan, the overage is null: every type stops at its allowance.
  // Left out, a new plan has no translations yet.
  // Left out, a plan's data is its lines' own (sharing "none").
  writeRules: {
    overage: overageSchema.nullable().optional(),
    translations: planTranslationsSchema.optional(),
    sharing: z.enum(PLAN_SHARING, "none or pool").optional(),
  },
  subscriberPlace: "shop",
  source: "backend",
  audit: true,
  messages: {
    en: {
      "enums.planStatus.draft": "Draft",
      "enums.planStatus.active": "Active",
      "enums.planStatus.retired": "Retired",
      "resources.plans.actions.activate": "Put on sale",
      "resources.plans.actions.retire": "Retire",
      "resources.plans.actions.changePrice": "Change price",
      "resources.plans.confirm.activate": "Put {{title}} on sale? Subscribers can choose it at once.",
      "resources.plans.confirm.retire": "Retire {{title}}? Nobody can choose it any more; lines on it keep it.",
      "resources.plans.confirm.changePrice":
        "Change the price of {{title}}? What lines pay now does not change: each line pays the new price from its next cycle.",
      "resources.plans.changePriceHelp": "Each line on this plan pays it from the start of its next cycle.",
      "resources.plans.pendingPriceHelp": "Paid by each line from its next cycle after the change.",
      "resources.plans.quote.changePrice":
        "{{lines}} lines pay the new price of {{plan}}, each from its next cycle (all by {{until}}).",
      "resources.plans.quote.activeLines": "Active lines: {{count}}",
      "resources.plans.quote.suspendedLines": "Suspended lines: {{count}}",
      "resources.plans.quote.priceNow": "Price now",
      "resources.plans.quote.priceNext": "New price, from each line's next cycle",
      "fields.pendingPrice": "New price",
      "fields.priceChangedAt": "Price changed",
      "fields.newPrice": "New monthly price",
      "fields.overage": "Past the allowance",
      "resources.plans.overageHelp":
        "What each kind of usage costs once the allowance is used up, at home and in each roaming zone. Leave a rate off to stop the service at the allowance instead.",
      "fields.sharing": "Data sharing",
      "enums.sharing.none": "Each line has its own",
      "enums.sharing.pool": "Shared by all lines of the account",
      "resources.plans.sharingHelp":
        "Shared: the data allowance is one pool for every line of the account on this plan, and the price is per line.",
    },
    es: {
      "enums.planStatus.draft": "Borrador",
      "enums.planStatus.active": "Activo",
      "enums.planStatus.retired": "Retirado",
      "resources.plans.actions.activate": "Poner a la venta",
      "resources.plans.actions.retire": "Retirar",
      "resources.plans.actions.changePrice": "Cambiar precio",
      "resources.plans.confirm.activate": "¿Poner {{title}} a la venta? Los clientes podrán elegirlo enseguida.",
      "resources.plans.confirm.retire":
        "¿Retirar {{title}}? Nadie podrá elegirlo; las líneas que lo tienen lo conservan.",
      "resources.plans.confirm.changePrice":
        "¿Cambiar el precio de {{title}}? Lo que pagan las líneas ahora no cambia: cada línea paga el nuevo precio desde su próximo ciclo.",
      "resources.plans.changePriceHelp": "Cada línea de este plan lo paga desde el inicio de su próximo ciclo.",
      "resources.plans.pendingPriceHelp": "Lo paga cada línea desde su próximo ciclo tras el cambio.",
      "resources.plans.quote.changePrice":
        "{{lines}} líneas pagan el nuevo precio de {{plan}}, cada una desde su próximo ciclo (todas antes del {{until}}).",
      "resources.plans.quote.activeLines": "Líneas activas: {{count}}",
      "resources.plans.quote.suspendedLines": "Líneas suspendidas: {{count}}",
      "resources.plans.quote.priceNow": "Precio actual",
      "resources.plans.quote.priceNext": "Nuevo precio, desde el próximo ciclo de cada línea",
      "fields.pendingPrice": "Nuevo precio",
      "fields.priceChangedAt": "Cambio de precio",
      "fields.newPrice": "Nuevo precio mensual",
      "fields.overage": "Al agotar lo incluido",
      "resources.plans.overageHelp":
        "Lo que cuesta cada tipo de consumo una vez agotado lo incluido, en casa y en cada zona de roaming. Sin tarifa, el servicio se detiene al agotarlo.",
      "fields.sharing": "Datos compartidos",
      "enums.sharing.none": "Cada línea tiene los suyos",
      "enums.sharing.pool": "Compartidos por todas las líneas de la cuenta",
      "resources.plans.sharingHelp":
        "Compartidos: los datos incluidos son una sola bolsa para todas las líneas de la cuenta en este plan, y el precio es por línea.",
    },
  },
});
