import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { indexStatement, searchIndexStatement } from "./fieldSql";
import type { DeclaredResource } from "../lib/declaredResource";

/** Any fixed number: serializes start-up index creation when several backends boot on one database. */
const INDEX_LOCK = 7_347_001;

/**
 * Creates the indexes the declarations ask for (`indexes`, and a trigram index per search field), once; the names are deterministic, so a
 * restart finds them there. Removing a field from `indexes` leaves its index in place (drop it in a
 * migration if it matters).
 */
export async function ensureDocumentIndexes(db: Db, resources: readonly DeclaredResource[]): Promise<string[]> {
  const statements = resources.flatMap((resource) => [
    ...(resource.indexes ?? []).map((field: string) => indexStatement(resource, field)),
    ...(resource.list.search?.fields ?? []).map((field: string) => searchIndexStatement(resource, field)),
  ]);
  if (statements.length === 0) return [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${INDEX_LOCK})`);
    for (const statement of statements) await tx.execute(sql.raw(statement));
  });
  return statements;
}
