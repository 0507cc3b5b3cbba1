import { and, eq, getTableColumns, ilike, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../audit";
import { resourceDocuments } from "../db/schema";
import { forbidden } from "../errors";
import { words } from "../i18n/words";
import { escapeLike } from "../lib/sql";
import type { ApiRecord, DomainModule, WriteContext } from "../engine/types";
import { computedDisplay, documentColumns, fieldExpression, RESOURCE_NAME } from "./fieldSql";
import { ensureDocumentIndexes } from "./documentIndexes";
import { assertWritable } from "./writeRules";
import { expressionContext, newRecord, refuseFailedChecks } from "./declaredWrites";
import { seedDocuments } from "./documentSeeds";
import { computedValues, declaredExpressions } from "#resources/expressions/declaration";
import type { DeclaredResource } from "../lib/declaredResource";

type DocumentRow = typeof resourceDocuments.$inferSelect & { computed?: Record<string, unknown> | null };

/**
 * The generic module: records of a declaration kept as documents in `resource_documents` (fields in
 * `data` jsonb). Filters, sorts, search and computed fields run in SQL on `data`; the owner is kept
 * in `owner_uid` (resolved at write time from `ownership.through`, or the subscriber who created it).
 */
export function documentModule(resource: DeclaredResource): DomainModule<DocumentRow> {
  assertWritable(resource);
  if (!RESOURCE_NAME.test(resource.name)) throw new Error(`'${resource.name}' is not a valid resource name`);
  const columns = documentColumns(resource);
  const declared = declaredExpressions(resource);
  const expressive =
    declared.checks.length > 0 || Object.keys(declared.defaults).length > 0 || declared.computed.length > 0;
  const searchFields: readonly string[] = resource.list.search?.fields ?? [];
  // Computed fields come back with every row, from the same SQL their filters and sorts use.
  // Stored ones (worked out at creation) are in `data` like any field.
  const computed = Object.entries(resource.store === "table" ? {} : (resource.computed ?? {}))
    .filter(([, rule]) => !(rule && "stored" in rule && rule.stored))
    .map(([field]) => field);
  const computedSql = computed.length
    ? sql<
        Record<string, unknown>
      >`jsonb_build_object(${sql.raw(computed.map((field) => `'${field}', ${computedDisplay(resource, field)}`).join(", "))})`
    : sql<null>`null`;
  // The resource name is a literal, not a parameter, so the planner can use the declared partial indexes.
  const ofResource = sql.raw(`resource_documents.resource = '${resource.name}'`);

  const ownerOf = (
    resource: DeclaredResource,
    principal: WriteContext["principal"],
    owners: Record<string, string | null>,
    current: string | null,
  ) => {
    const through = resource.ownership?.through;
    if (through && Object.hasOwn(owners, through)) return owners[through] ?? null;
    if (through) return current;
    return current ?? (principal.role === "subscriber" ? principal.uid : null);
  };

  return {
    source: {
      rows: (db: Executor) =>
        db
          .select({ ...getTableColumns(resourceDocuments), computed: computedSql })
          .from(resourceDocuments)
          .$dynamic(),
      matching: (db: Executor, fields?: Record<string, SQL>) =>
        db
          .select(fields ?? { one: sql`1` })
          .from(resourceDocuments)
          .$dynamic(),
      id: resourceDocuments.id,
      table: resourceDocuments,
      columns,
      scope(principal, scope) {
        const mine = and(eq(resourceDocuments.operatorCode, principal.operator), ofResource)!;
        return scope === "all" ? mine : and(mine, eq(resourceDocuments.ownerUid, principal.uid))!;
      },
      search: searchFields.length
        ? (q: string): SQL =>
            or(...searchFields.map((field) => ilike(sql.raw(fieldExpression(resource, field)), `%${escapeLike(q)}%`)))!
        : undefined,
      toRecord: (row): ApiRecord => ({
        ...row.data,
        ...(row.computed ?? {}),
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      ownerUids: (row) => (row.ownerUid ? [row.ownerUid] : []),
    },
    writer: {
      async create(ctx, body, owners) {
        // Defaults (fixed or worked out), the body, stored computed fields; refused at a failed check.
        // A declaration without expressions reads no currency nor rates for it.
        const data = expressive
          ? newRecord(resource, body, await expressionContext(ctx.tx, ctx.principal, ctx.principal.operator)).data
          : { ...(resource.store === "table" ? {} : (resource.defaults ?? {})), ...body };
        const ownerUid = ownerOf(resource, ctx.principal, owners, null);
        if (ctx.principal.role === "subscriber" && ownerUid !== ctx.principal.uid)
          throw forbidden(words("generic.onlyOwnRecords", { resource: resource.name }));
        const [inserted] = await ctx.tx
          .insert(resourceDocuments)
          .values({
            operatorCode: ctx.principal.operator,
            resource: resource.name,
            ownerUid,
            data,
            createdBy: ctx.principal.uid,
          })
          .returning({ id: resourceDocuments.id });
        return inserted!.id;
      },
      async edit(ctx, row, body, owners) {
        if (declared.checks.length) {
          const expressions = await expressionContext(ctx.tx, ctx.principal, ctx.principal.operator);
          const edited = { ...row.data, ...body };
          refuseFailedChecks(resource, { ...edited, ...computedValues(resource, edited, expressions) }, expressions);
        }
        await ctx.tx
          .update(resourceDocuments)
          .set({
            data: { ...row.data, ...body },
            ownerUid: ownerOf(resource, ctx.principal, owners, row.ownerUid),
            updatedAt: new Date(),
          })
          .where(eq(resourceDocuments.id, row.id));
      },
      async remove(ctx, row) {
        await ctx.tx.delete(resourceDocuments).where(eq(resourceDocuments.id, row.id));
      },
      async set(ctx, row, values) {
        await ctx.tx
          .update(resourceDocuments)
          .set({ data: { ...row.data, ...values }, updatedAt: new Date() })
          .where(eq(resourceDocuments.id, row.id));
      },
    },
    async prepare(db) {
      await ensureDocumentIndexes(db, [resource]);
      await seedDocuments(db, resource);
    },
  };
}
