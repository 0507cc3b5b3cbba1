import { and, count, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope } from "../../src/resources/access";
import { auditEventSchema, auditEventsResource, type AuditEvent } from "../../src/resources/identity";
import type { Db } from "../db/client";
import { auditEvents } from "../db/schema";
import { forbidden } from "../errors";
import { listQuerySchema } from "../lib/listQuery";
import { filtersToSql, pageToLimitOffset, sortToSql, type ColumnMap } from "../lib/listSql";
import { apiHeadersSchema, errorResponses, iso, listResponse } from "./common";

const columns: ColumnMap = {
  createdAt: auditEvents.createdAt,
  action: auditEvents.action,
  actorUid: auditEvents.actorUid,
  targetType: auditEvents.targetType,
  targetId: auditEvents.targetId,
};

const toEvent = (row: typeof auditEvents.$inferSelect): AuditEvent => ({
  id: row.id,
  operator: row.operatorCode,
  actorUid: row.actorUid,
  actorRole: row.actorRole,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  before: row.before,
  after: row.after,
  reason: row.reason,
  requestId: row.requestId,
  createdAt: iso(row.createdAt),
});

/** GET /api/v1/audit-events: the operator's trail, newest first, for its staff. */
export const auditEventRoutes = (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/audit-events",
      {
        schema: {
          tags: ["security"],
          summary: "The operator's audit trail (agents and admins), newest first",
          headers: apiHeadersSchema,
          querystring: listQuerySchema(auditEventsResource),
          response: { 200: listResponse(auditEventSchema), ...errorResponses },
        },
      },
      async (request) => {
        const principal = request.principal;
        if (!accessScope(principal, auditEventsResource, "list")) throw forbidden("Only the operator's staff see the audit trail.");
        const list = request.query;
        const where = and(eq(auditEvents.operatorCode, principal.operator), filtersToSql(list.filters, columns));
        const { limit, offset } = pageToLimitOffset(list);
        const [rows, [totals]] = await Promise.all([
          db.select().from(auditEvents).where(where).orderBy(...sortToSql(list.sort, columns, auditEvents.id)).limit(limit).offset(offset),
          db.select({ total: count() }).from(auditEvents).where(where),
        ]);
        return { data: rows.map(toEvent), total: totals?.total ?? 0 };
      },
    );
  };
