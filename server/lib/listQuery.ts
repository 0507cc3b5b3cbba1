import { z } from "zod";
import { TEXT_FILTER_OPERATORS, type FilterOperator } from "#resources/define";
import type { WordsKey } from "../i18n/words";
import type { DeclaredResource } from "./declaredResource";
import { decodeCursor, type ListCursor } from "./listCursor";

export interface ListFilter {
  field: string;
  operator: FilterOperator;
  /** Already validated and typed: a scalar, a list (in/nin), a pair (between), a boolean (null/nnull). */
  value: unknown;
}

export interface ListQuery {
  page: number;
  pageSize: number;
  sort: { field: string; order: "asc" | "desc" }[];
  q?: string;
  filters: ListFilter[];
  /**
   * Keyset pages: the request gave `cursor` (empty for the first page), so the answer says where the
   * next page starts (`next`) and `page` is not read; `after` is where this page starts.
   */
  keyset?: { after?: ListCursor };
}

export const MAX_PAGE_SIZE = 100;
const ID_OPERATORS: readonly FilterOperator[] = ["eq", "in"];
const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;
const INT4_MESSAGE: WordsKey = "lib.list.int4";
/** A message is a key of the server's words (lib.ts), worded for the reader when the query is refused. */
const said = (key: WordsKey) => key;

const FILTER_KEY = /^filter\[([A-Za-z][\w]*)\](?:\[([a-z]+)\])?$/;

/**
 * The list contract of design.md §4 for one resource, as one zod schema: `page`, `pageSize`,
 * `sort=-createdAt,name`, `q` and `filter[field]=v` / `filter[field][op]=v`. Only the sorts and
 * filters the declaration allows pass; every rejection names the parameter that caused it.
 */
export function listQuerySchema(resource: DeclaredResource) {
  const sortable = new Set<string>(resource.list.sortable);
  const filterValue = z.union([z.string(), z.array(z.string())]);
  return z
    .object({
      page: z.coerce.number().int().min(1).max(100_000).default(1).describe("1-based page number"),
      pageSize: z.coerce
        .number()
        .int()
        .min(1)
        .max(MAX_PAGE_SIZE)
        .default(20)
        .describe(`rows per page, at most ${MAX_PAGE_SIZE}`),
      sort: z
        .string()
        .max(200)
        .optional()
        .describe(`comma-separated fields, '-' for descending; sortable: ${[...sortable].join(", ")}`),
      q: z.string().trim().max(100).optional().describe("free-text search"),
      cursor: z
        .string()
        .max(2000)
        .optional()
        .describe("keyset pages: empty for the first, then the previous page's `next`; `page` is then not read"),
      // Declared so the OpenAPI document lists every filter a client (or a fuzzer) may use; parsed below like any other key.
      ...Object.fromEntries(filterKeys(resource).map(([key, hint]) => [key, filterValue.optional().describe(hint)])),
    })
    .catchall(filterValue.describe("filter[field]=v or filter[field][op]=v"))
    .transform((raw, ctx): ListQuery => {
      const { page, pageSize, sort, q, cursor, ...rest } = raw;
      const sorters = sort === undefined ? [...resource.list.defaultSort] : parseSort(sort, sortable, ctx);
      let keyset: ListQuery["keyset"];
      if (cursor !== undefined) {
        const decoded = cursor === "" ? { cursor: undefined } : decodeCursor(cursor, sorters);
        if ("refused" in decoded) ctx.addIssue({ code: "custom", path: ["cursor"], message: said(decoded.refused) });
        else keyset = { after: decoded.cursor };
      }
      const filters: ListFilter[] = [];
      for (const [key, value] of Object.entries(rest)) {
        if (value === undefined) continue;
        const match = FILTER_KEY.exec(key);
        if (!match) {
          ctx.addIssue({ code: "custom", path: [key], message: said("lib.list.unknownParameter") });
          continue;
        }
        const filter = parseFilter(resource, match[1]!, (match[2] ?? "eq") as FilterOperator, value, key, ctx);
        if (filter) filters.push(filter);
      }
      return { page, pageSize, sort: sorters, q: q || undefined, filters, ...(keyset ? { keyset } : {}) };
    });
}

/** Every filter parameter the declaration allows, with what its value looks like. */
function filterKeys(resource: DeclaredResource): [string, string][] {
  const filters = { id: ID_OPERATORS, ...resource.list.filters } as Record<string, readonly FilterOperator[]>;
  return Object.entries(filters).flatMap(([field, operators]) => {
    const hint = (operator: FilterOperator) =>
      operator === "in" || operator === "nin"
        ? `${field} ${operator}: comma-separated values`
        : operator === "between" || operator === "nbetween"
          ? `${field} ${operator}: from,to`
          : operator === "null" || operator === "nnull"
            ? `${field} ${operator}: no value`
            : `${field} ${operator}`;
    return [
      ...(operators.includes("eq") ? [[`filter[${field}]`, `${field} eq`] as [string, string]] : []),
      ...operators.map((operator) => [`filter[${field}][${operator}]`, hint(operator)] as [string, string]),
    ];
  });
}

