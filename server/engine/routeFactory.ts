import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope, sourceScope, type Principal } from "#resources/access";
import { listResponse } from "#resources/api";
import type { ResourceEvent } from "#resources/events";
import { badRequest, forbidden, notFound, ProblemError } from "../errors";
import { words } from "../i18n/words";
import { notValid } from "../lib/listedText";
import { refusedFields, writeBodySchema, type WriteKind } from "../generic/writeRules";
import {
  claimIdempotencyKey,
  forgetOldIdempotencyKeys,
  hashRequest,
  keepingRefusal,
  sendReplay,
} from "../lib/idempotency";
import { localeOf } from "../i18n/requestLocale";
import { listQuerySchema } from "../lib/listQuery";
import { afterCursor, encodeCursor, sortParameter } from "../lib/listCursor";
import { isDataException } from "../db/pgErrors";
import { filtersToSql, pageToLimitOffset, sortToSql } from "../lib/listSql";
import { apiHeadersSchema, errorResponses, problemSchema } from "../routes/common";
import { problemResponses } from "../openapi/problems";
import { actionRoutes, quoteSchema } from "./actionRoutes";
import { declaredExpressions, quotesOnCreate } from "#resources/expressions/declaration";
import { expressionContext, newRecord, quoteOfEffects, runEffects } from "../generic/declaredWrites";
import { createEffects } from "./effects";
import { callerNotVerified, checkReferences, findRecordRow, type ModuleMap } from "./records";
import { noSuchRecord, roleMayNot } from "./refusals";
import { auditWrite, idParamsOf, pascal, publishAll, rolledBack, writeHeadersSchema } from "./routeParts";
import type { EngineServices } from "./services";
import { anyRecord, countMatching, placeOf, selectRecords, sortColumnsOf } from "./recordQuery";
import type { DomainModule } from "./types";
import type { DeclaredResource } from "../lib/declaredResource";
import { holdsSubscriberData } from "#resources/accessLog";
import { logReadOf, ownerOfNarrowedList } from "../domain/accessLog/accessLog";

const writeResponses = { ...errorResponses, 409: problemSchema, 422: problemSchema };

/** Rejects what a role may not send before anything is validated or written; each field named. */
function refuse(resource: DeclaredResource, kind: WriteKind, principal: Principal, body: Record<string, unknown>) {
  const { unknown, forbidden: notAllowed } = refusedFields(resource, kind, principal.role, body);
  if (unknown.length)
    throw badRequest(
      words(unknown.length > 1 ? "engine.unknownFields" : "engine.unknownField", {
        fields: unknown.map((e) => e.path).join(", "),
      }),
      unknown,
    );
  if (notAllowed.length)
    throw new ProblemError(
      403,
      words("engine.mayNotSet", { fields: notAllowed.map((e) => e.path).join(", ") }),
      notAllowed,
    );
}

/**
 * The whole `/api/v1/{resource}` API of one declared resource, from its declaration and its module:
 * list and show with the declared filters, sorts and search in SQL; create, edit and delete where the
 * declaration has forms and the module writes; named actions with their previews. Access, audit,
 * idempotency, OpenAPI and live events are the factory's, the same for every resource.
 */
