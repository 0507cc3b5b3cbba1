import { and, eq } from "drizzle-orm";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import {
  notificationPreferencesSchema,
  notificationPreferencesUpdateSchema,
  type NotificationPreferences,
} from "#resources/notificationPreferences";
import { recordAudit } from "../audit";
import { notificationPreferences } from "../db/schema";
import type { EngineServices } from "../engine/services";
import { apiHeadersSchema, errorResponses } from "./common";

type Row = typeof notificationPreferences.$inferSelect;

const toPreferences = (row: Row | undefined): NotificationPreferences => ({
  usage80: { email: row?.usageAlertsByEmail ?? false, sms: row?.usageAlertsBySms ?? false },
  usage100: { email: row?.usageLimitByEmail ?? false, sms: row?.usageLimitBySms ?? false },
});

/**
 * The caller's own choices of how usage alerts reach them beyond the inbox: email and SMS per alert
 * kind (80 % and 100 % of an allowance). Messages go through the outbox (server/domain/outbox).
 * One value per person, only ever their own (like /me/consent), so not a resource.
 */
export const notificationPreferenceRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db } = services;
    const read = async (operator: string, uid: string) =>
      (
        await db
          .select()
          .from(notificationPreferences)
          .where(and(eq(notificationPreferences.operatorCode, operator), eq(notificationPreferences.uid, uid)))
      )[0];

    app.get(
      "/me/notification-preferences",
      {
        schema: {
          tags: ["identity"],
          operationId: "getNotificationPreferences",
          summary:
            "How the caller's usage alerts reach them beyond the inbox: email and SMS per alert kind (all off until chosen)",
          headers: apiHeadersSchema,
          response: { 200: notificationPreferencesSchema, ...errorResponses },
        },
      },
      async (request) => toPreferences(await read(request.principal.operator, request.principal.uid)),
    );

    app.put(
      "/me/notification-preferences",
      {
        schema: {
          tags: ["identity"],
          operationId: "putNotificationPreferences",
          summary: "Change how the caller's usage alerts reach them; kinds left out keep their choice. Audited.",
          headers: apiHeadersSchema,
          body: notificationPreferencesUpdateSchema,
          response: { 200: notificationPreferencesSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { uid, operator, role } = request.principal;
        return db.transaction(async (tx) => {
          const [row] = await tx
            .select()
            .from(notificationPreferences)
            .where(and(eq(notificationPreferences.operatorCode, operator), eq(notificationPreferences.uid, uid)))
            .for("update");
          const before = toPreferences(row);
          const after = { ...before, ...request.body };
          const values = {
            usageAlertsByEmail: after.usage80.email,
            usageAlertsBySms: after.usage80.sms,
            usageLimitByEmail: after.usage100.email,
            usageLimitBySms: after.usage100.sms,
          };
          await tx
            .insert(notificationPreferences)
            .values({ operatorCode: operator, uid, ...values })
            .onConflictDoUpdate({
              target: [notificationPreferences.operatorCode, notificationPreferences.uid],
              set: { ...values, updatedAt: new Date() },
            });
          await recordAudit(tx, {
            operator,
            actorUid: uid,
            actorRole: role,
            action: "notification-preferences.update",
            targetType: "user",
            targetId: uid,
            before,
            after,
            requestId: request.id,
          });
          return after;
        });
      },
    );
    done();
  };