function parseSort(sort: string, sortable: Set<string>, ctx: z.RefinementCtx) {
  const result: ListQuery["sort"] = [];
  for (const part of sort
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const field = part.replace(/^[-+]/, "");
    if (!sortable.has(field)) {
      ctx.addIssue({
        code: "custom",
        path: ["sort"],
        message: said("lib.list.cannotSort"),
        params: { field, sortable: [...sortable].join(", ") },
      });
      continue;
    }
    result.push({ field, order: part.startsWith("-") ? "desc" : "asc" });
  }
  return result;
}

function parseFilter(
  resource: DeclaredResource,
  field: string,
  operator: FilterOperator,
  raw: string | string[],
  key: string,
  ctx: z.RefinementCtx,
): ListFilter | undefined {
  // Every list can be narrowed to given ids (a page asking for the records its rows reference, in one request).
  // Own keys only: `filter[constructor]` must not find Object.prototype.constructor.
  const allowed: readonly FilterOperator[] | undefined =
    (Object.hasOwn(resource.list.filters, field) ? resource.list.filters[field] : undefined) ??
    (field === "id" ? ID_OPERATORS : undefined);
  if (!allowed) {
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: said("lib.list.cannotFilter"),
      params: { field, filterable: Object.keys(resource.list.filters).join(", ") },
    });
    return;
  }
  if (!allowed.includes(operator)) {
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: said("lib.list.operatorNotAllowed"),
      params: { operator, field, allowed: allowed.join(", ") },
    });
    return;
  }
  if (Array.isArray(raw)) {
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: said("lib.list.once"),
    });
    return;
  }
  const scalar = scalarSchema(resource, field, operator);
  const parse = (text: string) => {
    // The value's own issue, moved to the parameter: worded for the reader like any other (its code,
    // bounds and input kept, so zod's locale or the declared message's key can word it again).
    const result = scalar.safeParse(text, { reportInput: true });
    if (!result.success) {
      const issue = result.error.issues[0];
      ctx.addIssue(
        issue ? { ...issue, path: [key] } : { code: "custom", path: [key], message: said("lib.list.invalidValue") },
      );
    }
    return result.success ? result.data : undefined;
  };
  let value: unknown;
  if (operator === "in" || operator === "nin") {
    const items = raw.split(",").filter((s) => s !== "");
    if (items.length === 0 || items.length > 50) {
      ctx.addIssue({ code: "custom", path: [key], message: said("lib.list.oneToFifty") });
      return;
    }
    value = items.map(parse);
  } else if (operator === "between" || operator === "nbetween") {
    const items = raw.split(",");
    if (items.length !== 2) {
      ctx.addIssue({ code: "custom", path: [key], message: said("lib.list.fromTo") });
      return;
    }
    value = items.map(parse);
  } else if (operator === "null" || operator === "nnull") {
    if (raw !== "" && raw !== "true") {
      ctx.addIssue({ code: "custom", path: [key], message: said("lib.list.noValue") });
      return;
    }
    value = true;
  } else {
    value = parse(raw);
  }
  return { field, operator, value };
}

/** What one filter value must look like: the field's own schema, coerced from text. */
function scalarSchema(resource: DeclaredResource, field: string, operator: FilterOperator): z.ZodType {
  if (TEXT_FILTER_OPERATORS.has(operator)) return z.string().min(1, said("lib.list.notEmpty")).max(100);
  const kind = resource.fields[field]?.kind;
  // Integers are compared with integer columns: a bound outside their range is a 400, not a database error.
  if (kind === "money")
    return z.coerce
      .number()
      .int(said("lib.list.wholeMinorUnits"))
      .min(INT4_MIN, INT4_MESSAGE)
      .max(INT4_MAX, INT4_MESSAGE);
  // A filter bound is any valid date or time: the record's own rules (say, "not in the future") are not the filter's.
  if (kind === "date") return z.iso.date(said("lib.list.date"));
  if (kind === "datetime") return z.iso.datetime({ offset: true, message: said("lib.list.datetime") });
  let schema = (resource.schema.shape as Record<string, z.ZodType>)[field];
  if (!schema) return z.string().max(100);
  while (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
  if (schema instanceof z.ZodNumber) {
    const number = z.coerce.number(said("lib.list.number")).pipe(schema);
    return schema.isInt ? number.pipe(z.number().min(INT4_MIN, INT4_MESSAGE).max(INT4_MAX, INT4_MESSAGE)) : number;
  }
  if (schema instanceof z.ZodBoolean) return z.enum(["true", "false"]).transform((v) => v === "true");
  return schema;
}