export const resourceRoutes =
  (
    resource: DeclaredResource,
    module: DomainModule,
    services: EngineServices,
    modules: ModuleMap,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, events } = services;
    const { source, writer } = module;
    const sortColumns = sortColumnsOf(source);
    const onCreate = declaredExpressions(resource).effects.onCreate;
    const base = `/${resource.name}`;
    const tags = [resource.name];
    const Name = pascal(resource.name);
    const params = idParamsOf(resource);
    const recordEvent = (
      principal: Principal,
      type: ResourceEvent["type"],
      id: string,
      row: unknown,
    ): ResourceEvent => ({
      operator: principal.operator,
      resource: resource.name,
      type,
      ids: [id],
      ownerUids: source.ownerUids(row),
      at: new Date().toISOString(),
    });
    // The record as just written, read back in the same transaction (the writer's access was checked before the write).
    const reload = async (tx: Parameters<typeof findRecordRow>[0], id: string) => {
      const [row] = await selectRecords(source, tx).where(eq(source.id, id)).limit(1);
      if (!row) throw new Error(`${resource.name} ${id} vanished inside its own write`);
      return row;
    };

    app.get(
      base,
      {
        schema: {
          tags,
          operationId: `list${Name}`,
          summary: `List ${resource.name}`,
          description:
            "Declared filters, sorts and search run in SQL; a subscriber sees only their own records where access says so.",
          headers: apiHeadersSchema,
          querystring: listQuerySchema(resource),
          // A list is never a 404: only the refusals of the /api/v1 scope and of the query.
          response: { 200: listResponse(resource.schema), ...problemResponses(400, 401, 403) },
        },
      },
      async (request) => {
        const principal = request.principal;
        // Lists may lag a little: a hot standby answers them when there is one (the access log stays on the primary).
        const reader = services.reader(principal);
        const scope = sourceScope(principal, resource, "list");
        if (!scope) throw forbidden(roleMayNot(principal.role, "list", resource.name));
        const list = request.query;
        const where = and(
          source.scope(principal, scope),
          filtersToSql(list.filters, { id: source.id, ...source.columns }),
          list.q && source.search ? source.search(list.q) : undefined,
        );
        const { limit, offset } = pageToLimitOffset(list);
        if (scope === "verified" && (list.filters.length || list.q)) {
          // Filtered (to one subscriber's account or line, say) and nothing of a verified caller's
          // matches, while the operator holds some: the agent must verify that caller first.
          if (!(await anyRecord(source, reader, where))) {
            const anyone = and(
              source.scope(principal, "all"),
              filtersToSql(list.filters, { id: source.id, ...source.columns }),
              list.q && source.search ? source.search(list.q) : undefined,
            );
            if (await anyRecord(source, reader, anyone)) throw callerNotVerified();
          }
        }
        const keyset = list.keyset;
        const unkeyed = keyset && list.sort.find((s) => source.unkeyedSorts?.includes(s.field));
        if (unkeyed) {
          const message = words("lib.list.cursorUnkeyed", { field: unkeyed.field });
          throw badRequest(notValid("query", [{ path: "cursor", message }]), [{ path: "cursor", message }]);
        }
        // Keyset pages start after the cursor and read one row more, to know whether a next page exists.
        const pageWhere = keyset?.after
          ? and(where, afterCursor(list.sort, sortColumns, source.id, keyset.after))
          : where;
        const [found, counted] = await Promise.all([
          selectRecords(source, reader, {
            q: list.q,
            page: keyset ? undefined : { where: pageWhere, sort: list.sort, end: offset + limit },
          })
            .where(pageWhere)
            .orderBy(...sortToSql(list.sort, sortColumns, source.id))
            .limit(keyset ? limit + 1 : limit)
            .offset(keyset ? 0 : offset),
          countMatching(source, reader, where),
        ]).catch((error: unknown) => {
          if (!keyset?.after || !isDataException(error)) throw error;
          const message = words("lib.list.cursor");
          throw badRequest(notValid("query", [{ path: "cursor", message }]), [{ path: "cursor", message }]);
        });
        const rows = keyset ? found.slice(0, limit) : found;
        // Where this page ended, for the next one: its last row's place (gone already, no next page).
        const place =
          keyset && found.length > limit
            ? await placeOf(source, reader, list.sort, source.toRecord(rows.at(-1)).id)
            : undefined;
        const next = place && encodeCursor({ sort: sortParameter(list.sort), ...place });
        // Staff reads of subscriber data are logged before they are answered (issue 27, server/domain/accessLog).
        if (holdsSubscriberData(resource))
          await logReadOf(
            db,
            request,
            resource.name,
            ownerOfNarrowedList(
              list.filters.length > 0,
              rows.map((row) => source.ownerUids(row)),
            ),
          );
        const data = module.present
          ? await module.present(reader, principal, rows)
          : rows.map((row) => source.toRecord(row));
        return {
          data,
          total: counted.total,
          ...(counted.estimated ? { totalIsEstimate: true as const } : {}),
          ...(next ? { next } : {}),
        };
      },
    );

    app.get(
      `${base}/:id`,
      {
        schema: {
          tags,
          operationId: `get${Name}`,
          summary: `One ${resource.name} record`,
          description: "404 when it does not exist or is not yours.",
          headers: apiHeadersSchema,
          params,
          response: { 200: resource.schema, ...errorResponses },
        },
      },
      async (request) => {
        const reader = services.reader(request.principal);
        const row = await findRecordRow(reader, resource, module, request.principal, "show", request.params.id, {
          reuse: true,
        });
        if (!row) throw notFound(noSuchRecord(resource));
        if (holdsSubscriberData(resource)) await logReadOf(db, request, resource.name, source.ownerUids(row));
        if (module.present) return (await module.present(reader, request.principal, [row]))[0]!;
        return source.toRecord(row);
      },
    );

    if (resource.form?.create.length && writer?.create) {
      const create = writer.create.bind(writer);
      app.post(
        base,
        {
          schema: {
            tags,
            operationId: `create${Name}`,
            summary: `Create a ${resource.name} record`,
            description:
              "Validated by the declaration's schema and write rules; audited; an Idempotency-Key replays the first response.",
            headers: writeHeadersSchema,
            body: writeBodySchema(resource, "create"),
            response: { 201: resource.schema, ...writeResponses },
          },
        },
        async (request, reply) => {
          const principal = request.principal;
          if (!accessScope(principal, resource, "create"))
            throw forbidden(roleMayNot(principal.role, "create", resource.name));
          const body = request.body as Record<string, unknown>;
          refuse(resource, "create", principal, body);
          const key = request.headers["idempotency-key"];
          // The key is claimed in the write's transaction: it commits with the record or not at all.
          const idempotency = key
            ? {
                actorUid: principal.uid,
                key,
                route: `POST /api/v1${base}`,
                requestHash: hashRequest({ body, operator: principal.operator }),
              }
            : undefined;
          const done = await db.transaction(async (tx) => {
            const claim = idempotency ? await claimIdempotencyKey(tx, idempotency) : undefined;
            if (claim?.kind === "replay") return { replay: claim };
            return keepingRefusal(tx, claim, localeOf(request.headers), async (tx) => {
              const { owners, errors } = await checkReferences(tx, modules, resource, principal, body);
              if (errors.length) throw badRequest(notValid("body", errors), errors);
              const { effects, pending } = createEffects(tx, principal, request.id);
              const id = await create({ tx, principal, requestId: request.id, effects, services }, body, owners);
              const row = await reload(tx, id);
              const record = source.toRecord(row);
              // Declared effects of making it (a charge through the ledger), in this transaction.
              if (onCreate.length) {
                const ownerUid = source.ownerUids(row)[0] ?? null;
                const run = { tx, principal, effects, key: "create", recordId: id, ownerUid };
                await runEffects(
                  run,
                  resource,
                  onCreate,
                  record,
                  await expressionContext(tx, principal, principal.operator),
                );
              }
              await auditWrite(tx, resource, request, "create", id, null, record);
              if (claim) await claim.complete(201, record);
              return { record, published: [recordEvent(principal, "created", id, row), ...pending] };
            });
          });
          if ("replay" in done) return sendReplay(reply, done.replay);
          if ("refused" in done) throw done.refused;
          const { record, published } = done.done;
          await publishAll(events, request.log, published);
          if (idempotency)
            await forgetOldIdempotencyKeys(db).catch((error: unknown) =>
              request.log.warn({ err: error }, "idempotency housekeeping failed"),
            );
          return reply.code(201).send(record);
        },
      );
    }

    if (resource.form?.create.length && writer?.create && quotesOnCreate(resource)) {
      app.post(
        `${base}/preview`,
        {
          schema: {
            tags,
            operationId: `previewCreate${Name}`,
            summary: `What creating a ${resource.name} record would charge; changes nothing`,
            description: "Takes the create body and answers a quote of the declared charges. Nothing is written.",
            headers: apiHeadersSchema,
            body: writeBodySchema(resource, "create"),
            response: { 200: quoteSchema, ...writeResponses },
          },
        },
        async (request) => {
          const principal = request.principal;
          if (!accessScope(principal, resource, "create"))
            throw forbidden(roleMayNot(principal.role, "create", resource.name));
          const body = request.body as Record<string, unknown>;
          refuse(resource, "create", principal, body);
          // The effects run for real and are rolled back, so a balance too small answers its 422 now, before the buy.
          const quote = await rolledBack(db, async (tx) => {
            const { owners, errors } = await checkReferences(tx, modules, resource, principal, body);
            if (errors.length) throw badRequest(notValid("body", errors), errors);
            const ctx = await expressionContext(tx, principal, principal.operator);
            const { record } = newRecord(resource, body, ctx);
            const { effects } = createEffects(tx, principal, request.id);
            const ownerUid = owners[resource.ownership?.through ?? ""] ?? principal.uid;
            const run = { tx, principal, effects, key: "preview", recordId: randomUUID(), ownerUid };
            await runEffects(run, resource, onCreate, record, ctx);
            return quoteOfEffects(resource, onCreate, record, ctx, resource.createLabel ?? resource.label);
          });
          return quote;
        },
      );
    }

    if (resource.form?.edit.length && writer?.edit) {
      const edit = writer.edit.bind(writer);
      app.patch(
        `${base}/:id`,
        {
          schema: {
            tags,
            operationId: `update${Name}`,
            summary: `Change fields of a ${resource.name} record`,
            description:
              "Only the fields of the declared edit form, each as the caller's role may write it; audited with before and after.",
            headers: apiHeadersSchema,
            params,
            body: writeBodySchema(resource, "edit"),
            response: { 200: resource.schema, ...writeResponses },
          },
        },
        async (request) => {
          const principal = request.principal;
          const body = request.body as Record<string, unknown>;
          if (!accessScope(principal, resource, "edit"))
            throw forbidden(roleMayNot(principal.role, "edit", resource.name));
          refuse(resource, "edit", principal, body);
          if (Object.keys(body).length === 0)
            throw badRequest(words("engine.nothingToChange"), [{ path: "body", message: words("engine.empty") }]);
          const { record, published } = await db.transaction(async (tx) => {
            const current = await findRecordRow(tx, resource, module, principal, "edit", request.params.id, {
              forUpdate: true,
            });
            if (!current) throw notFound(noSuchRecord(resource));
            const { owners, errors } = await checkReferences(tx, modules, resource, principal, body);
            if (errors.length) throw badRequest(notValid("body", errors), errors);
            const { effects, pending } = createEffects(tx, principal, request.id);
            await edit({ tx, principal, requestId: request.id, effects, services }, current, body, owners);
            const row = await reload(tx, request.params.id);
            const record = source.toRecord(row);
            await auditWrite(tx, resource, request, "edit", request.params.id, source.toRecord(current), record);
            return { record, published: [recordEvent(principal, "updated", request.params.id, row), ...pending] };
          });
          await publishAll(events, request.log, published);
          return record;
        },
      );
    }

    if (resource.access.delete && writer?.remove) {
      const remove = writer.remove.bind(writer);
      app.delete(
        `${base}/:id`,
        {
          schema: {
            tags,
            operationId: `delete${Name}`,
            summary: `Delete a ${resource.name} record`,
            description: "Audited with what the record held.",
            headers: apiHeadersSchema,
            params,
            response: { 200: resource.schema, ...errorResponses },
          },
        },
        async (request) => {
          const principal = request.principal;
          const { record, published } = await db.transaction(async (tx) => {
            const current = await findRecordRow(tx, resource, module, principal, "delete", request.params.id, {
              forUpdate: true,
            });
            if (!current) throw notFound(noSuchRecord(resource));
            const { effects, pending } = createEffects(tx, principal, request.id);
            await remove({ tx, principal, requestId: request.id, effects, services }, current);
            const record = source.toRecord(current);
            await auditWrite(tx, resource, request, "delete", request.params.id, record, null);
            return { record, published: [recordEvent(principal, "deleted", request.params.id, current), ...pending] };
          });
          await publishAll(events, request.log, published);
          return record;
        },
      );
    }

    await app.register(actionRoutes(resource, module, services));
  };
