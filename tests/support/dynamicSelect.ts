import type { SQL } from "drizzle-orm";

/**
 * The part of drizzle's dynamic select that tests and benches use on `RecordSource.rows(...)`, which the
 * engine leaves untyped (each module's select has its own columns): filter, limit, then run or print it.
 */
export interface DynamicSelect<Row = Record<string, unknown>> {
  where(condition: SQL | undefined): {
    limit(count: number): Promise<Row[]> & { toSQL(): { sql: string; params: unknown[] } };
  };
}
