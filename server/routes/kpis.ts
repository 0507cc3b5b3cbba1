import { eq } from "drizzle-orm";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { kpiQuerySchema, kpiReportSchema } from "#resources/kpis";
import { operators } from "../db/schema";
import { forbidden } from "../errors";
import { words } from "../i18n/words";
import type { EngineServices } from "../engine/services";
import { operatorKpis } from "../domain/kpis/operatorKpis";
import { apiHeadersSchema, errorResponses } from "./common";

/**
 * GET /kpis: the business over a period for the operator's admins (active, new and churned lines,
 * top-ups and payments per day, ARPU, open tickets by age). Derived figures, not records: no list or
 * write API, so a route rather than a resource; it reads only the caller's operator.
 */
export const kpiRoutes =
  (services: Pick<EngineServices, "reader">): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.get(
      "/kpis",
      {
        schema: {
          tags: ["kpis"],
          operationId: "getKpis",
          summary: "The operator's KPIs over a period of whole days (admins only)",
          description: "Days are the operator's time zone, both ends included, at most 366. Amounts are minor units.",
          headers: apiHeadersSchema,
          querystring: kpiQuerySchema,
          response: { 200: kpiReportSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { principal } = request;
        if (principal.role !== "admin") throw forbidden(words("routes.kpis.adminsOnly"));
        // Figures over days may lag a little: a hot standby answers them when there is one.
        const db = services.reader(principal);
        const [operator] = await db
          .select({ code: operators.code, timezone: operators.timezone, currency: operators.currency })
          .from(operators)
          .where(eq(operators.code, principal.operator));
        if (!operator) throw forbidden(words("routes.unknownOperator"));
        return operatorKpis(db, operator, request.query);
      },
    );
    done();
  };
