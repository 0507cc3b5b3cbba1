import { sql } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { APP_VERSION } from "#config/operator";
import type { Database } from "../db/client";
import type { ReadRouter } from "../db/readReplicas";
import { routeSchema } from "../openapi/routeDoc";

const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  operator: z.string(),
  database: z.object({ driver: z.enum(["pglite", "postgres"]), ok: z.boolean(), latencyMs: z.number() }),
  /** Hot standbys (DATABASE_READ_URLS), when configured: how many answer within the lag limit. Reads fall back to the primary, so none usable is not "degraded". */
  readReplicas: z.object({ configured: z.number().int(), usable: z.number().int() }).optional(),
});

/** GET /api/health: public, cheap, and honest about the database. */
export const healthRoutes =
  (database: Database, operator: string, readReplicas?: ReadRouter): FastifyPluginCallbackZod =>
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
        const replicas = readReplicas?.status();
        return reply.code(ok ? 200 : 503).send({
          status: ok ? "ok" : "degraded",
          version: APP_VERSION,
          operator,
          database: { driver: database.driver, ok, latencyMs },
          ...(replicas
            ? { readReplicas: { configured: replicas.length, usable: replicas.filter((r) => r.usable).length } }
            : {}),
        });
      },
    );
    done();
  };
