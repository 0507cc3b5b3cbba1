import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { MAX_INGEST_BATCH, usageBatchResultSchema, usageBatchSchema } from "#resources/usage";
import { authenticateService, type ServiceKeys } from "../auth/serviceKeys";
import { ingestUsage } from "../domain/usage/ingest";
import { publishAll } from "../engine/routeParts";
import type { EngineServices } from "../engine/services";
import { errorResponses, problemSchema } from "./common";
import { usageBatchValidatorCompiler } from "./usageBatchValidator";

/** 10,000 records of about 150 bytes each, with room to spare. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const serviceHeadersSchema = z.object({
  authorization: z.string().describe("ApiKey <key>: a key configured in INGEST_API_KEYS for this operator"),
  "x-operator": z.string().describe("carrier code of the operator whose lines the records are for"),
});

/**
 * POST /api/v1/usage-records/batch: the network's mediation system sends usage records. Not a
 * resource write (no person, no record API): a service path with its own API-key check, outside the
 * /api/v1 hook that admits people.
 */
export const usageIngestRoutes =
  (
    services: Pick<EngineServices, "db" | "events" | "limiter">,
    keys: ServiceKeys,
    options: { rating: boolean } = { rating: true },
  ): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.addHook("onRequest", authenticateService(keys, services.limiter));
    app.post(
      "/usage-records/batch",
      {
        bodyLimit: BODY_LIMIT_BYTES,
        validatorCompiler: usageBatchValidatorCompiler,
        schema: {
          tags: ["usage-records"],
          operationId: "ingestUsageRecords",
          summary: `Count up to ${MAX_INGEST_BATCH} usage records from mediation`,
          description:
            "Idempotent by record id: a record sent again is counted once (reported in `duplicates`). Records of numbers that are " +
            "not this operator's lines are reported in `unknownLines` and not stored. Counters per line and cycle change in the same " +
            "transaction; meters of the lines concerned update live. A malformed record refuses the whole batch (400 naming " +
            "`records.<index>.<field>`).",
          security: [{ ingestApiKey: [] }],
          headers: serviceHeadersSchema,
          body: usageBatchSchema,
          response: { 200: usageBatchResultSchema, ...errorResponses, 413: problemSchema, 429: problemSchema },
        },
      },
      async (request) => {
        const { result, events } = await ingestUsage(
          services.db,
          request.serviceOperator,
          request.body.records,
          options,
        );
        await publishAll(services.events, request.log, events);
        return result;
      },
    );
    done();
  };
