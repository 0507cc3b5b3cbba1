import { and, count, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { accessScope, type Principal } from "../../src/resources/access";
import type { ResourceDefinition } from "../../src/resources/define";
import { recordAudit, type Executor } from "../audit";
import type { Db } from "../db/client";
import { resourceDocuments } from "../db/schema";
import { badRequest, conflict, forbidden, notFound, ProblemError, type FieldError } from "../errors";
import { documentColumns, fieldExpression } from "../generic/fieldSql";
import { findDocument, toRecord, visibleDocuments, type DocumentRow, type GenericRecord } from "../generic/documentStore";
import { checkReferences } from "../generic/references";
import { assertWritable, refusedFields, writeBodySchema, type WriteKind } from "../generic/writeRules";
import { hashRequest, reserveIdempotencyKey } from "../lib/idempotency";
import { listQuerySchema } from "../lib/listQuery";
import { filtersToSql, pageToLimitOffset, sortToSql } from "../lib/listSql";
import { publishAfterCommit, type EventBus, type ResourceEvent } from "../live/eventBus";
import { apiHeadersSchema, errorResponses, idParamsSchema, listResponse, problemSchema } from "./common";

const writeHeadersSchema = apiHeadersSchema.extend({
  "idempotency-key": z.string().min(8).max(200).optional().describe("repeat a create safely: the same key replays the first response"),
});
const actionBodySchema = z.object({ reason: z.string().trim().min(3, "at least 3 characters").max(500).optional() }).strict();
const writeResponses = { ...errorResponses, 409: problemSchema, 422: problemSchema };

/** Rejects what a role may not send before anything is validated or written; each field named. */
function refuse(resource: ResourceDefinition<any, any>, kind: WriteKind, principal: Principal, body: Record<string, unknown>) {
  const { unknown, forbidden: notAllowed } = refusedFields(resource, kind, principal.role, body);
  if (unknown.length) throw badRequest(`Unknown field${unknown.length > 1 ? "s" : ""}: ${unknown.map((e) => e.path).join(", ")}.`, unknown);
  if (notAllowed.length) throw new ProblemError(403, `You may not set ${notAllowed.map((e) => e.path).join(", ")}.`, notAllowed);
}

/**
 * The owner a written record gets: the owner of the record its `ownership.through` field references,
 * else the subscriber who creates it. A subscriber can never create a record that someone else owns.
 */
function ownerFor(resource: ResourceDefinition<any, any>, principal: Principal, referenceOwners: Record<string, string | null>, current: string | null): string | null {
  const through = resource.ownership?.through;
  if (through && Object.hasOwn(referenceOwners, through)) return referenceOwners[through] ?? null;
  if (through) return current;
  return current ?? (principal.role === "subscriber" ? principal.uid : null);
}

/** The `/api/v1/{resource}` CRUD and named actions for one declared resource without a domain module. */
export const documentRoutes = (db: Db, resource: ResourceDefinition<any, any>, events?: EventBus): FastifyPluginAsyncZod =>
  async (app) => {
    assertWritable(resource);
    const base = `/${resource.name}`;
    const tags = [resource.name];
    const columns = documentColumns(resource);
    const searchFields: readonly string[] = resource.list.search?.fields ?? [];
    const createBody = writeBodySchema(resource, "create");
    const editBody = writeBodySchema(resource, "edit");

    const audit = (tx: Executor, request: FastifyRequest, action: string, targetId: string, before: unknown, after: unknown, reason?: string) =>
      resource.audit
        ? recordAudit(tx, {
            operator: request.principal.operator,
            actorUid: request.principal.uid,
            actorRole: request.principal.role,
            action: `${resource.name}.${action}`,
            targetType: resource.name,
            targetId,
            before: (before ?? null) as Record<string, unknown> | null,
            after: (after ?? null) as Record<string, unknown> | null,
            reason: reason ?? null,
            requestId: request.id,
          })
        : undefined;

    const publish = (log: FastifyBaseLogger, principal: Principal, type: ResourceEvent["type"], row: DocumentRow) =>
      publishAfterCommit(events, log, {
        operator: principal.operator,
        resource: resource.name,
        type,
        ids: [row.id],
        ownerUids: row.ownerUid ? [row.ownerUid] : [],
        at: new Date().toISOString(),
      });

    const search = (q: string): SQL => {
      const text = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return or(...searchFields.map((field) => ilike(sql.raw(fieldExpression(resource, field)), text)))!;
    };

    app.get(
      base,
      {
        schema: {
          tags,
          summary: `List ${resource.name} (declared filters, sorts and search run in SQL)`,
          headers: apiHeadersSchema,
          querystring: listQuerySchema(resource),
          response: { 200: listResponse(resource.schema), ...errorResponses },
        },
      },
      async (request) => {
        const list = request.query;
        const where = and(
          visibleDocuments(resource, request.principal, "list"),
          filtersToSql(list.filters, columns),
          list.q && searchFields.length ? search(list.q) : undefined,
        );
        const { limit, offset } = pageToLimitOffset(list);
        const [rows, [totals]] = await Promise.all([
          db.select().from(resourceDocuments).where(where).orderBy(...sortToSql(list.sort, columns, resourceDocuments.id)).limit(limit).offset(offset),
          db.select({ total: count() }).from(resourceDocuments).where(where),
        ]);
        return { data: rows.map(toRecord), total: totals?.total ?? 0 };
      },
    );

    app.get(
      `${base}/:id`,
      { schema: { tags, summary: `One ${resource.name} record (404 when it does not exist or is not yours)`, headers: apiHeadersSchema, params: idParamsSchema, response: { 200: resource.schema, ...errorResponses } } },
      async (request) => {
        const row = await findDocument(db, resource, request.principal, "show", request.params.id);
        if (!row) throw notFound(`No such ${resource.name} record.`);
        return toRecord(row);
      },
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary: `Create a ${resource.name} record (audited; Idempotency-Key supported)`,
          headers: writeHeadersSchema,
          body: createBody,
          response: { 201: resource.schema, ...writeResponses },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        if (!accessScope(principal, resource, "create")) throw forbidden(`Your role (${principal.role}) may not create ${resource.name}.`);
        const body = request.body as Record<string, unknown>;
        refuse(resource, "create", principal, body);
        const key = request.headers["idempotency-key"];
        const reservation = key
          ? await reserveIdempotencyKey(db, { actorUid: principal.uid, key, route: `POST /api/v1${base}`, requestHash: hashRequest({ body, operator: principal.operator }) })
          : undefined;
        if (reservation?.kind === "replay") return reply.code(reservation.status).header("idempotent-replayed", "true").send(reservation.response as never);
        try {
          const row = await db.transaction(async (tx) => {
            const { owners, errors } = await checkReferences(tx, resource, principal, body);
            if (errors.length) throw badRequest(`The body is not valid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, errors);
            const ownerUid = ownerFor(resource, principal, owners, null);
            if (principal.role === "subscriber" && ownerUid !== principal.uid) throw forbidden(`You may only create ${resource.name} records of your own.`);
            const data = { ...(resource.defaults ?? {}), ...body };
            const [inserted] = await tx
              .insert(resourceDocuments)
              .values({ operatorCode: principal.operator, resource: resource.name, ownerUid, data, createdBy: principal.uid })
              .returning();
            const record = toRecord(inserted!);
            await audit(tx, request, "create", inserted!.id, null, record);
            if (reservation?.kind === "new") await reservation.complete(tx, 201, record);
            return inserted!;
          });
          await publish(request.log, principal, "created", row);
          return reply.code(201).send(toRecord(row) as never);
        } catch (error) {
          if (reservation?.kind === "new") await reservation.release();
          throw error;
        }
      },
    );

    app.patch(
      `${base}/:id`,
      {
        schema: {
          tags,
          summary: `Change fields of a ${resource.name} record (audited with before and after)`,
          headers: apiHeadersSchema,
          params: idParamsSchema,
          body: editBody,
          response: { 200: resource.schema, ...writeResponses },
        },
      },
      async (request) => {
        const principal = request.principal;
        const body = request.body as Record<string, unknown>;
        if (!accessScope(principal, resource, "edit")) throw forbidden(`Your role (${principal.role}) may not edit ${resource.name}.`);
        refuse(resource, "edit", principal, body);
        if (Object.keys(body).length === 0) throw badRequest("Nothing to change: give at least one field.", [{ path: "body", message: "empty" }]);
        const row = await db.transaction(async (tx) => {
          const current = await findDocument(tx, resource, principal, "edit", request.params.id, { forUpdate: true });
          if (!current) throw notFound(`No such ${resource.name} record.`);
          const { owners, errors } = await checkReferences(tx, resource, principal, body);
          if (errors.length) throw badRequest(`The body is not valid: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`, errors);
          const data = { ...current.data, ...body };
          const [updated] = await tx
            .update(resourceDocuments)
            .set({ data, ownerUid: ownerFor(resource, principal, owners, current.ownerUid), updatedAt: new Date() })
            .where(eq(resourceDocuments.id, current.id))
            .returning();
          await audit(tx, request, "edit", current.id, toRecord(current), toRecord(updated!));
          return updated!;
        });
        await publish(request.log, principal, "updated", row);
        return toRecord(row);
      },
    );

    app.delete(
      `${base}/:id`,
      { schema: { tags, summary: `Delete a ${resource.name} record (audited with what it held)`, headers: apiHeadersSchema, params: idParamsSchema, response: { 200: resource.schema, ...errorResponses } } },
      async (request) => {
        const principal = request.principal;
        const row = await db.transaction(async (tx) => {
          const current = await findDocument(tx, resource, principal, "delete", request.params.id, { forUpdate: true });
          if (!current) throw notFound(`No such ${resource.name} record.`);
          await tx.delete(resourceDocuments).where(eq(resourceDocuments.id, current.id));
          await audit(tx, request, "delete", current.id, toRecord(current), null);
          return current;
        });
        await publish(request.log, principal, "deleted", row);
        return toRecord(row);
      },
    );

    for (const [name, action] of Object.entries(resource.actions ?? {})) {
      app.post(
        `${base}/:id/actions/${name}`,
        {
          schema: {
            tags,
            summary: `${name}: sets ${Object.keys(action.set).join(", ")}${action.when ? ` while ${describeWhen(action.when)}` : ""} (audited)`,
            headers: apiHeadersSchema,
            params: idParamsSchema,
            body: actionBodySchema.nullish(),
            response: { 200: resource.schema, ...writeResponses },
          },
        },
        async (request) => {
          const principal = request.principal;
          const reason = request.body?.reason;
          if (action.reason && !reason) throw badRequest("Give a reason for this action.", [{ path: "reason", message: "required" }]);
          const row = await db.transaction(async (tx) => {
            const current = await findDocument(tx, resource, principal, name, request.params.id, { forUpdate: true });
            if (!current) throw notFound(`No such ${resource.name} record.`);
            const blocked = unmet(action.when, current.data);
            if (blocked.length) throw conflict(`You cannot ${name} this record now: ${blocked.map((e) => e.message).join("; ")}.`, blocked);
            const [updated] = await tx
              .update(resourceDocuments)
              .set({ data: { ...current.data, ...action.set }, updatedAt: new Date() })
              .where(eq(resourceDocuments.id, current.id))
              .returning();
            await audit(tx, request, name, current.id, toRecord(current), toRecord(updated!), reason);
            return updated!;
          });
          await publish(request.log, principal, "updated", row);
          return toRecord(row) satisfies GenericRecord;
        },
      );
    }
  };

const describeWhen = (when: Record<string, readonly unknown[] | undefined>) =>
  Object.entries(when).map(([field, values]) => `${field} is ${values!.join(" or ")}`).join(" and ");

/** The `when` conditions of an action the record does not meet, each naming its field. */
function unmet(when: Record<string, readonly unknown[] | undefined> | undefined, data: Record<string, unknown>): FieldError[] {
  return Object.entries(when ?? {})
    .filter(([field, values]) => !values!.includes(data[field] as never))
    .map(([field, values]) => ({ path: field, message: `only while ${field} is ${values!.join(" or ")} (it is ${String(data[field])})` }));
}
