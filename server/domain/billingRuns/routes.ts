import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { billingRunInputSchema, billingRunResultSchema, BILLING_RUN_MAX_DAYS } from "#resources/billingRuns";
import { recordAudit } from "../../audit";
import { forbidden, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { writeHeadersSchema } from "../../engine/routeParts";
import type { EngineServices } from "../../engine/services";
import { hashRequest, reserveIdempotencyKey, sendReplay } from "../../lib/idempotency";
import { errorResponses, problemSchema } from "../../routes/common";
import { runBillingDay } from "./run";

const DAY_MS = 86_400_000;

/**
 * `POST /billing-runs` `{asOf}`: an admin runs the carrier's daily job for their operator as of a day
 * (prepaid renewals, grace endings, postpaid cycle close, overdue marking, add-on renewals), the very
 * code the daily job runs. Idempotent by construction (a second run for the day changes nothing and
 * answers zeros); an Idempotency-Key replays the first answer. Audited.
 */
export const billingRunRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    app.post(
      "/billing-runs",
      {
        schema: {
          tags: ["billing-runs"],
          operationId: "createBillingRuns",
          summary: "Run the carrier's daily billing job as of a day (admins only)",
          description:
            "Prepaid renewals due, grace endings, postpaid cycle close, overdue marking and add-on renewals of the caller's operator as of `asOf` (UTC day, within a year of today). Answers what this call changed; running it again for the same day changes nothing and answers zeros. Audited.",
          headers: writeHeadersSchema,
          body: billingRunInputSchema,
          response: { 200: billingRunResultSchema, ...errorResponses, 409: problemSchema, 422: problemSchema },
        },
      },
      async (request, reply) => {
        const { principal } = request;
        if (principal.role !== "admin") throw forbidden(words("billingRuns.adminsOnly"));
        const { asOf } = request.body;
        const distance =
          Math.abs(Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`)) /
          DAY_MS;
        if (!(distance <= BILLING_RUN_MAX_DAYS))
          throw unprocessable(words("billingRuns.dayOutOfRange", { days: BILLING_RUN_MAX_DAYS }), [
            { path: "asOf", message: words("billingRuns.dayOutOfRangeField", { days: BILLING_RUN_MAX_DAYS }) },
          ]);

        const key = request.headers["idempotency-key"];
        const reservation = key
          ? await reserveIdempotencyKey(services.db, {
              actorUid: principal.uid,
              key,
              route: "POST /api/v1/billing-runs",
              requestHash: hashRequest({ body: request.body, operator: principal.operator }),
            })
          : undefined;
        if (reservation?.kind === "replay") return sendReplay(reply, reservation);
        let result;
        try {
          result = await runBillingDay(services, { operatorCode: principal.operator, asOf, log: request.log });
        } catch (error) {
          if (reservation?.kind === "new") await reservation.release();
          throw error;
        }
        await services.db.transaction(async (tx) => {
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "billing-runs.run",
            targetType: "billing-runs",
            targetId: null,
            before: null,
            after: { asOf, ...result },
            reason: null,
            requestId: request.id,
          });
          if (reservation?.kind === "new") await reservation.complete(tx, 200, result);
        });
        return reply.code(200).send(result);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
