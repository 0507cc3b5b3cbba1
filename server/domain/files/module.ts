import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileSchema, filesResource, fileUploadQuerySchema, type StoredFile } from "#resources/files";
import { callerNotVerified } from "../../engine/records";
import { verifiedUntilOf } from "../callerVerification/verification";
import { accessScope, isStaff } from "#resources/access";
import { recordAudit } from "../../audit";
import { storedFiles } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import type { EngineServices } from "../../engine/services";
import { badRequest, notFound, ProblemError, unavailable } from "../../errors";
import { words } from "../../i18n/words";
import { EXTENSIONS, sniffContentType } from "../../files/sniff";
import { apiHeadersSchema, errorResponses, problemSchema } from "../../routes/common";
import { attachedToHoldersTicket } from "../tickets/attachments";
import { idDocumentOfHoldersOrder } from "./idDocuments";
import { heldBy, tableSource } from "../tableSource";
import { DEFAULT_UPLOAD_QUOTA, enforceUploadQuota } from "./uploadQuota";
import { logReadOf } from "../accessLog/accessLog";

type FileRow = typeof storedFiles.$inferSelect;

const toRecord = (row: FileRow): StoredFile => ({
  id: row.id,
  name: row.name,
  contentType: row.contentType as StoredFile["contentType"],
  size: row.size,
  purpose: row.purpose,
  ownerUid: row.ownerUid,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A name safe in a Content-Disposition header: no quotes, slashes or control characters, with the sniffed type's extension. */
function downloadName(row: FileRow): string {
  const base = row.name.replace(/[^\w.\- ]+/g, "_").slice(0, 120) || "file";
  const extension = EXTENSIONS[row.contentType as keyof typeof EXTENSIONS];
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}

/**
 * Uploaded files. The record API lists and shows them (own for subscribers, all of the operator
 * for staff); two routes it cannot express carry the bytes:
 * - `POST /files?name=…&purpose=…` with the raw bytes as the body (any Content-Type: the type is
 *   sniffed from the bytes; PDF, PNG, JPEG, WebP, HEIC), at most the configured size: 201 + record.
 * - `GET /files/{id}/content`: the bytes, to the owner, the operator's staff and (for a file attached
 *   to a ticket, or the ID document of an eSIM transfer's order) the holder only (others: 404).
 */
export const filesModule: DomainModule<FileRow> = {
  source: tableSource({
    table: storedFiles,
    owner: storedFiles.ownerUid,
    columns: {
      createdAt: storedFiles.createdAt,
      name: storedFiles.name,
      size: storedFiles.size,
      purpose: storedFiles.purpose,
      contentType: storedFiles.contentType,
      ownerUid: storedFiles.ownerUid,
    },
    toRecord,
    ownerUids: heldBy,
  }),
  extraRoutes: (services) => fileRoutes(services),
};

function fileStoreOf(services: EngineServices) {
  if (!services.files) throw unavailable(words("files.noStore"));
  return services.files;
}

const fileRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const maxBytes = services.files?.maxBytes ?? 0;
    // The bytes as they came, whatever the client calls them: the type is read from the bytes.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: Math.max(maxBytes, 1) }, (_request, body, done) =>
      done(null, body),
    );

    // A subscriber's daily quota: asked before the body is read (by its Content-Length), decided in the upload's transaction.
    const quota = services.files?.quota ?? DEFAULT_UPLOAD_QUOTA;
    const quotaApplies = (role: string) => role === "subscriber";

    app.post(
      "/files",
      {
        bodyLimit: Math.max(maxBytes, 1),
        onRequest: async (request) => {
          const { uid, operator, role } = request.principal;
          if (!quotaApplies(role)) return;
          const declared = Number(request.headers["content-length"]);
          await enforceUploadQuota(
            services.db,
            { operator, uid },
            Number.isSafeInteger(declared) && declared > 0 ? declared : 1,
            quota,
          );
        },
        schema: {
          tags: ["files"],
          operationId: "uploadFile",
          summary:
            "Upload a file (the raw bytes as the body; PDF, PNG, JPEG, WebP or HEIC, sniffed from the bytes); subscribers: 50 files or 200 MB a day, 429 past it",
          headers: apiHeadersSchema,
          querystring: fileUploadQuerySchema,
          response: { 201: fileSchema, 413: problemSchema, 415: problemSchema, 429: problemSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { store } = fileStoreOf(services);
        const bytes = request.body;
        if (!Buffer.isBuffer(bytes) || bytes.length === 0)
          throw badRequest(words("files.bodyNotBytes"), [{ path: "body", message: words("files.field.sendBytes") }]);
        const contentType = sniffContentType(bytes);
        if (!contentType) {
          throw new ProblemError(415, words("files.typeNotAccepted"), [
            { path: "body", message: words("files.field.typeNotAccepted") },
          ]);
        }
        const { uid, operator, role } = request.principal;
        const id = randomUUID();
        const storageKey = `${operator}/${id}`;
        // Bytes first, then the row: a row never points at nothing. A failed insert leaves the bytes, removed right after.
        await store.put(storageKey, bytes, contentType);
        try {
          const row = await services.db.transaction(async (tx) => {
            if (quotaApplies(role))
              await enforceUploadQuota(tx, { operator, uid }, bytes.length, quota, { lock: true });
            const [inserted] = await tx
              .insert(storedFiles)
              .values({
                id,
                operatorCode: operator,
                ownerUid: uid,
                name: request.query.name,
                contentType,
                size: bytes.length,
                purpose: request.query.purpose,
                storageKey,
              })
              .returning();
            await recordAudit(tx, {
              operator,
              actorUid: uid,
              actorRole: role,
              action: "files.upload",
              targetType: "files",
              targetId: id,
              after: toRecord(inserted!),
              requestId: request.id,
            });
            return inserted!;
          });
          return reply.code(201).send(toRecord(row));
        } catch (error) {
          await store.delete(storageKey).catch(() => undefined);
          throw error;
        }
      },
    );

    app.get(
      "/files/:id/content",
      {
        schema: {
          tags: ["files"],
          operationId: "downloadFile",
          summary: "The bytes of a file: to its owner and the operator's staff",
          headers: apiHeadersSchema,
          params: z.object({ id: z.uuid("files.idNotUuid") }),
          // Sent as raw bytes (Fastify never serializes a Buffer); the schema documents the 200.
          response: {
            200: z.unknown().describe("The file's bytes, with the Content-Type read from them at upload"),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const { store } = fileStoreOf(services);
        const { uid, operator, role } = request.principal;
        const [row] = await services.db
          .select()
          .from(storedFiles)
          .where(and(eq(storedFiles.id, request.params.id), eq(storedFiles.operatorCode, operator)));
        // Another person's file is as absent as a missing one: its existence is not told. A file care
        // attached to a ticket, or the ID document care took for the holder's eSIM transfer (kept on
        // its order), is also the holder's to download.
        const holders = async (fileId: string) =>
          (await attachedToHoldersTicket(services.db, operator, uid, fileId)) ||
          (await idDocumentOfHoldersOrder(services.db, operator, uid, fileId));
        if (!row || (row.ownerUid !== uid && !isStaff(role) && !(await holders(row.id))))
          throw notFound(words("files.noSuchFile"));
        // An agent opens a subscriber's file once the caller is verified (issue 27), or when it is
        // attached to a ticket the subscriber opened (tickets are answered without verification).
        if (
          row.ownerUid !== uid &&
          accessScope(request.principal, filesResource, "show") === "verified" &&
          !(await verifiedUntilOf(services.db, request.principal, [row.ownerUid])).has(row.ownerUid) &&
          !(await attachedToHoldersTicket(services.db, operator, row.ownerUid, row.id))
        )
          throw callerNotVerified();
        if (row.ownerUid) await logReadOf(services.db, request, "files", [row.ownerUid]);
        const bytes = await store.get(row.storageKey);
        if (!bytes) throw notFound(words("files.contentGone"));
        return reply
          .header("content-type", row.contentType)
          .header("content-length", String(bytes.length))
          .header("content-disposition", `attachment; filename="${downloadName(row)}"`)
          .header("cache-control", "private, no-store")
          .send(bytes);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
