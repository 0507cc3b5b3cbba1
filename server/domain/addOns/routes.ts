import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { lineAddOnSchema } from "#resources/addOns";
import { linesResource } from "#resources/lines";
import { notFound } from "../../errors";
import { words } from "../../i18n/words";
import { findRecordRow } from "../../engine/records";
import type { EngineServices } from "../../engine/services";
import { apiHeadersSchema, errorResponses, idParamsSchema } from "../../routes/common";
import { linesModule } from "../lines/module";
import { activeAddOnsOf } from "./purchases";

/**
 * GET /lines/{id}/add-ons: the add-ons counting on a line now (with their purchase id, which
 * stop-add-on-renewal takes), for anyone who may open the line. Derived, like the meters.
 */
export const lineAddOnRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      "/lines/:id/add-ons",
      {
        schema: {
          tags: ["lines"],
          operationId: "getLineAddOns",
          summary: "The add-ons counting on the line now, soonest to expire first",
          description: "404 when the line is not yours.",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: { 200: z.array(lineAddOnSchema), ...errorResponses },
        },
      },
      async (request) => {
        const row = await findRecordRow(
          services.db,
          linesResource,
          linesModule,
          request.principal,
          "show",
          request.params.id,
        );
        if (!row) throw notFound(words("lines.noSuchRecord"));
        return activeAddOnsOf(services.db, request.params.id);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
