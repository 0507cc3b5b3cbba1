import { z } from "zod";
import { defineResource } from "./define";
import { idSchema, isoDateTime, reasonSchema } from "./common";
import { e164Schema } from "./common";
import { iccidSchema, SELF_SUSPEND_REASONS, SIM_TYPES } from "./lines";

/** What a bulk job does to each of its items. */
export const BULK_JOB_KINDS = ["suspend-lines", "restore-lines", "import-lines"] as const;
/** The kinds over a selection of existing lines. */
export const LINE_SELECTION_KINDS = ["suspend-lines", "restore-lines"] as const;
/** queued → running → completed; cancelled by staff while queued or running. */
export const BULK_JOB_STATUSES = ["queued", "running", "completed", "cancelled"] as const;
/** One item: pending until the worker reaches it; never redone once succeeded or failed. */
export const BULK_ITEM_STATUSES = ["pending", "succeeded", "failed", "cancelled"] as const;
/** Most lines one job may hold. */
export const MAX_BULK_ITEMS = 500;

export const bulkJobItemSchema = z.object({
  position: z.number().int().nonnegative(),
  targetId: z.string(),
  status: z.enum(BULK_ITEM_STATUSES),
  error: z.string().nullable(),
  /**
   * The number and SIM of the item's line (an import row: those it names); null when unknown. Left
   * out of the answer to POST (optional, not defaulted: a default would take every job read off the
   * response check's fast path, server/lib/responseSerializer.ts).
   */
  msisdn: z.string().nullable().optional(),
  iccid: z.string().nullable().optional(),
});

