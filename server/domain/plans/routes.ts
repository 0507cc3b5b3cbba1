import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { plansResource } from "#resources/plans";
import { notFound } from "../../errors";
import { words } from "../../i18n/words";
import { quoteSchema } from "../../engine/actionRoutes";
import { findRecordRow } from "../../engine/records";
import type { EngineServices } from "../../engine/services";
import { apiHeadersSchema, errorResponses, idParamsSchema, problemSchema } from "../../routes/common";
import { priceChangeQuote } from "./priceChange";
// module.ts registers these routes; the binding is read only when a request comes.
import { planRecords } from "./records";

/**
 * GET /plans/{id}/price-change-preview?amount=…[&currency=…]: the quote of change-price as a plain
 * read (the brief names this form). The same function answers `POST …/actions/change-price/preview`;
 * whoever may change the price may ask (admins), and another operator's plan is 404.
 */
export const planPriceRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      "/plans/:id/price-change-preview",
      {
        schema: {
          tags: ["plans"],
          operationId: "getPlanPriceChangePreview",
          summary: "How many lines a price change would touch, and from when; changes nothing",
          description: "The same quote as POST /plans/{id}/actions/change-price/preview. Admins only.",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          querystring: z
            .object({
              amount: z.coerce.number().int("whole minor units (cents)").nonnegative("zero or more").max(10_000_000),
              currency: z
                .string()
                .regex(/^[A-Z]{3}$/, "an ISO 4217 code")
                .optional(),
            })
            .strict(),
          response: { 200: quoteSchema, ...errorResponses, 409: problemSchema, 422: problemSchema },
        },
      },
      async (request) => {
        const { principal } = request;
        const row = await findRecordRow(
          services.db,
          plansResource,
          planRecords,
          principal,
          "change-price",
          request.params.id,
        );
        if (!row) throw notFound(words("plans.noSuchRecord"));
        const { amount, currency } = request.query;
        return priceChangeQuote(services.db, principal.operator, row, { amount, currency: currency ?? row.currency });
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
