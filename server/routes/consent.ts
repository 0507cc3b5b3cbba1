import { and, eq } from "drizzle-orm";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { consentSchema, consentStateSchema } from "#resources/consent";
import { recordAudit } from "../audit";
import { subscriberProfiles } from "../db/schema";
import type { EngineServices } from "../engine/services";
import { apiHeadersSchema, errorResponses } from "./common";

/**
 * The caller's own consent to third-party services, kept on their profile so it follows them to
 * another device. Not a resource: one value per person, only ever their own (like /me).
 */
export const consentRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db } = services;

    app.get(
      "/me/consent",
      {
        schema: {
          tags: ["identity"],
          summary:
            "The caller's stored consent to the operator's third-party services (null: never chosen while signed in)",
          headers: apiHeadersSchema,
          response: { 200: consentStateSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { uid, operator } = request.principal;
        const [row] = await db
          .select({ consent: subscriberProfiles.consent })
          .from(subscriberProfiles)
          .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid)));
        return { consent: row?.consent ?? null };
      },
    );

    app.put(
      "/me/consent",
      {
        schema: {
          tags: ["identity"],
          summary:
            "Store the caller's consent; an older choice than the stored one is ignored (the newer decision wins)",
          headers: apiHeadersSchema,
          body: consentSchema,
          response: { 200: consentStateSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { uid, operator, role } = request.principal;
        const next = {
          analytics: request.body.analytics,
          chat: request.body.chat,
          decidedAt: new Date(request.body.decidedAt).toISOString(),
        };
        return db.transaction(async (tx) => {
          const [row] = await tx
            .select({ consent: subscriberProfiles.consent })
            .from(subscriberProfiles)
            .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid)))
            .for("update");
          const before = row?.consent ?? null;
          // Two devices may sync out of order: the later decision stands.
          if (before && Date.parse(before.decidedAt) >= Date.parse(next.decidedAt)) return { consent: before };
          await tx
            .insert(subscriberProfiles)
            .values({ operatorCode: operator, uid, consent: next })
            .onConflictDoUpdate({
              target: [subscriberProfiles.operatorCode, subscriberProfiles.uid],
              set: { consent: next, updatedAt: new Date() },
            });
          await recordAudit(tx, {
            operator,
            actorUid: uid,
            actorRole: role,
            action: "consent.update",
            targetType: "user",
            targetId: uid,
            before,
            after: next,
            requestId: request.id,
          });
          return { consent: next };
        });
      },
    );
    done();
  };
