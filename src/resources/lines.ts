import { z } from "zod";
import { planTranslationsRecordSchema } from "./catalogTranslations";
import { defineResource } from "./define";
import { e164Schema, idSchema, isoDate, isoDateTime } from "./common";
import { PLAN_KINDS } from "./plans";
import { addressSchema } from "./profile";
import { usMsisdnSchema } from "./numberInventory";
import { SHOPPING_WHEN } from "./lineShopping";

/**
 * `grace`: a prepaid line whose renewal the balance could not cover on its cycle day (issue 24): for
 * 7 days only top-ups, emergency calls and incoming service, until `graceEndsOn`; then it is
 * suspended (non_payment). A top-up that covers the price renews it at once.
 */
export const LINE_STATUSES = ["pending", "active", "grace", "suspended", "terminated"] as const;
export const SUSPEND_REASONS = ["lost", "stolen", "non_payment", "request"] as const;
/** The reasons a person may give; non_payment is the billing system's. */
export const SELF_SUSPEND_REASONS = ["lost", "stolen", "request"] as const;
export const SIM_TYPES = ["physical", "esim"] as const;
/** When a plan change takes effect: at once (prorated) or at the start of the next cycle (no charge now). */
export const PLAN_CHANGE_EFFECTIVE = ["now", "next-cycle"] as const;

/** When a cancellation takes effect: at once, or when the current cycle ends (issue 28). */
export const CANCEL_WHEN = ["now", "cycle-end"] as const;

/** An ICCID: 19 or 20 digits starting with 89 (the telecom industry prefix). */
export const iccidSchema = z.string().regex(/^89\d{17,18}$/, "validation.iccid");