/** A background job of staff over a selection of lines, with its progress and per-item results. */
export const bulkJobSchema = z.object({
  id: idSchema,
  kind: z.enum(BULK_JOB_KINDS),
  status: z.enum(BULK_JOB_STATUSES),
  reason: z.string(),
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  createdBy: z.string(),
  items: z.array(bulkJobItemSchema),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type BulkJob = z.output<typeof bulkJobSchema>;

/** The columns of a line import, in its header row (any order). */
export const IMPORT_COLUMNS = ["accountId", "msisdn", "iccid", "simType", "planId", "cycleDay"] as const;
/** Most rows one import may hold. */
export const MAX_IMPORT_ROWS = 5_000;

/** One row of a line import, as its cells are checked (each error names the column). */
export const importRowSchema = z.object({
  accountId: idSchema,
  msisdn: e164Schema,
  iccid: iccidSchema,
  simType: z.enum(SIM_TYPES, "physical or esim"),
  planId: idSchema,
  cycleDay: z.coerce
    .number("a whole number from 1 to 28")
    .int("a whole number from 1 to 28")
    .min(1, "validation.dayOfMonth")
    .max(28, "validation.dayOfMonth"),
});
export type ImportRow = z.output<typeof importRowSchema>;

/** One refusal of a dry run: the row of the file (the header is row 1), the column, why. */
export const importRowErrorSchema = z.object({
  row: z.number().int().positive(),
  field: z.string(),
  message: z.string(),
});

/** What a dry run of an import answers: nothing was written. */
export const importDryRunSchema = z.object({
  dryRun: z.literal(true),
  total: z.number().int().nonnegative(),
  valid: z.number().int().nonnegative(),
  errors: z.array(importRowErrorSchema),
});

/** `kind: "import-lines"`: the CSV text; `dryRun` lists every row's errors and writes nothing. */
const importLinesJob = z
  .object({
    kind: z.literal("import-lines"),
    csv: z.string().min(1, "validation.csvText").max(2_000_000, "validation.csvTooLarge"),
    dryRun: z.boolean().default(false),
    reason: reasonSchema,
  })
  .strict();

/** Suspend or restore a selection of lines. */
const lineSelectionJob = z
  .object({
    kind: z.enum(LINE_SELECTION_KINDS, "one of suspend-lines, restore-lines, import-lines"),
    lineIds: z
      .array(idSchema)
      .min(1, "validation.selectLine")
      .max(MAX_BULK_ITEMS, "validation.atMostLines")
      .refine((ids) => new Set(ids).size === ids.length, "validation.eachLineOnce"),
    reason: reasonSchema,
    /** For suspend-lines: the reason code kept on each line (request unless given). */
    suspendReason: z.enum(SELF_SUSPEND_REASONS, "one of lost, stolen, request").optional(),
  })
  .strict();

/** What `POST /bulk-jobs` takes. */
export const newBulkJobSchema = z.discriminatedUnion("kind", [lineSelectionJob, importLinesJob], {
  error: () => "validation.bulkKind",
});

export const bulkJobsResource = defineResource({
  name: "bulk-jobs",
  store: "table",
  label: "resources.bulk-jobs.label",
  icon: "ThunderboltOutlined",
  schema: bulkJobSchema,
  recordTitle: "kind",
  fields: {
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    kind: { label: "fields.bulkKind", kind: "enum", options: BULK_JOB_KINDS, labels: "enums.bulkKind" },
    status: { label: "fields.status", kind: "enum", options: BULK_JOB_STATUSES, labels: "enums.bulkStatus" },
    reason: { label: "fields.reason", kind: "text" },
    total: { label: "fields.bulkTotal", kind: "number" },
    done: { label: "fields.bulkDone", kind: "number" },
    failed: { label: "fields.bulkFailed", kind: "number" },
    createdBy: { label: "fields.actor", kind: "text" },
  },
  list: {
    columns: ["createdAt", "kind", "status", "total", "done", "failed", "reason"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "status"],
    filters: { status: ["eq", "in"], kind: ["eq"] },
  },
  show: ["kind", "status", "reason", "total", "done", "failed", "createdBy", "createdAt"],
  actions: {
    cancel: {
      label: "resources.bulk-jobs.actions.cancel",
      handler: "bulkJobs.cancel",
      when: { status: ["queued", "running"] },
      danger: true,
      confirm: "resources.bulk-jobs.confirm.cancel",
    },
  },
  access: {
    list: { agent: "all", admin: "all" },
    show: { agent: "all", admin: "all" },
    // POST /bulk-jobs is the module's own route: it validates every line and queues the background job.
    create: { agent: "all", admin: "all" },
    cancel: { agent: "all", admin: "all" },
  },
  source: "backend",
  audit: true,
  messages: {
    en: {
      "resources.bulk-jobs.label": "Bulk jobs",
      "resources.bulk-jobs.actions.cancel": "Cancel job",
      "resources.bulk-jobs.confirm.cancel":
        "Cancel this job? Lines already changed stay changed; the rest are left alone.",
      "resources.bulk-jobs.progress": "{{done}} of {{total}} done ({{failed}} failed)",
      "resources.bulk-jobs.start": "Bulk action",
      "resources.bulk-jobs.selected": "{{count}} lines selected",
      "resources.bulk-jobs.submit": "Start",
      "fields.bulkKind": "Job",
      "fields.bulkTotal": "Items",
      "fields.bulkDone": "Done",
      "fields.bulkFailed": "Failed",
      "fields.bulkItemError": "Error",
      "enums.bulkKind.suspend-lines": "Suspend lines",
      "enums.bulkKind.restore-lines": "Restore lines",
      "enums.bulkKind.import-lines": "Import lines and SIMs",
      "enums.bulkStatus.queued": "Queued",
      "enums.bulkStatus.running": "Running",
      "enums.bulkStatus.completed": "Completed",
      "enums.bulkStatus.cancelled": "Cancelled",
      "enums.bulkItemStatus.pending": "Pending",
      "enums.bulkItemStatus.succeeded": "Done",
      "enums.bulkItemStatus.failed": "Failed",
      "enums.bulkItemStatus.cancelled": "Cancelled",
    },
    es: {
      "resources.bulk-jobs.label": "Trabajos masivos",
      "resources.bulk-jobs.actions.cancel": "Cancelar trabajo",
      "resources.bulk-jobs.confirm.cancel":
        "¿Cancelar este trabajo? Las líneas ya cambiadas se quedan así; el resto no se toca.",
      "resources.bulk-jobs.progress": "{{done}} de {{total}} hechas ({{failed}} con error)",
      "resources.bulk-jobs.start": "Acción masiva",
      "resources.bulk-jobs.selected": "{{count}} líneas seleccionadas",
      "resources.bulk-jobs.submit": "Iniciar",
      "fields.bulkKind": "Trabajo",
      "fields.bulkTotal": "Elementos",
      "fields.bulkDone": "Hechos",
      "fields.bulkFailed": "Con error",
      "fields.bulkItemError": "Error",
      "enums.bulkKind.suspend-lines": "Suspender líneas",
      "enums.bulkKind.restore-lines": "Reactivar líneas",
      "enums.bulkKind.import-lines": "Importar líneas y SIM",
      "enums.bulkStatus.queued": "En cola",
      "enums.bulkStatus.running": "En curso",
      "enums.bulkStatus.completed": "Terminado",
      "enums.bulkStatus.cancelled": "Cancelado",
      "enums.bulkItemStatus.pending": "Pendiente",
      "enums.bulkItemStatus.succeeded": "Hecho",
      "enums.bulkItemStatus.failed": "Con error",
      "enums.bulkItemStatus.cancelled": "Cancelado",
    },
  },
});
