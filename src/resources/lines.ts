import { z } from "zod";
import { defineResource } from "./define";
import { e164Schema, idSchema, isoDateTime } from "./common";
import { PLAN_KINDS } from "./plans";

export const LINE_STATUSES = ["pending", "active", "suspended", "terminated"] as const;
export const SUSPEND_REASONS = ["lost", "stolen", "non_payment", "request"] as const;
/** The reasons a person may give; non_payment is the billing system's. */
export const SELF_SUSPEND_REASONS = ["lost", "stolen", "request"] as const;
export const SIM_TYPES = ["physical", "esim"] as const;
/** When a plan change takes effect: at once (prorated) or at the start of the next cycle (no charge now). */
export const PLAN_CHANGE_EFFECTIVE = ["now", "next-cycle"] as const;

/** An ICCID: 19 or 20 digits starting with 89 (the telecom industry prefix). */
export const iccidSchema = z.string().regex(/^89\d{17,18}$/, "19 or 20 digits starting with 89");

/** A mobile line (TM Forum Product/Service) with the names of its plan and account joined in. */
export const lineSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  accountName: z.string(),
  accountType: z.enum(PLAN_KINDS),
  msisdn: e164Schema,
  iccid: iccidSchema,
  simType: z.enum(SIM_TYPES),
  planId: idSchema,
  planName: z.string(),
  status: z.enum(LINE_STATUSES),
  suspendReason: z.enum(SUSPEND_REASONS).nullable(),
  cycleDay: z.number().int().min(1).max(28),
  /** While locked, port-out PINs and SIM swaps are refused (fraud protection). */
  numberLocked: z.boolean(),
  /** Until when the last port-out PIN is valid; null when none is. The PIN itself is never returned again. */
  portOutPinExpiresAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Line = z.output<typeof lineSchema>;

/** Staff on a subscriber's line give a reason; the line's holder does not need to. */
const STAFF_REASON = "staff" as const;

