import { and, eq, sql, type SQL } from "drizzle-orm";
import { accessScope, type Principal } from "../../src/resources/access";
import type { ResourceDefinition } from "../../src/resources/define";
import type { Executor } from "../audit";
import { resourceDocuments } from "../db/schema";
import { forbidden } from "../errors";
import { RESOURCE_NAME } from "./fieldSql";

export type DocumentRow = typeof resourceDocuments.$inferSelect;
export type GenericRecord = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };

/** A stored document as the API returns it: its declared fields plus id and times. */
export const toRecord = (row: DocumentRow): GenericRecord => ({
  ...row.data,
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Documents of the resource the principal may reach through the action: always its operator; with
 * scope "own", only records it owns. Throws 403 when the role may not take the action at all.
 * The resource name is a literal, not a parameter, so the planner can use the declared partial indexes.
 */
export function visibleDocuments(resource: ResourceDefinition<any, any>, principal: Principal, action: string): SQL {
  const scope = accessScope(principal, resource, action);
  if (!scope) throw forbidden(`Your role (${principal.role}) may not ${action} ${resource.name}.`);
  if (!RESOURCE_NAME.test(resource.name)) throw new Error(`'${resource.name}' is not a valid resource name`);
  const mine = and(eq(resourceDocuments.operatorCode, principal.operator), sql.raw(`resource_documents.resource = '${resource.name}'`));
  return scope === "all" ? mine! : and(mine, eq(resourceDocuments.ownerUid, principal.uid))!;
}

/** One document the principal may reach through the action, locked for the rest of the transaction when `forUpdate`. */
export async function findDocument(
  db: Executor,
  resource: ResourceDefinition<any, any>,
  principal: Principal,
  action: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DocumentRow | null> {
  const query = db.select().from(resourceDocuments).where(and(visibleDocuments(resource, principal, action), eq(resourceDocuments.id, id))).limit(1);
  const [row] = options.forUpdate ? await query.for("update") : await query;
  return row ?? null;
}
