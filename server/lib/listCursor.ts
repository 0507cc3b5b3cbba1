import { and, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { ListQuery } from "./listQuery";
import type { ColumnMap } from "./listSql";

/**
 * Keyset pages (issue 30): where a page ended, as the next request's `cursor`. It carries the sort it
 * belongs to and the last row's sort values and id as the database writes them as text (a timestamp
 * keeps its microseconds, which a JavaScript Date would lose, and the next page would repeat a row).
 * Not signed: a changed cursor only moves where the caller's own list goes on, within their scope;
 * a value the column cannot take is refused by the database (a data exception), and the list answers 400 at `cursor`.
 */
export interface ListCursor {
  /** The sort it was made for, as the `sort` parameter writes it ("-createdAt,name"). */
  sort: string;
  /** The last row's value of each sort field, in order (null where the row had none). */
  values: (string | null)[];
  /** The last row's id: the tiebreaker that makes every row's place unique. */
  id: string;
}

const cursorShape = z.object({ s: z.string(), v: z.array(z.string().nullable()), i: z.string() });

/** The `sort` parameter that asks for this sort. */
export const sortParameter = (sort: ListQuery["sort"]) =>
  sort.map((s) => `${s.order === "desc" ? "-" : ""}${s.field}`).join(",");

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.sort, v: cursor.values, i: cursor.id })).toString("base64url");
}

/** The cursor in a `cursor` parameter, or why it is not one (a key of the server's words). */
export function decodeCursor(
  text: string,
  sort: ListQuery["sort"],
): { cursor: ListCursor } | { refused: "lib.list.cursor" | "lib.list.cursorOtherSort" } {
  let parsed: z.output<typeof cursorShape>;
  try {
    parsed = cursorShape.parse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
  } catch {
    return { refused: "lib.list.cursor" };
  }
  if (parsed.s !== sortParameter(sort)) return { refused: "lib.list.cursorOtherSort" };
  if (parsed.v.length !== sort.length) return { refused: "lib.list.cursor" };
  return { cursor: { sort: parsed.s, values: parsed.v, id: parsed.i } };
}

/** Each sort field's expression as text, and the id's: what a page's last row leaves in its cursor. */
export function cursorSelection(sort: ListQuery["sort"], columns: ColumnMap, id: AnyColumn | SQL) {
  return {
    ...Object.fromEntries(sort.map((s, i) => [`k${i}`, sql<string | null>`(${columns[s.field]!})::text`])),
    id: sql<string>`(${id})::text`,
  };
}

/**
 * The rows after the cursor in the order sortToSql gives (each field as asked, then the id
 * ascending). PostgreSQL puts nulls last going up and first going down; a null value is placed so.
 * For the first field a bound an index can use is added when the column holds no nulls.
 */
export function afterCursor(sort: ListQuery["sort"], columns: ColumnMap, id: AnyColumn | SQL, cursor: ListCursor): SQL {
  const keys = sort.map((s, i) => ({ expr: columns[s.field]!, desc: s.order === "desc", value: cursor.values[i]! }));
  const after = (i: number): SQL => {
    if (i === keys.length) return sql`${id} > ${cursor.id}`;
    const { expr, desc, value } = keys[i]!;
    const beyond =
      value === null
        ? desc
          ? sql`${expr} is not null`
          : undefined
        : desc
          ? sql`${expr} < ${value}`
          : sql`(${expr} > ${value} or ${expr} is null)`;
    const same = value === null ? sql`${expr} is null` : sql`${expr} = ${value}`;
    return or(beyond, and(same, after(i + 1)))!;
  };
  const first = keys[0];
  const notNull = (first?.expr as { notNull?: boolean } | undefined)?.notNull === true;
  const bound =
    first && first.value !== null && notNull
      ? first.desc
        ? sql`${first.expr} <= ${first.value}`
        : sql`${first.expr} >= ${first.value}`
      : undefined;
  return and(bound, after(0))!;
}
