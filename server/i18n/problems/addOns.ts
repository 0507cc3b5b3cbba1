import { defineWords } from "../defineWords";

/** The add-ons catalog (create, edit) and buying or stopping an add-on on a line. */
export const addOnsWords = defineWords({
  "addOns.zone": {
    en: "A roaming pass names its zone; a data pass has none.",
    es: "Un pase de roaming indica su zona; un pase de datos no tiene zona.",
  },
  "addOns.zoneRequired": { en: "required for a roaming pass", es: "obligatoria para un pase de roaming" },
  "addOns.zoneOnlyRoaming": { en: "only for a roaming pass", es: "solo para un pase de roaming" },
  "addOns.codeTaken": { en: "An add-on with this code exists.", es: "Ya existe un complemento con este código." },
  "addOns.codeUsed": { en: "already used", es: "ya está en uso" },
  "addOns.noSuchAddOn": { en: "There is no such add-on.", es: "Ese complemento no existe." },
  "addOns.noSuchAddOnField": { en: "no add-on with this id", es: "no hay ningún complemento con este id" },
  "addOns.notOnSale": { en: "{{name}} is not on sale.", es: "{{name}} no está a la venta." },
  "addOns.notOnSaleField": { en: "not an active add-on", es: "no es un complemento activo" },
  "addOns.lineHasNoSuch": { en: "This line has no such add-on.", es: "Esta línea no tiene ese complemento." },
  "addOns.lineHasNoSuchField": {
    en: "no add-on of this line with this id",
    es: "esta línea no tiene ningún complemento con este id",
  },
  "addOns.expired": { en: "This add-on has expired.", es: "Este complemento ya venció." },
  "addOns.expiredField": { en: "expired", es: "vencido" },
  "addOns.doesNotRenew": { en: "This add-on does not renew.", es: "Este complemento no se renueva." },
  "addOns.doesNotRenewField": { en: "renewal already off", es: "la renovación ya está desactivada" },
});
