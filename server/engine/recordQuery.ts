import { count, eq, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "../audit";
import { rowsOf } from "../db/rowsOf";
import type { RecordSource, RowsContext } from "./types";
import { cursorSelection } from "../lib/listCursor";
import type { ListQuery } from "../lib/listQuery";
import type { ColumnMap } from "../lib/listSql";

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
  /** What the select selects, by the row's keys: columns and SQL expressions (drizzle's own). */
  readonly _: { readonly selectedFields: Record<string, unknown> };
  /** The query as a subquery of another (`from (…) as alias`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- drizzle's subquery of the module's own select
  as(alias: string): any;
}

/** The records of a module's source, as rows of that module. */
export const selectRecords = <Row>(source: RecordSource<Row>, db: Executor, context?: RowsContext) =>
  source.rows(db, context) as RecordQuery<Row>;

/** The module's records under `where`, as `select 1` over the same joins: what counts and probes read. */
const matchingRecords = (source: Pick<RecordSource, "matching">, db: Executor, where: SQL | undefined) =>
  (source.matching(db) as RecordQuery<{ one: number }>).where(where);

/** What each field sorts by: its `sortColumns` entry where it has one, else what it filters on. */
export const sortColumnsOf = (source: Pick<RecordSource, "columns" | "sortColumns">): ColumnMap =>
  source.sortColumns ? { ...source.columns, ...source.sortColumns } : source.columns;

/**
 * Where a keyset page that ends on record `id` leaves its cursor: the record's sort values and id
 * as the database writes them (listCursor.ts); undefined when the record is gone.
 */
export async function placeOf(
  source: Pick<RecordSource, "matching" | "columns" | "sortColumns" | "id">,
  db: Executor,
  sort: ListQuery["sort"],
  id: string,
): Promise<{ values: (string | null)[]; id: string } | undefined> {
  const [place] = await (
    source.matching(db, cursorSelection(sort, sortColumnsOf(source), source.id)) as RecordQuery<
      Record<string, string | null>
    >
  )
    .where(eq(source.id, id))
    .limit(1);
  return place ? { values: sort.map((_, i) => place[`k${i}`] ?? null), id: place.id! } : undefined;
}

/** Whether any record matches `where` (stops at the first). */
export async function anyRecord(source: Pick<RecordSource, "matching">, db: Executor, where: SQL | undefined) {
  return (await matchingRecords(source, db, where).limit(1)).length > 0;
}

/** Up to this many matches a list counts exactly; above, the planner's estimate is its total (issue 30). */
export const EXACT_COUNT_LIMIT = 10_000;

/** A list's total: exact up to EXACT_COUNT_LIMIT, the planner's estimate above it (`estimated`). */
export interface ListTotal {
  total: number;
  estimated: boolean;
}

/**
 * How many records match `where`. Counting a million rows exactly costs a scan of them on every
 * page; nobody pages that far, so the count stops at EXACT_COUNT_LIMIT + 1 and, past the bound,
 * PostgreSQL's own estimate of the rows answers (never less than the bound it passed).
 */
export async function countMatching(
  source: Pick<RecordSource, "matching">,
  db: Executor,
  where: SQL | undefined,
): Promise<ListTotal> {
  const [row] = await db.select({ total: count() }).from(
    matchingRecords(source, db, where)
      .limit(EXACT_COUNT_LIMIT + 1)
      .as("matching"),
  );
  const exact = Number(row?.total ?? 0);
  if (exact <= EXACT_COUNT_LIMIT) return { total: exact, estimated: false };
  const planned = rowsOf<{ "QUERY PLAN": unknown }>(
    await db.execute(sql`explain (format json) ${matchingRecords(source, db, where)}`),
  )[0]?.["QUERY PLAN"];
  return { total: Math.max(plannedRows(planned), EXACT_COUNT_LIMIT + 1), estimated: true };
}

/** The rows the top node of an `explain (format json)` plan expects (node-postgres parses the JSON; PGlite may not). */
function plannedRows(plan: unknown): number {
  const parsed = (typeof plan === "string" ? JSON.parse(plan) : plan) as [{ Plan?: { "Plan Rows"?: number } }];
  return Math.round(Number(parsed[0]?.Plan?.["Plan Rows"] ?? 0));
}
