import { and, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { RETAINED_BY_LAW } from "#resources/privacyRequests";
import { recordAudit } from "../../audit";
import { resourceDocuments, storedFiles } from "../../db/schema";
import type { DeclaredResource } from "../../lib/declaredResource";
import type { ActionHandler, DomainModule } from "../../engine/types";
import type { EngineServices } from "../../engine/services";
import { conflict } from "../../errors";
import { words } from "../../i18n/words";
import { documentModule } from "../../generic/documentModule";
import { apiHeadersSchema, errorResponses } from "../../routes/common";
import { collectSubscriberData } from "./collect";
import { eraseSubscriber } from "./erase";
import { buildExportZip } from "./exportZip";

type DocumentRow = typeof resourceDocuments.$inferSelect;

/**
 * Privacy requests are documents (the generic module) with two domain rules: one open request per
 * person, and completing one erases the person's data (the `privacyRequests.complete` handler).
 * The data export is an extra route: `GET /me/privacy-export`, the caller's own data as a zip.
 */
export function privacyRequestsModule(resource: DeclaredResource): DomainModule {
  const module = documentModule(resource);
  const baseWriter = module.writer!;
  return {
    ...module,
    writer: {
      ...module.writer,
      async create(ctx, body, owners) {
        const [open] = await ctx.tx
          .select({ id: resourceDocuments.id })
          .from(resourceDocuments)
          .where(
            and(
              eq(resourceDocuments.operatorCode, ctx.principal.operator),
              eq(resourceDocuments.resource, resource.name),
              eq(resourceDocuments.createdBy, ctx.principal.uid),
              sql`${resourceDocuments.data}->>'status' = 'open'`,
            ),
          )
          .limit(1);
        if (open)
          throw conflict(words("privacy.alreadyOpen"), [{ path: "kind", message: words("privacy.field.alreadyOpen") }]);
        return baseWriter.create!(ctx, body, owners);
      },
    },
    extraRoutes: (services) => exportRoutes(services),
  };
}

export const completePrivacyRequest: ActionHandler<DocumentRow> = {
  async run(ctx) {
    const uid = ctx.row.createdBy!;
    const operator = ctx.row.operatorCode;
    const { erased, storageKeys } = await eraseSubscriber(ctx.tx, operator, uid);
    await ctx.tx
      .update(resourceDocuments)
      .set({
        data: { ...ctx.row.data, status: "completed", erased, kept: [...RETAINED_BY_LAW] },
        updatedAt: new Date(),
      })
      .where(eq(resourceDocuments.id, ctx.row.id));
    // The person can no longer sign in, everywhere at once; if this fails, nothing above is kept.
    if (ctx.services.auth) {
      await ctx.services.auth.updateUser(uid, { disabled: true });
      await ctx.services.auth.revokeRefreshTokens(uid);
      // This instance forgets the user's cached tokens at once; the others are told over the database,
      // which is not awaited here: on PGlite that message waits for this transaction's connection.
      void ctx.services.invalidation.forgetUser(uid);
    }
    // Bytes last: a failure here leaves unreachable bytes (no row points at them), never a row without bytes.
    const store = ctx.services.files?.store;
    if (store) for (const key of storageKeys) await store.delete(key).catch(() => undefined);
  },
};

const exportRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    app.get(
      "/me/privacy-export",
      {
        schema: {
          tags: ["privacy-requests"],
          operationId: "exportMyData",
          summary:
            "Everything the portal holds about the caller: a zip of JSON and CSV per table, their files, and what is kept by law",
          headers: apiHeadersSchema,
          response: { 200: z.unknown().describe("application/zip"), ...errorResponses },
        },
      },
      async (request, reply) => {
        const { uid, operator, role } = request.principal;
        const tables = await collectSubscriberData(services.db, operator, uid);
        const files: { name: string; bytes: Uint8Array }[] = [];
        const store = services.files?.store;
        if (store) {
          const stored = await services.db
            .select({ id: storedFiles.id, name: storedFiles.name, key: storedFiles.storageKey })
            .from(storedFiles)
            .where(and(eq(storedFiles.operatorCode, operator), eq(storedFiles.ownerUid, uid)));
          for (const file of stored) {
            const bytes = await store.get(file.key);
            if (bytes) files.push({ name: `${file.id}-${file.name.replace(/[^\w.\- ]+/g, "_")}`, bytes });
          }
        }
        const zip = buildExportZip(tables, files);
        await recordAudit(services.db, {
          operator,
          actorUid: uid,
          actorRole: role,
          action: "privacy.export",
          targetType: "user",
          targetId: uid,
          requestId: request.id,
        });
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .header("content-type", "application/zip")
          .header("content-disposition", `attachment; filename="my-data-${day}.zip"`)
          .header("cache-control", "private, no-store")
          .send(Buffer.from(zip));
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
