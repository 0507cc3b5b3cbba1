import { and, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope } from "#resources/access";
import { bulkJobSchema, bulkJobsResource, importDryRunSchema, newBulkJobSchema } from "#resources/bulkJobs";
import { checkImport } from "./importLines";
import { recordAudit } from "../../audit";
import { bulkJobItems, bulkJobs, lines } from "../../db/schema";
import { forbidden, ProblemError } from "../../errors";
import { localeOf } from "../../i18n/requestLocale";
import { textIn, words } from "../../i18n/words";
import { writeHeadersSchema } from "../../engine/routeParts";
import type { EngineServices } from "../../engine/services";
import { claimIdempotencyKey, hashRequest, sendReplay } from "../../lib/idempotency";
import { publishAfterCommit } from "../../live/eventBus";
import { errorResponses, problemSchema } from "../../routes/common";
import { BULK_JOB_RUN } from "./runner";

/**
 * `POST /bulk-jobs`: the record API cannot express it, because the job's items are written with it
 * and its work is queued after the commit (pg-boss never runs inside a Drizzle transaction). Every
 * line must be one of the operator's (else 404 naming it, nothing written). Answers 202 with the
 * queued job; its progress is `GET /bulk-jobs/{id}` and live events.
 */
export const bulkJobRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db, events } = services;
    app.post(
      "/bulk-jobs",
      {
        schema: {
          tags: ["bulk-jobs"],
          operationId: "createBulkJobs",
          summary: "Suspend or restore a selection of lines in the background, with a reason",
          description:
            "Staff only. Each line is changed in its own transaction, audited with the reason, and its holder notified. Cancel with the cancel action. Audited.",
          headers: writeHeadersSchema,
          body: newBulkJobSchema,
          response: {
            200: importDryRunSchema,
            202: bulkJobSchema,
            ...errorResponses,
            409: problemSchema,
            422: problemSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (!accessScope(principal, bulkJobsResource, "create"))
          throw forbidden(words("bulkJobs.roleMayNotStart", { role: words(`bulkJobs.role.${principal.role}`) }));
        const body = request.body;
        // A dry run of an import: every row checked, the errors listed, nothing written.
        if (body.kind === "import-lines" && body.dryRun) {
          const checked = await checkImport(db, principal.operator, body.csv, principal.uid);
          const locale = localeOf(request.headers);
          return reply.code(200).send({
            dryRun: true as const,
            total: checked.length,
            valid: checked.filter((c) => c.data).length,
            errors: checked.flatMap((c) => c.errors.map((e) => ({ ...e, message: textIn(locale, e.message) }))),
          });
        }
        const key = request.headers["idempotency-key"];
        const idempotency = key
          ? {
              actorUid: principal.uid,
              key,
              route: "POST /api/v1/bulk-jobs",
              requestHash: hashRequest({ body: request.body, operator: principal.operator }),
            }
          : undefined;

        const done = await db.transaction(async (tx) => {
          const claim = idempotency ? await claimIdempotencyKey(tx, idempotency) : undefined;
          if (claim?.kind === "replay") return { replay: claim };
          const { kind, reason } = body;
          type Item = {
            targetId: string;
            data: Record<string, unknown> | null;
            status: "pending" | "failed";
            error: string | null;
          };
          let items: Item[];
          let params: Record<string, unknown> = {};
          if (body.kind === "import-lines") {
            // Rows with errors are kept as failed items (the dry run listed them); the valid ones are created in the background.
            const checked = await checkImport(tx, principal.operator, body.csv, principal.uid);
            items = checked.map((c) => ({
              targetId: `row ${c.row}`,
              data: c.data,
              status: c.data ? "pending" : "failed",
              // Stored for whoever reads the job later: in English (issue 25 leaves stored sentences as they are).
              error: c.errors.length ? c.errors.map((e) => `${e.field}: ${textIn("en", e.message)}`).join("; ") : null,
            }));
          } else {
            const { lineIds, suspendReason } = body;
            const found = await tx
              .select({ id: lines.id })
              .from(lines)
              .where(and(eq(lines.operatorCode, principal.operator), inArray(lines.id, lineIds)));
            const known = new Set(found.map((l) => l.id));
            const missing = lineIds.map((id, i) => ({ id, i })).filter(({ id }) => !known.has(id));
            if (missing.length)
              throw new ProblemError(
                404,
                words("bulkJobs.linesMissing"),
                missing.map(({ i }) => ({ path: `lineIds.${i}`, message: words("bulkJobs.field.noSuchLine") })),
              );
            items = lineIds.map((targetId) => ({ targetId, data: null, status: "pending", error: null }));
            if (suspendReason) params = { suspendReason };
          }
          const failed = items.filter((i) => i.status === "failed").length;
          const [job] = await tx
            .insert(bulkJobs)
            .values({
              operatorCode: principal.operator,
              kind,
              reason,
              params,
              total: items.length,
              done: failed,
              failed,
              createdBy: principal.uid,
              createdByRole: principal.role,
            })
            .returning();
          await tx.insert(bulkJobItems).values(items.map((item, position) => ({ jobId: job!.id, position, ...item })));
          const record = bulkJobSchema.parse({
            ...job,
            items: items.map(({ targetId, status, error }, position) => ({ position, targetId, status, error })),
            createdAt: job!.createdAt.toISOString(),
            updatedAt: job!.updatedAt.toISOString(),
          });
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "bulk-jobs.create",
            targetType: "bulk-jobs",
            targetId: job!.id,
            before: null,
            after: { kind, total: items.length, failed },
            reason,
            requestId: request.id,
          });
          if (claim) await claim.complete(202, record);
          return { record };
        });
        if (done.replay) return sendReplay(reply, done.replay);
        await publishAfterCommit(events, request.log, {
          operator: principal.operator,
          resource: "bulk-jobs",
          type: "created",
          ids: [done.record.id],
          ownerUids: [],
          at: new Date().toISOString(),
        });
        // Durable from here: pg-boss keeps the message; if it is lost, the minute sweep resumes the job.
        await services.jobs
          ?.send(BULK_JOB_RUN, { jobId: done.record.id })
          .catch((error: unknown) =>
            request.log.error({ err: error }, "bulk job not queued; the sweep will pick it up"),
          );
        return reply.code(202).send(done.record);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