/** A mobile line (TM Forum Product/Service) with the names of its plan and account joined in. */
export const lineSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  accountName: z.string(),
  accountType: z.enum(PLAN_KINDS),
  msisdn: e164Schema,
  /** Null while a posted SIM has not been activated (a pending new line). */
  iccid: iccidSchema.nullable(),
  simType: z.enum(SIM_TYPES),
  planId: idSchema,
  planName: z.string(),
  /** The plan's Spanish name (issue 25), so the subscriber's line page reads in their language. */
  planTranslations: planTranslationsRecordSchema,
  status: z.enum(LINE_STATUSES),
  suspendReason: z.enum(SUSPEND_REASONS).nullable(),
  cycleDay: z.number().int().min(1).max(28),
  /** In grace (prepaid, renewal unpaid): the day the line is suspended unless a top-up covers its plan; null otherwise. */
  graceEndsOn: isoDate.nullable(),
  /** While locked, port-out PINs and SIM swaps are refused (fraud protection). */
  numberLocked: z.boolean(),
  /** Until when the last port-out PIN is valid; null when none is. The PIN itself is never returned again. */
  portOutPinExpiresAt: isoDateTime.nullable(),
  /** Usage past the allowance is charged at the plan's rates; off = it stops at the allowance (issue 24). */
  payAsYouGo: z.boolean(),
  /** The owner's monthly data limit of this line in MB; null = none (issue 28, set-cap). */
  dataCapMb: z.number().int().nonnegative().nullable(),
  /** The day a cancellation scheduled for the end of a cycle ends the line; null when none is scheduled. */
  cancelsOn: isoDate.nullable(),
  /** Whether a cancellation is scheduled (`cancelsOn` is set): what `cancel` and `keep-line` are offered by. */
  cancellationScheduled: z.boolean(),
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
    graceEndsOn: { label: "fields.graceEndsOn", kind: "date" },
    numberLocked: { label: "fields.numberLocked", kind: "boolean" },
    portOutPinExpiresAt: { label: "fields.portOutPinExpiresAt", kind: "datetime" },
    payAsYouGo: { label: "fields.payAsYouGo", kind: "boolean" },
    dataCapMb: { label: "fields.dataCapMb", kind: "dataMb" },
    cancelsOn: { label: "fields.cancelsOn", kind: "date" },
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
  show: [
    "msisdn",
    "status",
    "suspendReason",
    "graceEndsOn",
    "cancelsOn",
    "planName",
    "accountName",
    "accountType",
    "simType",
    "iccid",
    "numberLocked",
    "portOutPinExpiresAt",
    "payAsYouGo",
    "dataCapMb",
    "cycleDay",
    "createdAt",
  ],
  actions: {
    suspend: {
      label: "resources.lines.actions.suspend",
      about: "resources.lines.about.suspend",
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
      about: "resources.lines.about.restore",
      handler: "lines.restore",
      when: { status: ["suspended"] },
      reauth: { roles: ["subscriber"], when: { suspendReason: ["lost", "stolen"] } },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.restore",
    },
    "lock-number": {
      label: "resources.lines.actions.lockNumber",
      about: "resources.lines.about.lockNumber",
      handler: "lines.lockNumber",
      when: { numberLocked: [false] },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.lockNumber",
    },
    "unlock-number": {
      label: "resources.lines.actions.unlockNumber",
      about: "resources.lines.about.unlockNumber",
      handler: "lines.unlockNumber",
      when: { numberLocked: [true] },
      reauth: { roles: ["subscriber"] },
      reason: STAFF_REASON,
      danger: true,
      confirm: "resources.lines.confirm.unlockNumber",
    },
    "port-out-pin": {
      label: "resources.lines.actions.portOutPin",
      about: "resources.lines.about.portOutPin",
      handler: "lines.portOutPin",
      when: { status: ["active", "grace", "suspended"] },
      reauth: { roles: ["subscriber"] },
      confirm: "resources.lines.confirm.portOutPin",
      result: {
        schema: z.object({ pin: z.string().regex(/^\d{6}$/), expiresAt: isoDateTime }),
        fields: {
          pin: { label: "fields.portOutPin", kind: "secret" },
          expiresAt: { label: "fields.validUntil", kind: "datetime" },
        },
        once: true,
      },
    },
    "reveal-puk": {
      label: "resources.lines.actions.revealPuk",
      about: "resources.lines.about.revealPuk",
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
      about: "resources.lines.about.changePlan",
      handler: "lines.changePlan",
      when: SHOPPING_WHEN,
      input: z.object({
        planId: idSchema,
        effective: z.enum(PLAN_CHANGE_EFFECTIVE, "now or next-cycle").default("now"),
      }),
      inputFields: {
        // A line moves only between plans on sale of its own kind (the server refuses prepaid ↔ postpaid here).
        planId: {
          label: "fields.newPlan",
          kind: "reference",
          reference: { resource: "plans", matching: { kind: "accountType" }, where: { status: "active" } },
        },
        effective: {
          label: "fields.changeEffective",
          kind: "enum",
          options: PLAN_CHANGE_EFFECTIVE,
          labels: "enums.changeEffective",
        },
      },
      preview: true,
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.changePlan",
    },
    "buy-add-on": {
      label: "resources.lines.actions.buyAddOn",
      about: "resources.lines.about.buyAddOn",
      handler: "lines.buyAddOn",
      when: SHOPPING_WHEN,
      input: z.object({ addOnId: idSchema, autoRenew: z.boolean("true or false").default(false) }),
      inputFields: {
        addOnId: {
          label: "fields.addOn",
          kind: "reference",
          reference: { resource: "add-ons", where: { status: "active" } },
        },
        autoRenew: { label: "fields.autoRenew", kind: "boolean" },
      },
      preview: true,
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.buyAddOn",
    },
    "stop-add-on-renewal": {
      label: "resources.lines.actions.stopAddOnRenewal",
      about: "resources.lines.about.stopAddOnRenewal",
      handler: "lines.stopAddOnRenewal",
      input: z.object({ addOnPurchaseId: idSchema }),
      inputFields: { addOnPurchaseId: { label: "fields.addOnPurchase", kind: "text" } },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.stopAddOnRenewal",
    },
    "set-overage": {
      label: "resources.lines.actions.setOverage",
      about: "resources.lines.about.setOverage",
      handler: "lines.setOverage",
      input: z.object({ payAsYouGo: z.boolean("true or false") }).strict(),
      inputFields: {
        payAsYouGo: { label: "fields.payAsYouGo", kind: "boolean", help: "resources.lines.payAsYouGoHelp" },
      },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.setOverage",
      done: "resources.lines.done.setOverage",
    },
    "set-cap": {
      label: "resources.lines.actions.setCap",
      about: "resources.lines.about.setCap",
      handler: "lines.setCap",
      when: { status: ["pending", "active", "grace", "suspended"] },
      // Whole MB, 0 or more; null removes the limit. Below what the line used this cycle: 422 at dataMb.
      input: z
        .object({
          dataMb: z
            .number("validation.wholeMb")
            .int("validation.wholeMb")
            .nonnegative("validation.wholeMb")
            .max(10_000_000, "validation.atMostMb")
            .nullable(),
        })
        .strict(),
      inputFields: { dataMb: { label: "fields.dataCapMb", kind: "dataMb", help: "resources.lines.setCapHelp" } },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.setCap",
    },
    "order-sim": {
      label: "resources.lines.actions.orderSim",
      about: "resources.lines.about.orderSim",
      handler: "lines.orderSim",
      when: { status: ["active", "grace", "suspended"], simType: ["physical"] },
      // A replacement physical SIM posted to a US address; the line keeps its SIM until the new one is
      // activated with "Replace SIM" (which completes this order).
      input: z.object({ address: addressSchema.partial({ line2: true }) }),
      inputFields: { address: { label: "fields.deliveryAddress", kind: "address" } },
      preview: true,
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.orderSim",
    },
    "swap-sim": {
      label: "resources.lines.actions.swapSim",
      about: "resources.lines.about.swapSim",
      handler: "lines.swapSim",
      when: { status: ["active", "grace", "suspended"] },
      // `{iccid}` for a new physical SIM, or `{simType: "esim", idDocumentFileId}` for an eSIM profile
      // we issue: moving a number to an eSIM needs the holder's ID (an upload of purpose id_document,
      // by the holder or by staff acting for them; the server checks it and keeps it on the order).
      input: z
        .object({
          simType: z.enum(SIM_TYPES).default("physical"),
          iccid: iccidSchema.optional(),
          idDocumentFileId: idSchema.optional(),
        })
        .superRefine((value, ctx) => {
          if (value.simType === "physical" && !value.iccid)
            ctx.addIssue({
              code: "custom",
              path: ["iccid"],
              message: "validation.iccidRequired",
            });
          if (value.simType === "esim" && value.iccid)
            ctx.addIssue({ code: "custom", path: ["iccid"], message: "validation.iccidNotForEsim" });
          if (value.simType === "esim" && !value.idDocumentFileId)
            ctx.addIssue({
              code: "custom",
              path: ["idDocumentFileId"],
              message: "validation.idDocumentRequired",
            });
          if (value.simType === "physical" && value.idDocumentFileId)
            ctx.addIssue({
              code: "custom",
              path: ["idDocumentFileId"],
              message: "validation.idDocumentNotForPhysical",
            });
        }),
      inputFields: {
        // An eSIM is offered only while Remote Config's esim_transfer_enabled is on (else 422, and the form leaves it out).
        simType: {
          label: "fields.newSimType",
          kind: "enum",
          options: SIM_TYPES,
          optionToggles: { esim: "esim_transfer_enabled" },
        },
        iccid: {
          label: "fields.newIccid",
          kind: "text",
          help: "resources.lines.iccidHelp",
          onlyWhen: { simType: ["physical"] },
        },
        idDocumentFileId: {
          label: "fields.idDocument",
          kind: "reference",
          reference: { resource: "files" },
          purpose: "id_document",
          help: "resources.lines.idDocumentHelp",
          onlyWhen: { simType: ["esim"] },
        },
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
        // An eSIM's activation code is issued for this one download.
        once: true,
      },
    },
    "activate-sim": {
      label: "resources.lines.actions.activateSim",
      about: "resources.lines.about.activateSim",
      handler: "lines.activateSim",
      // A new line's posted SIM, or an imported line's: billing starts now, prorated to the cycle.
      when: { status: ["pending"] },
      input: z.object({ iccid: iccidSchema }),
      inputFields: { iccid: { label: "fields.simIccid", kind: "text", help: "resources.lines.iccidHelp" } },
      preview: true,
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.activateSim",
      done: "resources.lines.done.activateSim",
    },
    "change-number": {
      label: "resources.lines.actions.changeNumber",
      about: "resources.lines.about.changeNumber",
      handler: "lines.changeNumber",
      when: { status: ["active", "grace", "suspended"] },
      // A number from the inventory (GET /number-inventory?areaCode=…): free, or reserved by this person.
      input: z.object({ msisdn: usMsisdnSchema }),
      // Picked from the free numbers of the line's own area code (another can be typed), and held while the person finishes.
      inputFields: { msisdn: { label: "fields.newMsisdn", kind: "freeNumber", nearNumber: { field: "msisdn" } } },
      preview: true,
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.changeNumber",
    },
    cancel: {
      label: "resources.lines.actions.cancel",
      about: "resources.lines.about.cancel",
      handler: "lines.cancel",
      // Not while a cancellation is already scheduled: keep-line withdraws that one first.
      when: { status: ["pending", "active", "grace", "suspended"], cancelsOn: [null] },
      input: z.object({ when: z.enum(CANCEL_WHEN, "now or cycle-end") }),
      inputFields: {
        when: { label: "fields.cancelWhen", kind: "enum", options: CANCEL_WHEN, labels: "enums.cancelWhen" },
      },
      preview: true,
      reauth: { roles: ["subscriber"] },
      reason: STAFF_REASON,
      danger: true,
      confirm: "resources.lines.confirm.cancel",
    },
    // Withdraws a cancellation scheduled for the end of the cycle: its terminate order ends cancelled.
    "keep-line": {
      label: "resources.lines.actions.keepLine",
      about: "resources.lines.about.keepLine",
      handler: "lines.keepLine",
      when: { cancellationScheduled: [true] },
      reason: STAFF_REASON,
      confirm: "resources.lines.confirm.keepLine",
      done: "resources.lines.done.keepLine",
    },
  },
  access: {
    // Agents: only subscribers who verified themselves as the caller (issue 27); admins: the back office.
    "activate-sim": { subscriber: "own", agent: "verified", admin: "all" },
    "change-number": { subscriber: "own", agent: "verified", admin: "all" },
    cancel: { subscriber: "own", agent: "verified", admin: "all" },
    "keep-line": { subscriber: "own", agent: "verified", admin: "all" },
    "change-plan": { subscriber: "own", agent: "verified", admin: "all" },
    // Subscribers see the lines of their own accounts; staff see every line of their operator.
    list: { subscriber: "own", agent: "verified", admin: "all" },
    show: { subscriber: "own", agent: "verified", admin: "all" },
    suspend: { subscriber: "own", agent: "verified", admin: "all" },
    restore: { subscriber: "own", agent: "verified", admin: "all" },
    "lock-number": { subscriber: "own", admin: "all" },
    "unlock-number": { subscriber: "own", admin: "all" },
    "port-out-pin": { subscriber: "own" },
    "reveal-puk": { subscriber: "own", agent: "verified", admin: "all" },
    "swap-sim": { subscriber: "own", agent: "verified", admin: "all" },
    "order-sim": { subscriber: "own", agent: "verified", admin: "all" },
    "buy-add-on": { subscriber: "own", agent: "verified", admin: "all" },
    "stop-add-on-renewal": { subscriber: "own", agent: "verified", admin: "all" },
    "set-overage": { subscriber: "own", agent: "verified", admin: "all" },
    // The account's owner sets a line's limit; staff for them, with a reason.
    "set-cap": { subscriber: "own", agent: "verified", admin: "all" },
  },
  ownership: {
    path: "account.ownerUid",
    // Issue 28: managers run everything on the account's lines; members only see and keep their own
    // lines working (SIM and lock), never what costs the account money or gives the number away.
    sharedWith: {
      manager: "all",
      member: [
        "list",
        "show",
        "suspend",
        "restore",
        "lock-number",
        "unlock-number",
        "reveal-puk",
        "swap-sim",
        "order-sim",
      ],
    },
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.lines.actions.activateSim": "Activate SIM",
      "resources.lines.about.activateSim": "Start the line with the SIM card we posted: type the number printed on it.",
      "resources.lines.confirm.activateSim":
        "Activate {{title}} with this SIM? The line starts working and its plan is charged from today.",
      "resources.lines.done.activateSim": "The line is active.",
      "resources.lines.preview.activateSim": "{{msisdn}} starts working on the SIM ending in {{iccid}}.",
      "fields.simIccid": "Number of the SIM (ICCID)",
      "resources.lines.actions.changeNumber": "Change number",
      "resources.lines.about.changeNumber": "Get a different phone number for this line, chosen from our free numbers.",
      "resources.lines.confirm.changeNumber":
        "Change the number of {{title}}? The current number stops working on this line at once.",
      "fields.newMsisdn": "New number",
      "resources.lines.preview.changeNumber": "{{msisdn}} becomes {{newMsisdn}} now.",
      "resources.lines.preview.oldNumberQuarantine":
        "The old number is not given to anyone else for 90 days, and cannot come back to this line.",
      "resources.lines.actions.cancel": "Cancel line",
      "resources.lines.about.cancel": "End this line, now or at the end of the billing cycle.",
      "resources.lines.confirm.cancel":
        "Cancel {{title}}? You will see what it settles before anything changes. To keep the number with another carrier, get a transfer PIN first.",
      "fields.cancelWhen": "When",
      "enums.cancelWhen.now": "Now",
      "enums.cancelWhen.cycle-end": "At the end of this cycle",
      "fields.cancelsOn": "Cancels on",
      "resources.lines.actions.keepLine": "Keep this line",
      "resources.lines.about.keepLine":
        "Withdraw the cancellation scheduled for the end of the cycle: the line goes on.",
      "resources.lines.confirm.keepLine":
        "Keep {{title}}? Its scheduled cancellation is withdrawn and the line goes on as it is.",
      "resources.lines.done.keepLine": "The line stays: its cancellation was withdrawn.",
      "orders.terminate.kept": "The line was kept: its cancellation was withdrawn.",
      "resources.lines.preview.cancelNow": "{{msisdn}} is cancelled now: calls, texts and data stop.",
      "resources.lines.preview.cancelAtCycleEnd": "{{msisdn}} keeps working until {{date}}, when it is cancelled.",
      "resources.lines.preview.finalCharge": "{{plan}} for the last {{days}} days used (of {{cycleDays}})",
      "resources.lines.preview.finalCredit": "Back for the {{days}} unused days (of {{cycleDays}}) of {{plan}}",
      "resources.lines.preview.nothingMoreForPlan": "Nothing more to pay for the plan.",
      "resources.lines.preview.addOnsEnd": "Its add-ons ({{count}}) end with it.",
      "resources.lines.preview.noAddOns": "It has no add-ons to end.",
      "resources.lines.preview.portOutFirst":
        "To keep this number with another carrier, get a transfer PIN (Get transfer PIN) and move it before you cancel.",
      "resources.lines.preview.numberQuarantine":
        "After the cancellation the number is released and cannot be brought back.",
      "resources.lines.preview.billStaysDue": "Your unpaid bill stays due.",
      "resources.lines.actions.suspend": "Suspend",
      "resources.lines.about.suspend": "Pause service, for example while the phone is lost; your number stays yours.",
      "resources.lines.about.restore": "Turn service back on after a suspension.",
      "resources.lines.about.lockNumber": "Stop anyone moving your number to another carrier.",
      "resources.lines.about.unlockNumber": "Allow your number to move to another carrier.",
      "resources.lines.about.portOutPin": "Get the PIN another carrier asks for to take your number.",
      "resources.lines.about.revealPuk": "Show the code that unblocks your SIM after three wrong PINs.",
      "resources.lines.about.orderSim": "Get a new physical SIM sent to your address.",
      "resources.lines.about.swapSim": "Move this number to a new SIM or to an eSIM on this phone.",
      "resources.lines.about.changePlan": "Move to another plan, now or from your next cycle.",
      "resources.lines.about.buyAddOn": "Add data or a roaming pass to this line.",
      "resources.lines.about.stopAddOnRenewal": "Keep an add-on until it ends, without renewing it.",
      "resources.lines.actions.setOverage": "Pay as you go",
      "resources.lines.about.setOverage":
        "Choose whether usage past your allowance is charged at your plan's rates or stops at the allowance.",
      "resources.lines.confirm.setOverage":
        "Change pay as you go on {{title}}? Off: data, calls and texts stop when the allowance is used up. On: they go on at your plan's rates.",
      "resources.lines.done.setOverage": "Pay as you go: {{payAsYouGo}}.",
      "resources.lines.actions.setCap": "Data limit",
      "resources.lines.about.setCap":
        "Set how much data this line may use each month; it stops there until the next cycle.",
      "resources.lines.confirm.setCap":
        "Change the monthly data limit of {{title}}? When it is reached, data stops on this line only until its next cycle.",
      "resources.lines.setCapHelp":
        "The most data this line may use each month. Leave it empty for no limit. It cannot be less than what the line already used this cycle.",
      "fields.dataCapMb": "Monthly data limit",
      "resources.lines.payAsYouGoHelp":
        "On: usage past the allowance is charged at your plan's rates (from your balance on prepaid, on your bill on postpaid). Off: it stops at the allowance.",
      "fields.payAsYouGo": "Pay as you go",
      "resources.lines.actions.restore": "Restore",
      "resources.lines.actions.lockNumber": "Lock number",
      "resources.lines.actions.unlockNumber": "Unlock number",
      "resources.lines.actions.portOutPin": "Get transfer PIN",
      "resources.lines.actions.revealPuk": "Show PUK",
      "resources.lines.actions.orderSim": "Order a SIM by post",
      "resources.lines.confirm.orderSim":
        "Post a new SIM for {{title}}? The current SIM keeps working until you activate the new one.",
      "resources.lines.preview.orderSim": "A new SIM for {{msisdn}} is posted to {{address}}.",
      "resources.lines.preview.simKeepsWorking":
        "Your current SIM keeps working until the new one arrives and you activate it with Replace SIM.",
      "resources.lines.preview.deliveryDays": "It usually arrives in 2 to 5 working days.",
      "fields.deliveryAddress": "Delivery address",
      "resources.lines.actions.swapSim": "Replace SIM",
      "resources.lines.actions.changePlan": "Change plan",
      "resources.lines.actions.buyAddOn": "Buy add-on",
      "resources.lines.actions.stopAddOnRenewal": "Stop renewal",
      "resources.lines.confirm.buyAddOn":
        "Buy this add-on for {{title}}? You will see the price before anything is charged.",
      "resources.lines.confirm.stopAddOnRenewal": "Stop renewing this add-on? It stays until it expires.",
      "resources.lines.preview.buyAddOn": "{{addOn}} is added to {{msisdn}} now, valid until {{date}}.",
      "resources.lines.preview.addOnPrice": "{{addOn}} ({{days}} days)",
      "resources.lines.preview.autoRenews": "Renews automatically every {{days}} days until you stop it.",
      "resources.lines.preview.noRenewal": "Does not renew.",
      "fields.addOn": "Add-on",
      "fields.addOnPurchase": "Purchased add-on",
      "fields.autoRenew": "Renew automatically",
      "resources.lines.confirm.changePlan":
        "Change the plan of {{title}}? You will see what it costs before anything changes.",
      "resources.lines.preview.changePlanNow": "{{msisdn}} moves to {{plan}} now.",
      "resources.lines.preview.changePlanNextCycle":
        "{{msisdn}} moves to {{plan}} when the next cycle starts on {{date}}.",
      "resources.lines.preview.creditOldPlan": "Credit for the {{days}} unused days (of {{cycleDays}}) of {{plan}}",
      "resources.lines.preview.chargeNewPlan": "{{plan}} for the {{days}} remaining days (of {{cycleDays}})",
      "resources.lines.preview.noChargeNow": "Nothing is charged now.",
      "resources.lines.preview.chargeOnNextBill": "The difference is charged on your next bill.",
      "resources.lines.preview.chargeOnNextBill.forStaff": "The difference is charged on the customer's next bill.",
      "resources.lines.preview.creditOnNextBill": "The difference comes off your next bill.",
      "resources.lines.preview.creditOnNextBill.forStaff": "The difference comes off the customer's next bill.",
      "resources.lines.preview.newMonthlyPrice": "New monthly price from the next cycle",
      "fields.newPlan": "New plan",
      "fields.changeEffective": "When",
      "enums.changeEffective.now": "Now (prorated)",
      "enums.changeEffective.next-cycle": "At the next cycle",
      "resources.lines.confirm.suspend": "Suspend {{title}}? Calls, texts and data stop until the line is restored.",
      "resources.lines.confirm.restore": "Restore {{title}}? Calls, texts and data start again.",
      "resources.lines.confirm.lockNumber":
        "Lock {{title}} against transfers? While locked, nobody can move the number to another carrier or replace its SIM.",
      "resources.lines.confirm.unlockNumber":
        "Unlock {{title}}? The number can then be moved to another carrier and its SIM replaced.",
      "resources.lines.confirm.portOutPin":
        "Get a PIN to move {{title}} to another carrier? It is valid for 30 days and shown only once.",
      "resources.lines.confirm.revealPuk":
        "Show the PUK of {{title}}? You need it to unblock the SIM after three wrong PINs. It is shown once and the viewing is recorded.",
      "resources.lines.confirm.swapSim": "Replace the SIM of {{title}}? The old SIM stops working at once.",
      "resources.lines.preview.suspend": "{{msisdn}} will be suspended now.",
      "resources.lines.preview.suspendStops": "Calls, texts and data stop on this line.",
      "resources.lines.preview.suspendRestore": "You can restore it here at any time.",
      "resources.lines.preview.suspendLostRestore": "To restore it, you will be asked to confirm it is you.",
      // Staff restoring it are not asked (the action's reauth is for subscribers).
      "resources.lines.preview.suspendLostRestore.forStaff":
        "It can be restored here at any time. If the customer restores it, they are asked to confirm their identity.",
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
      "fields.idDocument": "Your ID (photo or scan)",
      "resources.lines.idDocumentHelp":
        "Moving a number to an eSIM needs a photo or scan of the holder's ID (passport, driver's license or state ID): PDF, PNG, JPEG, WebP or HEIC. Only you and our staff can open it.",
      "fields.activationCode": "eSIM activation code",
      "fields.graceEndsOn": "Grace period until",
    },
    es: {
      "resources.lines.actions.activateSim": "Activar SIM",
      "resources.lines.about.activateSim":
        "Pon en marcha la línea con la tarjeta SIM que te enviamos: escribe el número impreso en ella.",
      "resources.lines.confirm.activateSim":
        "¿Activar {{title}} con esta SIM? La línea empieza a funcionar y su plan se cobra desde hoy.",
      "resources.lines.done.activateSim": "La línea está activa.",
      "resources.lines.preview.activateSim": "{{msisdn}} empieza a funcionar con la SIM que termina en {{iccid}}.",
      "fields.simIccid": "Número de la SIM (ICCID)",
      "resources.lines.actions.changeNumber": "Cambiar número",
      "resources.lines.about.changeNumber":
        "Obtén otro número de teléfono para esta línea, elegido entre nuestros números libres.",
      "resources.lines.confirm.changeNumber":
        "¿Cambiar el número de {{title}}? El número actual deja de funcionar en esta línea al momento.",
      "fields.newMsisdn": "Número nuevo",
      "resources.lines.preview.changeNumber": "{{msisdn}} pasa a ser {{newMsisdn}} ahora.",
      "resources.lines.preview.oldNumberQuarantine":
        "El número anterior no se da a nadie durante 90 días y no puede volver a esta línea.",
      "resources.lines.actions.cancel": "Dar de baja la línea",
      "resources.lines.about.cancel": "Termina esta línea, ahora o al final del ciclo de facturación.",
      "resources.lines.confirm.cancel":
        "¿Dar de baja {{title}}? Verás lo que se liquida antes de que cambie nada. Para conservar el número con otra compañía, pide antes un PIN de portabilidad.",
      "fields.cancelWhen": "Cuándo",
      "enums.cancelWhen.now": "Ahora",
      "enums.cancelWhen.cycle-end": "Al final de este ciclo",
      "fields.cancelsOn": "Fecha de baja",
      "resources.lines.actions.keepLine": "Conservar esta línea",
      "resources.lines.about.keepLine": "Retira la baja programada para el final del ciclo: la línea sigue.",
      "resources.lines.confirm.keepLine":
        "¿Conservar {{title}}? Se retira su baja programada y la línea sigue como está.",
      "resources.lines.done.keepLine": "La línea se queda: se retiró su baja.",
      "orders.terminate.kept": "Se conservó la línea: se retiró su baja.",
      "resources.lines.preview.cancelNow":
        "{{msisdn}} se da de baja ahora: las llamadas, los SMS y los datos se detienen.",
      "resources.lines.preview.cancelAtCycleEnd":
        "{{msisdn}} sigue funcionando hasta el {{date}}, cuando se da de baja.",
      "resources.lines.preview.finalCharge": "{{plan}} por los últimos {{days}} días usados (de {{cycleDays}})",
      "resources.lines.preview.finalCredit":
        "Devolución por los {{days}} días no usados (de {{cycleDays}}) de {{plan}}",
      "resources.lines.preview.nothingMoreForPlan": "No hay nada más que pagar por el plan.",
      "resources.lines.preview.addOnsEnd": "Sus complementos ({{count}}) terminan con ella.",
      "resources.lines.preview.noAddOns": "No tiene complementos que terminar.",
      "resources.lines.preview.portOutFirst":
        "Para conservar este número con otra compañía, pide un PIN de portabilidad (Obtener PIN de portabilidad) y llévatelo antes de dar de baja la línea.",
      "resources.lines.preview.numberQuarantine": "Tras la baja, el número se libera y no se puede recuperar.",
      "resources.lines.preview.billStaysDue": "Tu factura pendiente sigue por pagar.",
      "resources.lines.actions.suspend": "Suspender",
      "resources.lines.about.suspend":
        "Pausa el servicio, por ejemplo si perdiste el teléfono; el número sigue siendo tuyo.",
      "resources.lines.about.restore": "Vuelve a activar el servicio tras una suspensión.",
      "resources.lines.about.lockNumber": "Impide que alguien lleve tu número a otro operador.",
      "resources.lines.about.unlockNumber": "Permite llevar tu número a otro operador.",
      "resources.lines.about.portOutPin": "Obtén el PIN que pide otro operador para llevarse tu número.",
      "resources.lines.about.revealPuk": "Muestra el código que desbloquea tu SIM tras tres PIN erróneos.",
      "resources.lines.about.orderSim": "Recibe una SIM física nueva en tu dirección.",
      "resources.lines.about.swapSim": "Pasa este número a una SIM nueva o a una eSIM en este teléfono.",
      "resources.lines.about.changePlan": "Cambia a otro plan, ahora o desde tu próximo ciclo.",
      "resources.lines.about.buyAddOn": "Añade datos o un pase de roaming a esta línea.",
      "resources.lines.about.stopAddOnRenewal": "Conserva un complemento hasta que termine, sin renovarlo.",
      "resources.lines.actions.setOverage": "Pagar por uso",
      "resources.lines.about.setOverage":
        "Elige si el consumo más allá de lo incluido se cobra con las tarifas de tu plan o se detiene al agotarlo.",
      "resources.lines.confirm.setOverage":
        "¿Cambiar el pago por uso de {{title}}? Desactivado: los datos, las llamadas y los SMS se detienen al agotar lo incluido. Activado: siguen con las tarifas de tu plan.",
      "resources.lines.done.setOverage": "Pagar por uso: {{payAsYouGo}}.",
      "resources.lines.actions.setCap": "Límite de datos",
      "resources.lines.about.setCap":
        "Fija cuántos datos puede usar esta línea cada mes; se detienen ahí hasta el próximo ciclo.",
      "resources.lines.confirm.setCap":
        "¿Cambiar el límite mensual de datos de {{title}}? Al alcanzarlo, los datos se detienen solo en esta línea hasta su próximo ciclo.",
      "resources.lines.setCapHelp":
        "Lo máximo que esta línea puede usar de datos cada mes. Déjalo vacío para no tener límite. No puede ser menor que lo que la línea ya usó en este ciclo.",
      "fields.dataCapMb": "Límite mensual de datos",
      "resources.lines.payAsYouGoHelp":
        "Activado: el consumo más allá de lo incluido se cobra con las tarifas de tu plan (de tu saldo en prepago, en tu factura en pospago). Desactivado: se detiene al agotar lo incluido.",
      "fields.payAsYouGo": "Pagar por uso",
      "resources.lines.actions.restore": "Reactivar",
      "resources.lines.actions.lockNumber": "Bloquear número",
      "resources.lines.actions.unlockNumber": "Desbloquear número",
      "resources.lines.actions.portOutPin": "Obtener PIN de portabilidad",
      "resources.lines.actions.revealPuk": "Ver PUK",
      "resources.lines.actions.orderSim": "Pedir una SIM por correo",
      "resources.lines.confirm.orderSim":
        "¿Enviar una SIM nueva para {{title}}? La SIM actual sigue funcionando hasta que actives la nueva.",
      "resources.lines.preview.orderSim": "Se envía una SIM nueva para {{msisdn}} a {{address}}.",
      "resources.lines.preview.simKeepsWorking":
        "Tu SIM actual sigue funcionando hasta que llegue la nueva y la actives con Cambiar SIM.",
      "resources.lines.preview.deliveryDays": "Suele llegar en 2 a 5 días laborables.",
      "fields.deliveryAddress": "Dirección de entrega",
      "resources.lines.actions.swapSim": "Cambiar SIM",
      "resources.lines.actions.changePlan": "Cambiar de plan",
      "resources.lines.actions.buyAddOn": "Comprar complemento",
      "resources.lines.actions.stopAddOnRenewal": "Dejar de renovar",
      "resources.lines.confirm.buyAddOn":
        "¿Comprar este complemento para {{title}}? Verás el precio antes de que se cobre nada.",
      "resources.lines.confirm.stopAddOnRenewal": "¿Dejar de renovar este complemento? Sigue activo hasta que caduque.",
      "resources.lines.preview.buyAddOn": "{{addOn}} se añade a {{msisdn}} ahora, válido hasta el {{date}}.",
      "resources.lines.preview.addOnPrice": "{{addOn}} ({{days}} días)",
      "resources.lines.preview.autoRenews": "Se renueva automáticamente cada {{days}} días hasta que lo detengas.",
      "resources.lines.preview.noRenewal": "No se renueva.",
      "fields.addOn": "Complemento",
      "fields.addOnPurchase": "Complemento comprado",
      "fields.autoRenew": "Renovar automáticamente",
      "resources.lines.confirm.changePlan":
        "¿Cambiar el plan de {{title}}? Verás lo que cuesta antes de que cambie nada.",
      "resources.lines.preview.changePlanNow": "{{msisdn}} pasa al plan {{plan}} ahora.",
      "resources.lines.preview.changePlanNextCycle":
        "{{msisdn}} pasa al plan {{plan}} cuando empiece el próximo ciclo, el {{date}}.",
      "resources.lines.preview.creditOldPlan": "Abono por los {{days}} días no usados (de {{cycleDays}}) de {{plan}}",
      "resources.lines.preview.chargeNewPlan": "{{plan}} por los {{days}} días restantes (de {{cycleDays}})",
      "resources.lines.preview.noChargeNow": "No se cobra nada ahora.",
      "resources.lines.preview.chargeOnNextBill": "La diferencia se cobra en tu próxima factura.",
      "resources.lines.preview.chargeOnNextBill.forStaff": "La diferencia se cobra en la próxima factura del cliente.",
      "resources.lines.preview.creditOnNextBill": "La diferencia se descuenta de tu próxima factura.",
      "resources.lines.preview.creditOnNextBill.forStaff":
        "La diferencia se descuenta de la próxima factura del cliente.",
      "resources.lines.preview.newMonthlyPrice": "Nuevo precio mensual desde el próximo ciclo",
      "fields.newPlan": "Plan nuevo",
      "fields.changeEffective": "Cuándo",
      "enums.changeEffective.now": "Ahora (prorrateado)",
      "enums.changeEffective.next-cycle": "En el próximo ciclo",
      "resources.lines.confirm.suspend":
        "¿Suspender {{title}}? Las llamadas, los SMS y los datos se detienen hasta que se reactive la línea.",
      "resources.lines.confirm.restore": "¿Reactivar {{title}}? Las llamadas, los SMS y los datos vuelven a funcionar.",
      "resources.lines.confirm.lockNumber":
        "¿Bloquear {{title}} para portabilidad? Mientras esté bloqueado, nadie puede llevarse el número a otra compañía ni cambiar su SIM.",
      "resources.lines.confirm.unlockNumber":
        "¿Desbloquear {{title}}? El número podrá llevarse a otra compañía y su SIM cambiarse.",
      "resources.lines.confirm.portOutPin":
        "¿Obtener un PIN para llevar {{title}} a otra compañía? Vale 30 días y solo se muestra una vez.",
      "resources.lines.confirm.revealPuk":
        "¿Ver el PUK de {{title}}? Lo necesitas para desbloquear la SIM tras tres PIN incorrectos. Se muestra una vez y queda registrado.",
      "resources.lines.confirm.swapSim": "¿Cambiar la SIM de {{title}}? La SIM actual deja de funcionar al momento.",
      "resources.lines.preview.suspend": "{{msisdn}} se suspenderá ahora.",
      "resources.lines.preview.suspendStops": "Las llamadas, los SMS y los datos se detienen en esta línea.",
      "resources.lines.preview.suspendRestore": "Puedes reactivarla aquí cuando quieras.",
      "resources.lines.preview.suspendLostRestore": "Para reactivarla te pediremos que confirmes que eres tú.",
      "resources.lines.preview.suspendLostRestore.forStaff":
        "Se puede reactivar aquí en cualquier momento. Si la reactiva el cliente, se le pedirá que confirme su identidad.",
      "resources.lines.preview.noCharge": "Sin coste.",
      "resources.lines.preview.swapToEsim": "{{msisdn}} pasa a una eSIM nueva.",
      "resources.lines.preview.swapToPhysical": "{{msisdn}} pasa a la SIM que termina en {{iccid}}.",
      "resources.lines.preview.oldSimStops": "La SIM actual deja de funcionar al momento.",
      "resources.lines.preview.scanQr":
        "Escanea con el teléfono el código QR que verás a continuación para instalar la eSIM.",
      "resources.lines.preview.insertSim": "Pon la SIM nueva en el teléfono y reinícialo.",
      "resources.lines.iccidHelp": "Los 19 o 20 dígitos impresos en la tarjeta SIM nueva, que empiezan por 89.",
      "fields.numberLocked": "Bloqueado para portabilidad",
      "fields.portOutPinExpiresAt": "PIN de portabilidad válido hasta",
      "fields.portOutPin": "PIN de portabilidad",
      "fields.validUntil": "Válido hasta",
      "fields.puk": "PUK",
      "fields.newSimType": "SIM nueva",
      "fields.newIccid": "Número de la SIM nueva (ICCID)",
      "fields.idDocument": "Tu identificación (foto o escaneo)",
      "resources.lines.idDocumentHelp":
        "Pasar un número a una eSIM requiere una foto o un escaneo de la identificación del titular (pasaporte, licencia de conducir o identificación estatal): PDF, PNG, JPEG, WebP o HEIC. Solo tú y nuestro personal pueden abrirla.",
      "fields.activationCode": "Código de activación de la eSIM",
      "fields.graceEndsOn": "Período de gracia hasta",
    },
  },
});
