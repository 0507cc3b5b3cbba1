import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime } from "./common";

/**
 * A subscriber's request to close their account and delete their data. Care completes it
 * (server/domain/privacy): what the portal holds about the person is erased, what the law makes the
 * operator keep (invoices, the ledger, usage records, the audit trail) is kept, and the record says
 * which is which. The subscriber may withdraw it while it is open. Their data export is
 * `GET /api/v1/me/privacy-export` (a zip of JSON and CSV per table).
 */
export const PRIVACY_REQUEST_KINDS = ["close_and_delete"] as const;
export const PRIVACY_REQUEST_STATUSES = ["open", "completed", "withdrawn"] as const;

/** What the law makes the operator keep after an erasure, and why: said in the export and in every completed request. */
export const RETAINED_BY_LAW = [
  "invoices: tax and accounting law (kept 7 years)",
  "ledger_entries: accounting law (kept 7 years)",
  "accounts: the account number, name and status that invoices are issued to",
  "lines: the numbers and SIMs that invoices and usage refer to",
  "usage_records: billing disputes and telecom data-retention law",
  "audit_events: the record of who did what, for security and regulators",
] as const;

export const privacyRequestSchema = z.object({
  id: idSchema,
  kind: z.enum(PRIVACY_REQUEST_KINDS),
  note: z.string().trim().max(1000, "validation.atMostChars").nullable(),
  status: z.enum(PRIVACY_REQUEST_STATUSES),
  /** Once completed: the kinds of data erased, and what was kept with the law that requires it. */
  erased: z.array(z.string()).nullable(),
  kept: z.array(z.string()).nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

export const privacyRequestsResource = defineResource({
  name: "privacy-requests",
  label: "resources.privacy-requests.label",
  icon: "SafetyOutlined",
  schema: privacyRequestSchema,
  recordTitle: "kind",
  fields: {
    kind: { label: "fields.privacyKind", kind: "enum", options: PRIVACY_REQUEST_KINDS, labels: "enums.privacyKind" },
    note: { label: "fields.privacyNote", kind: "longText" },
    status: { label: "fields.status", kind: "enum", options: PRIVACY_REQUEST_STATUSES, labels: "enums.privacyStatus" },
    erased: { label: "fields.privacyErased", kind: "tags" },
    kept: { label: "fields.privacyKept", kind: "tags" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["kind", "status", "createdAt"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "status"],
    filters: { status: ["eq", "in"] },
  },
  show: ["kind", "note", "status", "erased", "kept", "createdAt"],
  form: { create: ["kind", "note"], edit: [] },
  defaults: { status: "open", note: null, erased: null, kept: null },
  actions: {
    complete: {
      label: "resources.privacy-requests.complete",
      handler: "privacyRequests.complete",
      when: { status: ["open"] },
      reason: "staff",
      danger: true,
      confirm: "resources.privacy-requests.confirmComplete",
    },
    withdraw: {
      label: "resources.privacy-requests.withdraw",
      set: { status: "withdrawn" },
      when: { status: ["open"] },
    },
  },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    create: { subscriber: "own" },
    complete: { agent: "all", admin: "all" },
    withdraw: { subscriber: "own" },
  },
  ownership: { path: "createdBy" },
  source: "backend",
  audit: true,
  indexes: ["status"],
  messages: {
    en: {
      "resources.privacy-requests.label": "Privacy requests",
      "resources.privacy-requests.complete": "Close and delete",
      "resources.privacy-requests.confirmComplete":
        "The account is closed, the person can no longer sign in, and their data is deleted, except what the law makes us keep. This cannot be undone.",
      "resources.privacy-requests.withdraw": "Withdraw",
      "fields.privacyKind": "Request",
      "fields.privacyNote": "Anything we should know",
      "fields.privacyErased": "Deleted",
      "fields.privacyKept": "Kept by law",
      "enums.privacyKind.close_and_delete": "Close my account and delete my data",
      "enums.privacyStatus.open": "Open",
      "enums.privacyStatus.completed": "Completed",
      "enums.privacyStatus.withdrawn": "Withdrawn",
    },
    es: {
      "resources.privacy-requests.label": "Solicitudes de privacidad",
      "resources.privacy-requests.complete": "Cerrar y borrar",
      "resources.privacy-requests.confirmComplete":
        "La cuenta se cierra, la persona ya no puede iniciar sesión y sus datos se borran, salvo lo que la ley nos obliga a conservar. No se puede deshacer.",
      "resources.privacy-requests.withdraw": "Retirar",
      "fields.privacyKind": "Solicitud",
      "fields.privacyNote": "Algo que debamos saber",
      "fields.privacyErased": "Borrado",
      "fields.privacyKept": "Conservado por ley",
      "enums.privacyKind.close_and_delete": "Cerrar mi cuenta y borrar mis datos",
      "enums.privacyStatus.open": "Abierta",
      "enums.privacyStatus.completed": "Completada",
      "enums.privacyStatus.withdrawn": "Retirada",
    },
  },
});