export const linesResource = defineResource({
  name: "lines",
  store: "table",
  label: "resources.lines.label",
  icon: "MobileOutlined",
  schema: lineSchema,
  recordTitle: "msisdn",
  fields: {
    msisdn: { label: "fields.msisdn", kind: "msisdn" },
    accountName: { label: "fields.account", kind: "text", reference: { resource: "accounts", idField: "accountId" } },
    accountType: { label: "fields.accountType", kind: "enum", options: PLAN_KINDS },
    planName: { label: "fields.plan", kind: "text", reference: { resource: "plans", idField: "planId" } },
    status: { label: "fields.status", kind: "enum", options: LINE_STATUSES },
    suspendReason: { label: "fields.suspendReason", kind: "enum", options: SUSPEND_REASONS },
    simType: { label: "fields.simType", kind: "enum", options: SIM_TYPES },
    iccid: { label: "fields.iccid", kind: "text", masked: true },
    cycleDay: { label: "fields.cycleDay", kind: "number" },
    numberLocked: { label: "fields.numberLocked", kind: "boolean" },
    portOutPinExpiresAt: { label: "fields.portOutPinExpiresAt", kind: "datetime" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["msisdn", "accountName", "accountType", "planName", "status"],
    defaultSort: [{ field: "msisdn", order: "asc" }],
    sortable: ["msisdn", "status", "accountName", "planName", "createdAt"],
    filters: {
      status: ["eq", "ne", "in"],
      accountType: ["eq"],
      simType: ["eq"],
      msisdn: ["eq", "startswith", "contains"],
      planId: ["eq", "in"],
      accountId: ["eq"],
      numberLocked: ["eq"],
    },
    search: { placeholder: "resources.lines.search" },
  },
  show: ["msisdn", "status", "suspendReason", "planName", "accountName", "accountType", "simType", "iccid", "numberLocked", "portOutPinExpiresAt", "cycleDay", "createdAt"],
  actions: {
    suspend: {
      label: "resources.lines.actions.suspend",
      handler: "lines.suspend",
      when: { status: ["active"] },
      input: z.object({ suspendReason: z.enum(SELF_SUSPEND_REASONS, "one of lost, stolen, request") }),
      inputFields: { suspendReason: { label: "fields.suspendReason", kind: "enum", options: SELF_SUSPEND_REASONS } },
      preview: true,
      reason: STAFF_REASON,
      danger: true,
      confirm: "resources.lines.confirm.suspend",
    },
    restore: {
      label: "resources.lines.actions.restore",
      handler: "lines.restore",
      when: { status: ["suspended"] },
      reauth: { roles: ["subscriber"], when: { suspendReason: ["lost", "stolen"] } },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.restore",
    },
    "lock-number": {
      label: "resources.lines.actions.lockNumber",
      handler: "lines.lockNumber",
      when: { numberLocked: [false] },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.lockNumber",
    },
    "unlock-number": {
      label: "resources.lines.actions.unlockNumber",
      handler: "lines.unlockNumber",
      when: { numberLocked: [true] },
      reauth: { roles: ["subscriber"] },
      reason: STAFF_REASON,
      danger: true,
      confirm: "resources.lines.confirm.unlockNumber",
    },
    "port-out-pin": {
      label: "resources.lines.actions.portOutPin",
      handler: "lines.portOutPin",
      when: { status: ["active", "suspended"] },
      reauth: { roles: ["subscriber"] },
      confirm: "resources.lines.confirm.portOutPin",
      result: {
        schema: z.object({ pin: z.string().regex(/^\d{6}$/), expiresAt: isoDateTime }),
        fields: { pin: { label: "fields.portOutPin", kind: "secret" }, expiresAt: { label: "fields.validUntil", kind: "datetime" } },
      },
    },
    "reveal-puk": {
      label: "resources.lines.actions.revealPuk",
      handler: "lines.revealPuk",
      reauth: { roles: ["subscriber"] },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.revealPuk",
      result: {
        schema: z.object({ puk: z.string().regex(/^\d{8}$/) }),
        fields: { puk: { label: "fields.puk", kind: "secret" } },
      },
    },
    "change-plan": {
      label: "resources.lines.actions.changePlan",
      handler: "lines.changePlan",
      when: { status: ["active"] },
      input: z.object({
        planId: idSchema,
        effective: z.enum(PLAN_CHANGE_EFFECTIVE, "now or next-cycle").default("now"),
      }),
      inputFields: {
        planId: { label: "fields.newPlan", kind: "reference", reference: { resource: "plans" } },
        effective: { label: "fields.changeEffective", kind: "enum", options: PLAN_CHANGE_EFFECTIVE, labels: "enums.changeEffective" },
      },
      preview: true,
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.changePlan",
    },
    "swap-sim": {
      label: "resources.lines.actions.swapSim",
      handler: "lines.swapSim",
      when: { status: ["active", "suspended"] },
      // `{iccid}` for a new physical SIM, or `{simType: "esim"}` for an eSIM profile we issue.
      input: z
        .object({ simType: z.enum(SIM_TYPES).default("physical"), iccid: iccidSchema.optional() })
        .superRefine((value, ctx) => {
          if (value.simType === "physical" && !value.iccid) ctx.addIssue({ code: "custom", path: ["iccid"], message: "required for a physical SIM: the number printed on it" });
          if (value.simType === "esim" && value.iccid) ctx.addIssue({ code: "custom", path: ["iccid"], message: "leave it out for an eSIM: we issue its number" });
        }),
      inputFields: {
        simType: { label: "fields.newSimType", kind: "enum", options: SIM_TYPES },
        iccid: { label: "fields.newIccid", kind: "text", help: "resources.lines.iccidHelp", onlyWhen: { simType: ["physical"] } },
      },
      preview: true,
      reauth: { roles: ["subscriber"] },
      reason: STAFF_REASON,
      danger: true,
      confirm: "resources.lines.confirm.swapSim",
      result: {
        schema: z.object({ iccid: iccidSchema, simType: z.enum(SIM_TYPES), activationCode: z.string().nullable() }),
        fields: {
          iccid: { label: "fields.iccid", kind: "text" },
          simType: { label: "fields.simType", kind: "enum", options: SIM_TYPES },
          activationCode: { label: "fields.activationCode", kind: "qrCode" },
        },
      },
    },
  },
  access: {
    "change-plan": { subscriber: "own", agent: "all", admin: "all" },
    // Subscribers see the lines of their own accounts; staff see every line of their operator.
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    suspend: { subscriber: "own", agent: "all", admin: "all" },
    restore: { subscriber: "own", agent: "all", admin: "all" },
    "lock-number": { subscriber: "own", admin: "all" },
    "unlock-number": { subscriber: "own", admin: "all" },
    "port-out-pin": { subscriber: "own" },
    "reveal-puk": { subscriber: "own", agent: "all", admin: "all" },
    "swap-sim": { subscriber: "own", agent: "all", admin: "all" },
  },
  ownership: { path: "account.ownerUid" },
  source: "backend",
  // Staff select rows for a bulk suspend or restore (bulk-jobs); subscribers get the plain list.
  views: { list: () => import("../pages/care/LinesListPage") },
  audit: true,
  messages: {
    en: {
      "resources.lines.actions.suspend": "Suspend",
      "resources.lines.actions.restore": "Restore",
      "resources.lines.actions.lockNumber": "Lock number",
      "resources.lines.actions.unlockNumber": "Unlock number",
      "resources.lines.actions.portOutPin": "Get transfer PIN",
      "resources.lines.actions.revealPuk": "Show PUK",
      "resources.lines.actions.swapSim": "Replace SIM",
      "resources.lines.actions.changePlan": "Change plan",
      "resources.lines.confirm.changePlan": "Change the plan of {{title}}? You will see what it costs before anything changes.",
      "resources.lines.preview.changePlanNow": "{{msisdn}} moves to {{plan}} now.",
      "resources.lines.preview.changePlanNextCycle": "{{msisdn}} moves to {{plan}} when the next cycle starts on {{date}}.",
      "resources.lines.preview.creditOldPlan": "Credit for the {{days}} unused days (of {{cycleDays}}) of {{plan}}",
      "resources.lines.preview.chargeNewPlan": "{{plan}} for the {{days}} remaining days (of {{cycleDays}})",
      "resources.lines.preview.noChargeNow": "Nothing is charged now.",
      "resources.lines.preview.newMonthlyPrice": "New monthly price from the next cycle",
      "fields.newPlan": "New plan",
      "fields.changeEffective": "When",
      "enums.changeEffective.now": "Now (prorated)",
      "enums.changeEffective.next-cycle": "At the next cycle",
      "resources.lines.confirm.suspend": "Suspend {{title}}? Calls, texts and data stop until the line is restored.",
      "resources.lines.confirm.restore": "Restore {{title}}? Calls, texts and data start again.",
      "resources.lines.confirm.lockNumber": "Lock {{title}} against transfers? While locked, nobody can move the number to another carrier or replace its SIM.",
      "resources.lines.confirm.unlockNumber": "Unlock {{title}}? The number can then be moved to another carrier and its SIM replaced.",
      "resources.lines.confirm.portOutPin": "Get a PIN to move {{title}} to another carrier? It is valid for 30 days and shown only once.",
      "resources.lines.confirm.revealPuk": "Show the PUK of {{title}}? You need it to unblock the SIM after three wrong PINs. It is shown once and the viewing is recorded.",
      "resources.lines.confirm.swapSim": "Replace the SIM of {{title}}? The old SIM stops working at once.",
      "resources.lines.preview.suspend": "{{msisdn}} will be suspended now.",
      "resources.lines.preview.suspendStops": "Calls, texts and data stop on this line.",
      "resources.lines.preview.suspendRestore": "You can restore it here at any time.",
      "resources.lines.preview.suspendLostRestore": "To restore it, you will be asked to confirm it is you.",
      "resources.lines.preview.noCharge": "No charge.",
      "resources.lines.preview.swapToEsim": "{{msisdn}} moves to a new eSIM.",
      "resources.lines.preview.swapToPhysical": "{{msisdn}} moves to the SIM ending in {{iccid}}.",
      "resources.lines.preview.oldSimStops": "The current SIM stops working at once.",
      "resources.lines.preview.scanQr": "Scan the QR code shown next with the phone to install the eSIM.",
      "resources.lines.preview.insertSim": "Put the new SIM in the phone and restart it.",
      "resources.lines.iccidHelp": "The 19 or 20 digits printed on the new SIM card, starting with 89.",
      "fields.numberLocked": "Locked against transfers",
      "fields.portOutPinExpiresAt": "Transfer PIN valid until",
      "fields.portOutPin": "Transfer PIN",
      "fields.validUntil": "Valid until",
      "fields.puk": "PUK",
      "fields.newSimType": "New SIM",
      "fields.newIccid": "Number of the new SIM (ICCID)",
      "fields.activationCode": "eSIM activation code",
    },
    es: {
      "resources.lines.actions.suspend": "Suspender",
      "resources.lines.actions.restore": "Reactivar",
      "resources.lines.actions.lockNumber": "Bloquear número",
      "resources.lines.actions.unlockNumber": "Desbloquear número",
      "resources.lines.actions.portOutPin": "Obtener PIN de portabilidad",
      "resources.lines.actions.revealPuk": "Ver PUK",
      "resources.lines.actions.swapSim": "Cambiar SIM",
      "resources.lines.actions.changePlan": "Cambiar de plan",
      "resources.lines.confirm.changePlan": "¿Cambiar el plan de {{title}}? Verás lo que cuesta antes de que cambie nada.",
      "resources.lines.preview.changePlanNow": "{{msisdn}} pasa al plan {{plan}} ahora.",
      "resources.lines.preview.changePlanNextCycle": "{{msisdn}} pasa al plan {{plan}} cuando empiece el próximo ciclo, el {{date}}.",
      "resources.lines.preview.creditOldPlan": "Abono por los {{days}} días no usados (de {{cycleDays}}) de {{plan}}",
      "resources.lines.preview.chargeNewPlan": "{{plan}} por los {{days}} días restantes (de {{cycleDays}})",
      "resources.lines.preview.noChargeNow": "No se cobra nada ahora.",
      "resources.lines.preview.newMonthlyPrice": "Nuevo precio mensual desde el próximo ciclo",
      "fields.newPlan": "Plan nuevo",
      "fields.changeEffective": "Cuándo",
      "enums.changeEffective.now": "Ahora (prorrateado)",
      "enums.changeEffective.next-cycle": "En el próximo ciclo",
      "resources.lines.confirm.suspend": "¿Suspender {{title}}? Las llamadas, los SMS y los datos se detienen hasta que se reactive la línea.",
      "resources.lines.confirm.restore": "¿Reactivar {{title}}? Las llamadas, los SMS y los datos vuelven a funcionar.",
      "resources.lines.confirm.lockNumber": "¿Bloquear {{title}} para portabilidad? Mientras esté bloqueado, nadie puede llevarse el número a otra compañía ni cambiar su SIM.",
      "resources.lines.confirm.unlockNumber": "¿Desbloquear {{title}}? El número podrá llevarse a otra compañía y su SIM cambiarse.",
      "resources.lines.confirm.portOutPin": "¿Obtener un PIN para llevar {{title}} a otra compañía? Vale 30 días y solo se muestra una vez.",
      "resources.lines.confirm.revealPuk": "¿Ver el PUK de {{title}}? Lo necesitas para desbloquear la SIM tras tres PIN incorrectos. Se muestra una vez y queda registrado.",
      "resources.lines.confirm.swapSim": "¿Cambiar la SIM de {{title}}? La SIM actual deja de funcionar al momento.",
      "resources.lines.preview.suspend": "{{msisdn}} se suspenderá ahora.",
      "resources.lines.preview.suspendStops": "Las llamadas, los SMS y los datos se detienen en esta línea.",
      "resources.lines.preview.suspendRestore": "Puedes reactivarla aquí cuando quieras.",
      "resources.lines.preview.suspendLostRestore": "Para reactivarla te pediremos que confirmes que eres tú.",
      "resources.lines.preview.noCharge": "Sin coste.",
      "resources.lines.preview.swapToEsim": "{{msisdn}} pasa a una eSIM nueva.",
      "resources.lines.preview.swapToPhysical": "{{msisdn}} pasa a la SIM que termina en {{iccid}}.",
      "resources.lines.preview.oldSimStops": "La SIM actual deja de funcionar al momento.",
      "resources.lines.preview.scanQr": "Escanea con el teléfono el código QR que verás a continuación para instalar la eSIM.",
      "resources.lines.preview.insertSim": "Pon la SIM nueva en el teléfono y reinícialo.",
      "resources.lines.iccidHelp": "Los 19 o 20 dígitos impresos en la tarjeta SIM nueva, que empiezan por 89.",
      "fields.numberLocked": "Bloqueado para portabilidad",
      "fields.portOutPinExpiresAt": "PIN de portabilidad válido hasta",
      "fields.portOutPin": "PIN de portabilidad",
      "fields.validUntil": "Válido hasta",
      "fields.puk": "PUK",
      "fields.newSimType": "SIM nueva",
      "fields.newIccid": "Número de la SIM nueva (ICCID)",
      "fields.activationCode": "Código de activación de la eSIM",
    },
  },
});
