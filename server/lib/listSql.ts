import {
  and,
  asc,
  between,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  ne,
  not,
  notBetween,
  notIlike,
  notInArray,
  notLike,
  type AnyColumn,
  type SQL,
} from "drizzle-orm";
import type { ListFilter, ListQuery } from "./listQuery";
import { escapeLike } from "./sql";

/** The SQL expression behind each field a list may filter or sort by. */
export type ColumnMap = Record<string, AnyColumn | SQL>;

/**
 * A filter value as its column takes it: a timestamp column maps Dates to the driver, so an ISO
 * time given as text becomes a Date (an expression on jsonb compares the text itself).
 */
function valueFor(target: AnyColumn | SQL, value: unknown): unknown {
  const isTimestamp = (target as { columnType?: string }).columnType === "PgTimestamp";
  if (!isTimestamp) return value;
  const toDate = (v: unknown) => (typeof v === "string" ? new Date(v) : v);
  return Array.isArray(value) ? value.map(toDate) : toDate(value);
}

function condition(target: AnyColumn | SQL, filter: ListFilter): SQL | undefined {
  // A column or an expression (generic records filter on data->>'field'); drizzle takes either at run time.
  const column = target as SQL;
  const v = valueFor(target, filter.value) as never;
  const text = typeof filter.value === "string" ? escapeLike(filter.value) : "";
  switch (filter.operator) {
    case "eq":
      return eq(column, v);
    case "ne":
      return ne(column, v);
    case "lt":
      return lt(column, v);
    case "gt":
      return gt(column, v);
    case "lte":
      return lte(column, v);
    case "gte":
      return gte(column, v);
    case "in":
      return inArray(column, v);
    case "nin":
      return notInArray(column, v);
    case "contains":
      return ilike(column, `%${text}%`);
    case "ncontains":
      return notIlike(column, `%${text}%`);
    case "containss":
      return like(column, `%${text}%`);
    case "ncontainss":
      return notLike(column, `%${text}%`);
    case "startswith":
      return ilike(column, `${text}%`);
    case "nstartswith":
      return notIlike(column, `${text}%`);
    case "endswith":
      return ilike(column, `%${text}`);
    case "nendswith":
      return notIlike(column, `%${text}`);
    case "between":
      return between(column, (v as unknown[])[0], (v as unknown[])[1]);
    case "nbetween":
      return notBetween(column, (v as unknown[])[0], (v as unknown[])[1]);
    case "null":
      return isNull(column);
    case "nnull":
      return isNotNull(column);
    default:
      return not(eq(column, column)); // unreachable: operators are validated before
  }
}

/** WHERE for the declared filters; every filter runs in SQL. */
export function filtersToSql(filters: ListFilter[], columns: ColumnMap): SQL | undefined {
  return and(...filters.map((f) => condition(columns[f.field]!, f)));
}

/** ORDER BY for the requested sort, with a unique tiebreaker so pages never overlap. */
export function sortToSql(sort: ListQuery["sort"], columns: ColumnMap, tiebreaker: AnyColumn | SQL): SQL[] {
  return [...sort.map((s) => (s.order === "desc" ? desc(columns[s.field]!) : asc(columns[s.field]!))), asc(tiebreaker)];
}

export function pageToLimitOffset(query: Pick<ListQuery, "page" | "pageSize">) {
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
}
