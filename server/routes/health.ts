import { sql } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { APP_VERSION } from "#config/operator";
import type { Database } from "../db/client";
import { routeSchema } from "../openapi/routeDoc";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  operator: z.string(),
  database: z.object({ driver: z.enum(["pglite", "postgres"]), ok: z.boolean(), latencyMs: z.number() }),
});

/** GET /api/health: public, cheap, and honest about the database. */
export const healthRoutes =
  (database: Database, operator: string): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.get(
      "/api/health",
      {
        schema: routeSchema(
          {
            operationId: "getHealth",
            summary: "Whether this backend and its database answer (no sign-in)",
            tag: "health",
          },
          { security: [], response: { 200: healthSchema, 503: healthSchema } },
        ),
      },
      async (_request, reply) => {
        const started = performance.now();
        let ok = true;
        try {
          await database.db.execute(sql`select 1`);
        } catch {
          ok = false;
        }
        const latencyMs = Math.round((performance.now() - started) * 100) / 100;
        return reply.code(ok ? 200 : 503).send({
          status: ok ? "ok" : "degraded",
          version: APP_VERSION,
          operator,
          database: { driver: database.driver, ok, latencyMs },
        });
      },
    );
    done();
  };
