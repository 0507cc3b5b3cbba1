import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../audit";
import { operators, resourceDocuments } from "../db/schema";
import type { DeclaredResource } from "../lib/declaredResource";

/**
 * Writes a declaration's `seed` records (a rate table's first rates) for each operator that has none
 * of that resource yet: once, so an admin's later edits and deletions are never undone at start-up.
 * Each seed record must pass the resource's schema with the fields the server sets.
 */
export async function seedDocuments(db: Executor, resource: DeclaredResource, only?: readonly string[]): Promise<void> {
  const seed = resource.store === "table" ? undefined : resource.seed;
  if (!seed?.length) return;
  const stamp = {
    id: "00000000-0000-4000-8000-000000000000",
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  for (const [index, record] of seed.entries()) {
    const parsed = resource.schema.safeParse({ ...record, ...stamp });
    if (!parsed.success)
      throw new Error(`${resource.name}: seed[${index}] does not pass its schema: ${parsed.error.issues[0]?.message}`);
  }
  // At start-up every operator there is; when the demo seed adds one (after start-up), that one.
  const codes = only ? only.map((code) => ({ code })) : await db.select({ code: operators.code }).from(operators);
  for (const { code } of codes) {
    const [held] = await db
      .select({ one: sql`1` })
      .from(resourceDocuments)
      .where(and(eq(resourceDocuments.operatorCode, code), eq(resourceDocuments.resource, resource.name)))
      .limit(1);
    if (held) continue;
    await db
      .insert(resourceDocuments)
      .values(
        seed.map((data) => ({ operatorCode: code, resource: resource.name, ownerUid: null, data, createdBy: null })),
      );
  }
}
