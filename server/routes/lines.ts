import { and, count, eq, ilike, or, type SQL } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope, type Principal } from "../../src/resources/access";
import { lineSchema, linesResource, type Line } from "../../src/resources/lines";
import type { Db } from "../db/client";
import { accounts, lines, plans } from "../db/schema";
import { forbidden, notFound } from "../errors";
import { listQuerySchema } from "../lib/listQuery";
import { filtersToSql, pageToLimitOffset, sortToSql, type ColumnMap } from "../lib/listSql";
import { apiHeadersSchema, errorResponses, idParamsSchema, iso, listResponse } from "./common";

const columns: ColumnMap = {
  msisdn: lines.msisdn,
  status: lines.status,
  simType: lines.simType,
  planId: lines.planId,
  createdAt: lines.createdAt,
  accountName: accounts.name,
  accountType: accounts.type,
  planName: plans.name,
};

const selection = {
  id: lines.id,
  accountId: lines.accountId,
  accountName: accounts.name,
  accountType: accounts.type,
  msisdn: lines.msisdn,
  iccid: lines.iccid,
  simType: lines.simType,
  planId: lines.planId,
  planName: plans.name,
  status: lines.status,
  suspendReason: lines.suspendReason,
  cycleDay: lines.cycleDay,
  createdAt: lines.createdAt,
  updatedAt: lines.updatedAt,
};

type Row = { [K in keyof typeof selection]: unknown } & { createdAt: Date; updatedAt: Date };
const toLine = (row: Row): Line => ({ ...(row as unknown as Line), createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) });

/** Rows the principal may reach: always one operator; a subscriber only through accounts they own. */
function visibleTo(principal: Principal, action: "list" | "show"): SQL {
  const scope = accessScope(principal, linesResource, action);
  if (!scope) throw forbidden("You may not see lines.");
  const sameOperator = eq(lines.operatorCode, principal.operator);
  return scope === "all" ? sameOperator : and(sameOperator, eq(accounts.ownerUid, principal.uid))!;
}

/** Phone numbers match by digits in any format ("(202) 555-0103", "5550103"); otherwise the account name. */
function search(q: string): SQL {
  const digits = q.replace(/\D/g, "");
  if (digits.length >= 3 && /^[\d\s()+.-]+$/.test(q)) return ilike(lines.msisdn, `%${digits}%`);
  const text = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  return or(ilike(accounts.name, `%${text}%`), ilike(lines.msisdn, `%${digits || text}%`))!;
}

const joined = (db: Db) =>
  ({
    rows: () => db.select(selection).from(lines).innerJoin(accounts, eq(lines.accountId, accounts.id)).innerJoin(plans, eq(lines.planId, plans.id)),
    total: () => db.select({ total: count() }).from(lines).innerJoin(accounts, eq(lines.accountId, accounts.id)).innerJoin(plans, eq(lines.planId, plans.id)),
  }) as const;

/** A line the principal may open, with the subscriber who owns it: references to lines resolve through this. */
export async function findVisibleLine(db: Db, principal: Principal, id: string): Promise<{ ownerUid: string | null } | null> {
  if (!accessScope(principal, linesResource, "show")) return null;
  const [row] = await db
    .select({ ownerUid: accounts.ownerUid })
    .from(lines)
    .innerJoin(accounts, eq(lines.accountId, accounts.id))
    .where(and(visibleTo(principal, "show"), eq(lines.id, id)))
    .limit(1);
  return row ?? null;
}

export const lineRoutes = (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    const query = joined(db);

    app.get(
      "/lines",
      {
        schema: {
          tags: ["lines"],
          summary: "List lines: a subscriber's own, or every line of the operator for staff",
          headers: apiHeadersSchema,
          querystring: listQuerySchema(linesResource),
          response: { 200: listResponse(lineSchema), ...errorResponses },
        },
      },
      async (request) => {
        const list = request.query;
        const where = and(visibleTo(request.principal, "list"), filtersToSql(list.filters, columns), list.q ? search(list.q) : undefined);
        const { limit, offset } = pageToLimitOffset(list);
        const [rows, [totals]] = await Promise.all([
          query.rows().where(where).orderBy(...sortToSql(list.sort, columns, lines.id)).limit(limit).offset(offset),
          query.total().where(where),
        ]);
        return { data: rows.map(toLine), total: totals?.total ?? 0 };
      },
    );

    app.get(
      "/lines/:id",
      {
        schema: {
          tags: ["lines"],
          summary: "One line (404 when it does not exist or is not yours)",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: { 200: lineSchema, ...errorResponses },
        },
      },
      async (request) => {
        const [row] = await query.rows().where(and(visibleTo(request.principal, "show"), eq(lines.id, request.params.id))).limit(1);
        if (!row) throw notFound("No such line.");
        return toLine(row);
      },
    );
  };
