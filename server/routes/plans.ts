import { and, count, eq, ilike, ne, or, type SQL } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope, type Principal } from "../../src/resources/access";
import { planSchema, plansResource, type Plan } from "../../src/resources/plans";
import type { Db } from "../db/client";
import { plans } from "../db/schema";
import { forbidden, notFound } from "../errors";
import { listQuerySchema } from "../lib/listQuery";
import { filtersToSql, pageToLimitOffset, sortToSql, type ColumnMap } from "../lib/listSql";
import { apiHeadersSchema, errorResponses, idParamsSchema, iso, listResponse } from "./common";

const columns: ColumnMap = {
  name: plans.name,
  code: plans.code,
  kind: plans.kind,
  status: plans.status,
  price: plans.priceAmount,
  dataMb: plans.dataMb,
  createdAt: plans.createdAt,
};

const toPlan = (row: typeof plans.$inferSelect): Plan => ({
  id: row.id,
  code: row.code,
  name: row.name,
  kind: row.kind,
  status: row.status,
  price: { amount: row.priceAmount, currency: row.currency },
  period: row.period,
  dataMb: row.dataMb,
  voiceMinutes: row.voiceMinutes,
  sms: row.sms,
  features: row.features,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

/** The operator's catalog; subscribers never see offerings still in draft. */
function visibleTo(principal: Principal, action: "list" | "show"): SQL {
  if (!accessScope(principal, plansResource, action)) throw forbidden("You may not see plans.");
  const sameOperator = eq(plans.operatorCode, principal.operator);
  return principal.role === "subscriber" ? and(sameOperator, ne(plans.status, "draft"))! : sameOperator;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A plan the principal may see (plans have no owner): references to plans resolve through this. */
export async function findVisiblePlan(db: Db, principal: Principal, id: string): Promise<{ ownerUid: string | null } | null> {
  if (!accessScope(principal, plansResource, "show")) return null;
  const [row] = await db.select({ id: plans.id }).from(plans).where(and(visibleTo(principal, "show"), eq(plans.id, id))).limit(1);
  return row ? { ownerUid: null } : null;
}

export const planRoutes = (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      "/plans",
      {
        schema: {
          tags: ["plans"],
          summary: "List the operator's plan catalog",
          headers: apiHeadersSchema,
          querystring: listQuerySchema(plansResource),
          response: { 200: listResponse(planSchema), ...errorResponses },
        },
      },
      async (request) => {
        const list = request.query;
        const text = list.q ? `%${escapeLike(list.q)}%` : undefined;
        const where = and(
          visibleTo(request.principal, "list"),
          filtersToSql(list.filters, columns),
          text ? or(ilike(plans.name, text), ilike(plans.code, text)) : undefined,
        );
        const { limit, offset } = pageToLimitOffset(list);
        const [rows, [totals]] = await Promise.all([
          db.select().from(plans).where(where).orderBy(...sortToSql(list.sort, columns, plans.id)).limit(limit).offset(offset),
          db.select({ total: count() }).from(plans).where(where),
        ]);
        return { data: rows.map(toPlan), total: totals?.total ?? 0 };
      },
    );

    app.get(
      "/plans/:id",
      {
        schema: {
          tags: ["plans"],
          summary: "One plan",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: { 200: planSchema, ...errorResponses },
        },
      },
      async (request) => {
        const [row] = await db.select().from(plans).where(and(visibleTo(request.principal, "show"), eq(plans.id, request.params.id))).limit(1);
        if (!row) throw notFound("No such plan.");
        return toPlan(row);
      },
    );
  };
