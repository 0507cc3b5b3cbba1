import { and, asc, eq } from "drizzle-orm";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { profileSchema, profileStateSchema, type Profile } from "#resources/profile";
import { recordAudit } from "../audit";
import { accounts, subscriberProfiles } from "../db/schema";
import type { EngineServices } from "../engine/services";
import { apiHeadersSchema, errorResponses } from "./common";

/**
 * The caller's own profile: name, contact email and phone, postal address, language. One per person
 * and only ever their own (like /me and /me/consent), so not a resource. Until saved, it is
 * prefilled from the person's first account.
 */
export const profileRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db } = services;

    app.get(
      "/me/profile",
      {
        schema: {
          tags: ["identity"],
          summary: "The caller's profile (prefilled from their first account until saved)",
          headers: apiHeadersSchema,
          response: { 200: profileStateSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { uid, operator } = request.principal;
        const [row] = await db
          .select({ details: subscriberProfiles.details })
          .from(subscriberProfiles)
          .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid)));
        if (row?.details) return { profile: row.details as Profile, saved: true };
        const [account] = await db
          .select({ name: accounts.name, email: accounts.email, phone: accounts.phone })
          .from(accounts)
          .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)))
          .orderBy(asc(accounts.createdAt))
          .limit(1);
        return {
          profile: {
            name: account?.name ?? "",
            contactEmail: account?.email ?? null,
            contactPhone: account?.phone ?? null,
            address: null,
            language: "en" as const,
          },
          saved: false,
        };
      },
    );

    app.put(
      "/me/profile",
      {
        schema: {
          tags: ["identity"],
          summary: "Save the caller's profile; every field is checked, and a bad one is named",
          headers: apiHeadersSchema,
          body: profileSchema,
          response: { 200: profileStateSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { uid, operator, role } = request.principal;
        const details = request.body;
        await db.transaction(async (tx) => {
          const [row] = await tx
            .select({ details: subscriberProfiles.details })
            .from(subscriberProfiles)
            .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid)))
            .for("update");
          await tx
            .insert(subscriberProfiles)
            .values({ operatorCode: operator, uid, details })
            .onConflictDoUpdate({
              target: [subscriberProfiles.operatorCode, subscriberProfiles.uid],
              set: { details, updatedAt: new Date() },
            });
          await recordAudit(tx, {
            operator,
            actorUid: uid,
            actorRole: role,
            action: "profile.update",
            targetType: "user",
            targetId: uid,
            before: row?.details ?? null,
            after: details,
            requestId: request.id,
          });
        });
        return { profile: details, saved: true };
      },
    );
    done();
  };
