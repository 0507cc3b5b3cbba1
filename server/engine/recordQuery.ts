import type { SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../audit";
import type { RecordSource } from "./types";

/**
 * A module's select as the engine chains it: drizzle's dynamic builder (`.$dynamic()`), narrowed to
 * the calls made on it here. Its full type depends on each module's tables and joins, so modules
 * hand it over untyped (RecordSource.rows) and the engine reads it through this one shape.
 */
export interface RecordQuery<Row> extends PromiseLike<Row[]> {
  where(condition: SQL | undefined): RecordQuery<Row>;
  orderBy(...order: SQL[]): RecordQuery<Row>;
  limit(limit: unknown): RecordQuery<Row>;
  offset(offset: number): RecordQuery<Row>;
  for(strength: "update", config: { of: PgTable }): RecordQuery<Row>;
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> };
}

/** The records of a module's source, as rows of that module. */
export const selectRecords = <Row>(source: RecordSource<Row>, db: Executor, context?: { q?: string }) =>
  source.rows(db, context) as RecordQuery<Row>;

/** How many records the module's source holds under the same joins (`{ total }`, a count). */
export const countRecords = (source: Pick<RecordSource, "count">, db: Executor) =>
  source.count(db) as RecordQuery<{ total: unknown }>;
