import { and, eq, inArray } from "drizzle-orm";
import { resources } from "#resources";
import type { Executor } from "../audit";
import { resourceDocuments } from "../db/schema";
import type { DeclaredResource } from "../lib/declaredResource";

/** The declared rate tables (a resource with `rateTable`), by name. */
const rateTables = new Map(
  (resources as readonly DeclaredResource[]).flatMap((table) =>
    table.store !== "table" && table.rateTable ? [[table.name, table.rateTable] as const] : [],
  ),
);

export type RateLookup = (table: string, key: string | number | boolean, asOf: string) => unknown;

/**
 * The rates of one operator's declared rate tables, read once per write (they are a few rows): a
 * lookup answers the value of the row whose key matches and whose `from` day is the latest on or
 * before the day asked, or null when none is in force yet.
 */
export async function loadRates(db: Executor, operator: string): Promise<RateLookup> {
  const wanted = [...rateTables.keys()];
  const rows = wanted.length
    ? await db
        .select({ resource: resourceDocuments.resource, data: resourceDocuments.data })
        .from(resourceDocuments)
        .where(and(eq(resourceDocuments.operatorCode, operator), inArray(resourceDocuments.resource, wanted)))
    : [];
  return (table, key, asOf) => {
    const spec = rateTables.get(table);
    if (!spec) return null;
    let best: { from: string; value: unknown } | undefined;
    for (const row of rows) {
      const from = row.data[spec.from];
      // Days are YYYY-MM-DD, so they compare as text.
      if (row.resource !== table || row.data[spec.key] !== key || typeof from !== "string" || from > asOf) continue;
      if (!best || from > best.from) best = { from, value: row.data[spec.value] };
    }
    return best?.value ?? null;
  };
}
