import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope } from "#resources/access";
import {
  createdVoucherBatchSchema,
  newVoucherBatchSchema,
  voucherBatchesResource,
  voucherCodesCsv,
} from "#resources/voucherBatches";
import { recordAudit } from "../../audit";
import { operators } from "../../db/schema";
import { forbidden, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { writeHeadersSchema } from "../../engine/routeParts";
import { selectRecords } from "../../engine/recordQuery";
import type { EngineServices } from "../../engine/services";
import { claimIdempotencyKey, hashRequest, sendReplay } from "../../lib/idempotency";
import { publishAfterCommit } from "../../live/eventBus";
import { errorResponses, problemSchema } from "../../routes/common";
import { createVoucherBatch } from "../money/vouchers";
import { toVoucherBatch, voucherBatchRecords } from "./records";

/**
 * `POST /voucher-batches`: the record API cannot express it because the answer carries the codes,
 * shown this once (never stored: only their hashes are). With `Accept: text/csv` the same answer is
 * a CSV download. An Idempotency-Key makes a retry create nothing more: it replays the batch
 * without its codes (they were shown once).
 */
export const voucherBatchRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db, events } = services;
    app.post(
      "/voucher-batches",
      {
        schema: {
          tags: ["voucher-batches"],
          operationId: "createVoucherBatches",
          summary: "Generate a batch of prepaid vouchers; the codes are in this answer only",
          description:
            "Admins only. Answers the batch with its codes (JSON), or the codes as CSV with `Accept: text/csv`. Codes are stored hashed and never shown again; a retry with the same Idempotency-Key replays the batch without codes. Audited.",
          headers: writeHeadersSchema,
          body: newVoucherBatchSchema,
          response: { 201: createdVoucherBatchSchema, ...errorResponses, 409: problemSchema, 422: problemSchema },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (!accessScope(principal, voucherBatchesResource, "create"))
          throw forbidden(words("voucherBatches.roleMayNotCreate", { role: principal.role }));
        const { count, value, expiresOn } = request.body;
        const [operator] = await db
          .select({ currency: operators.currency })
          .from(operators)
          .where(eq(operators.code, principal.operator));
        if (value.currency !== operator!.currency)
          throw unprocessable(words("voucherBatches.currency", { currency: operator!.currency }), [
            {
              path: "value.currency",
              message: words("voucherBatches.mustBeCurrency", { currency: operator!.currency }),
            },
          ]);
        const key = request.headers["idempotency-key"];
        const idempotency = key
          ? {
              actorUid: principal.uid,
              key,
              route: "POST /api/v1/voucher-batches",
              requestHash: hashRequest({ body: request.body, operator: principal.operator }),
            }
          : undefined;

        const done = await db.transaction(async (tx) => {
          const claim = idempotency ? await claimIdempotencyKey(tx, idempotency) : undefined;
          if (claim?.kind === "replay") return { replay: claim };
          const { id, codes } = await createVoucherBatch(tx, {
            operatorCode: principal.operator,
            count,
            valueAmount: value.amount,
            currency: value.currency,
            expiresOn,
            createdBy: principal.uid,
          });
          const [row] = await selectRecords(voucherBatchRecords.source, tx).where(
            eq(voucherBatchRecords.source.id, id),
          );
          const batch = toVoucherBatch(row!);
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "voucher-batches.create",
            targetType: "voucher-batches",
            targetId: id,
            before: null,
            after: batch,
            reason: null,
            requestId: request.id,
          });
          // What a replay answers: the batch, without its codes.
          if (claim) await claim.complete(201, { ...batch, codes: [] });
          return { batch, codes };
        });
        if (done.replay) return sendReplay(reply, done.replay);
        await publishAfterCommit(events, request.log, {
          operator: principal.operator,
          resource: "voucher-batches",
          type: "created",
          ids: [done.batch.id],
          ownerUids: [],
          at: new Date().toISOString(),
        });
        reply.header("cache-control", "no-store");
        if (/\btext\/csv\b/.test(request.headers.accept ?? "")) {
          return reply
            .code(201)
            .type("text/csv; charset=utf-8")
            .header("content-disposition", `attachment; filename="vouchers-${done.batch.id}.csv"`)
            .serializer((payload: unknown) => payload as string)
            .send(voucherCodesCsv(done.batch, done.codes) as never);
        }
        return reply.code(201).send({ ...done.batch, codes: done.codes });
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
