import { z } from "zod";
import { defineResource } from "./define";
import { catalogPriceSchema, idSchema, isoDateTime } from "./common";
import { ROAMING_ZONES } from "./usage";
import { addOnTranslationsRecordSchema, addOnTranslationsSchema } from "./catalogTranslations";

export const ADD_ON_KINDS = ["data", "roaming"] as const;
export const ADD_ON_STATUSES = ["draft", "active", "retired"] as const;

/**
 * An add-on offering (TM Forum ProductOffering): a data pass, or a roaming pass for one zone. Bought
 * on a line (lines/{id}/actions/buy-add-on), its data allowance is added to the line's data meter
 * for `validityDays`; with auto-renew it is bought again when it expires (a durable job).
 */
export const addOnSchema = z.object({
  id: idSchema,
  code: z.string().regex(/^[A-Z0-9_]{2,32}$/, "validation.catalogCode"),
  name: z.string().min(2).max(80),
  kind: z.enum(ADD_ON_KINDS),
  /** The zone a roaming pass is for; null for a data pass. */
  roamingZone: z.enum(ROAMING_ZONES).nullable(),
  status: z.enum(ADD_ON_STATUSES),
  price: catalogPriceSchema,
  /** The data it adds, in MB. */
  dataMb: z.number().int().positive().max(1_000_000),
  validityDays: z.number().int().min(1).max(90),
  /** The name in Spanish (issue 25); the portal falls back to `name` where it is missing. */
  translations: addOnTranslationsRecordSchema,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type AddOn = z.output<typeof addOnSchema>;

export const addOnsResource = defineResource({
  name: "add-ons",
  store: "table",
  label: "resources.add-ons.label",
  icon: "ShoppingOutlined",
  schema: addOnSchema,
  recordTitle: "name",
  fields: {
    code: { label: "fields.code", kind: "text" },
    name: { label: "fields.name", kind: "text" },
    kind: { label: "fields.kind", kind: "enum", options: ADD_ON_KINDS, labels: "enums.addOnKind" },
    roamingZone: { label: "fields.roamingZone", kind: "enum", options: ROAMING_ZONES, labels: "enums.roamingZone" },
    status: { label: "fields.status", kind: "enum", options: ADD_ON_STATUSES, labels: "enums.addOnStatus" },
    price: { label: "fields.price", kind: "money" },
    dataMb: { label: "fields.data", kind: "dataMb" },
    validityDays: { label: "fields.validityDays", kind: "number" },
    translations: {
      label: "fields.translations.es",
      kind: "translations",
      translates: ["name"],
      help: "fields.translations.help",
    },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["name", "kind", "roamingZone", "price", "dataMb", "validityDays", "status"],
    defaultSort: [{ field: "price", order: "asc" }],
    sortable: ["name", "code", "price", "dataMb", "validityDays", "createdAt"],
    filters: {
      kind: ["eq", "in"],
      status: ["eq", "ne", "in"],
      roamingZone: ["eq", "in", "null"],
      price: ["lte", "gte", "between"],
    },
    search: { placeholder: "resources.add-ons.search" },
  },
  show: [
    "code",
    "name",
    "kind",
    "roamingZone",
    "status",
    "price",
    "dataMb",
    "validityDays",
    "translations",
    "createdAt",
  ],
  form: {
    create: ["code", "name", "kind", "roamingZone", "price", "dataMb", "validityDays", "translations"],
    edit: ["name", "price", "dataMb", "validityDays", "translations"],
  },
  actions: {
    activate: {
      label: "resources.add-ons.actions.activate",
      handler: "addOns.activate",
      when: { status: ["draft"] },
      confirm: "resources.add-ons.confirm.activate",
    },
    retire: {
      label: "resources.add-ons.actions.retire",
      handler: "addOns.retire",
      when: { status: ["active"] },
      danger: true,
      confirm: "resources.add-ons.confirm.retire",
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
  },
  // Left out, a new add-on has no translations yet.
  writeRules: { translations: addOnTranslationsSchema.optional() },
  subscriberPlace: "shop",
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.add-ons.label": "Add-ons",
      "resources.add-ons.search": "Search add-ons",
      "resources.add-ons.actions.activate": "Put on sale",
      "resources.add-ons.actions.retire": "Retire",
      "resources.add-ons.confirm.activate": "Put {{title}} on sale? Subscribers can buy it at once.",
      "resources.add-ons.confirm.retire": "Retire {{title}}? Nobody can buy it any more and it is not renewed.",
      "fields.validityDays": "Valid for (days)",
      "enums.addOnStatus.draft": "Draft",
      "enums.addOnStatus.active": "On sale",
      "enums.addOnStatus.retired": "Retired",
    },
    es: {
      "resources.add-ons.label": "Complementos",
      "resources.add-ons.search": "Buscar complementos",
      "resources.add-ons.actions.activate": "Poner a la venta",
      "resources.add-ons.actions.retire": "Retirar",
      "resources.add-ons.confirm.activate": "¿Poner {{title}} a la venta? Los clientes podrán comprarlo enseguida.",
      "resources.add-ons.confirm.retire": "¿Retirar {{title}}? Nadie podrá comprarlo y no se renovará.",
      "fields.validityDays": "Válido (días)",
      "enums.addOnStatus.draft": "Borrador",
      "enums.addOnStatus.active": "A la venta",
      "enums.addOnStatus.retired": "Retirado",
    },
  },
});

/** An add-on bought on a line and counting now (`GET /lines/{id}/add-ons`). */
export const lineAddOnSchema = z.object({
  id: idSchema,
  addOnId: idSchema,
  name: z.string(),
  /** The add-on's Spanish name (issue 25). */
  translations: addOnTranslationsRecordSchema,
  kind: z.enum(ADD_ON_KINDS),
  roamingZone: z.enum(ROAMING_ZONES).nullable(),
  dataMb: z.number().int(),
  autoRenew: z.boolean(),
  startsAt: isoDateTime,
  expiresAt: isoDateTime,
});
export type LineAddOn = z.output<typeof lineAddOnSchema>;
