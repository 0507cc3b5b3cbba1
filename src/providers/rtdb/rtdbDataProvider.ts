import type {
  BaseRecord,
  CreateParams,
  CrudFilter,
  CrudSort,
  DataProvider,
  DeleteOneParams,
  GetListParams,
  GetManyParams,
  GetOneParams,
  HttpError,
  LogicalFilter,
  UpdateParams,
} from "@refinedev/core";
import { z } from "zod";
import {
  FILTER_OPERATORS,
  TEXT_FILTER_OPERATORS,
  type FilterOperator,
  type ResourceDefinition,
} from "../../resources/define";
import type { RtdbPort, RtdbPrimitive, RtdbQuery } from "./rtdbPort";
import { childPath, indexedPaths } from "./rtdbRules";
import { throwHttpError } from "../throwHttpError";

type Definition = ResourceDefinition;

export interface RtdbDataProviderOptions {
  /** The node whose children are the records of `resource`, e.g. `${resource}/${uid}`. */
  root: (resource: string) => string;
  resources: (name: string) => Definition | undefined;
}

/**
 * `meta.exactTotal: false` on getList lets a safe query take only the rows up to the page (plus one)
 * from the server; `total` is then exact on the last page and a lower bound (one past the page)
 * before it. Without it every matching row is fetched so that `total` is exact.
 */
export interface RtdbListMeta {
  exactTotal?: boolean;
}

/* ------------------------------------------------------------------------------------------------
 * The database's ordering of values, used for client-side sorting and range filters so that what
 * the client finishes agrees with what the server selected: null/missing < false < true <
 * numbers < strings (UTF-16 code units) < objects.
 * --------------------------------------------------------------------------------------------- */
const rank = (v: unknown) =>
  v === null || v === undefined
    ? 0
    : typeof v === "boolean"
      ? 1
      : typeof v === "number"
        ? 2
        : typeof v === "string"
          ? 3
          : 4;

export function compareRtdbValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0 || ra === 4) return 0;
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** The database's ordering of keys: 32-bit integer keys first, numerically; then the others as strings. */
export function compareRtdbKeys(a: string, b: string): number {
  if (a === b) return 0;
  const asInt = (s: string) =>
    /^-?(0*)\d{1,10}$/.test(s) && Number(s) >= -(2 ** 31) && Number(s) < 2 ** 31 ? Number(s) : null;
  const ia = asInt(a);
  const ib = asInt(b);
  if (ia !== null && ib !== null) return ia - ib || a.length - b.length;
  if (ia !== null) return -1;
  if (ib !== null) return 1;
  return a < b ? -1 : 1;
}

/* ------------------------------------------------------------------------------------------------
 * Filters
 * --------------------------------------------------------------------------------------------- */
const SUPPORTED = new Set<string>(FILTER_OPERATORS);
const TEXT: ReadonlySet<string> = TEXT_FILTER_OPERATORS;
const RANGE = new Set<string>(["gt", "gte", "lt", "lte", "between", "startswith"]);

/** A field filter with its value coerced to the stored type and the child path it reads. */
interface FieldFilter {
  field: string;
  path: string[];
  operator: FilterOperator;
  value: unknown;
}
type Predicate = (record: BaseRecord) => boolean;

const isPrimitive = (v: unknown): v is RtdbPrimitive =>
  v === null || ["string", "number", "boolean"].includes(typeof v);
const isEmpty = (v: unknown) => v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
const valueAt = (record: BaseRecord, path: string[]) =>
  path.reduce<unknown>((node, key) => (node == null ? undefined : (node as Record<string, unknown>)[key]), record);
const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : undefined);
/** Text without letters that have a case: a case-insensitive prefix of it is also a case-sensitive one. */
const caseless = (s: string) => s.toLowerCase() === s && s.toUpperCase() === s;

/** Filter values arrive as text from URLs; coerce them to the field's stored type as the backend does. */
function coerce(definition: Definition, field: string, operator: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => coerce(definition, field, operator, v));
  if (typeof value !== "string" || TEXT.has(operator)) return value;
  let schema = (definition.schema.shape as Record<string, z.ZodType>)[field];
  while (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) schema = schema.unwrap() as z.ZodType;
  const numeric = definition.fields[field]?.kind === "money" || schema instanceof z.ZodNumber;
  if (numeric && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (schema instanceof z.ZodBoolean && (value === "true" || value === "false")) return value === "true";
  return value;
}

function test(filter: FieldFilter, record: BaseRecord): boolean {
  const { operator, value } = filter;
  const actual = valueAt(record, filter.path);
  const eq = (v: unknown) => (actual ?? null) === (v ?? null);
  // Comparisons never match a missing value (as in SQL); otherwise they follow the database's ordering.
  const cmp = (v: unknown) => (actual == null ? NaN : compareRtdbValues(actual, v));
  const text = typeof actual === "string" ? actual : undefined;
  const pair = Array.isArray(value) ? value : [];
  switch (operator) {
    case "eq":
      return eq(value);
    case "ne":
      return !eq(value);
    case "lt":
      return cmp(value) < 0;
    case "lte":
      return cmp(value) <= 0;
    case "gt":
      return cmp(value) > 0;
    case "gte":
      return cmp(value) >= 0;
    case "between":
      return cmp(pair[0]) >= 0 && cmp(pair[1]) <= 0;
    case "nbetween":
      return !(cmp(pair[0]) >= 0 && cmp(pair[1]) <= 0);
    case "in":
      return pair.some(eq);
    case "nin":
      return !pair.some(eq);
    case "contains":
      return text !== undefined && text.toLowerCase().includes(lower(value) ?? "");
    case "ncontains":
      return !(text !== undefined && text.toLowerCase().includes(lower(value) ?? ""));
    case "containss":
      return text !== undefined && text.includes(String(value));
    case "ncontainss":
      return !(text !== undefined && text.includes(String(value)));
    case "startswith":
      return text !== undefined && text.toLowerCase().startsWith(lower(value) ?? "");
    case "nstartswith":
      return !(text !== undefined && text.toLowerCase().startsWith(lower(value) ?? ""));
    case "endswith":
      return text !== undefined && text.toLowerCase().endsWith(lower(value) ?? "");
    case "nendswith":
      return !(text !== undefined && text.toLowerCase().endsWith(lower(value) ?? ""));
    case "null":
      return actual == null;
    case "nnull":
      return actual != null;
  }
}

interface Plan {
  /** Field filters at the top level (all must hold): the candidates for the server. */
  fields: FieldFilter[];
  /** Everything the client checks on every row: the field filters again, or/and groups, `q`. */
  predicates: Predicate[];
  /** Whether a group or `q` needs the client (then no limit may be pushed). */
  clientOnly: boolean;
}

function planFilters(definition: Definition, filters: CrudFilter[] = []): Plan {
  const plan: Plan = { fields: [], predicates: [], clientOnly: false };
  const toPredicate = (filter: CrudFilter, top: boolean): Predicate | undefined => {
    if (filter.operator === "and" || filter.operator === "or") {
      const parts = filter.value
        .map((f) => toPredicate(f, top && filter.operator === "and"))
        .filter((p) => p !== undefined);
      if (filter.operator === "or") plan.clientOnly = true;
      return filter.operator === "and"
        ? (r) => parts.every((p) => p(r))
        : parts.length
          ? (r) => parts.some((p) => p(r))
          : undefined;
    }
    const { field, operator } = filter as LogicalFilter;
    const value: unknown = filter.value;
    if (!SUPPORTED.has(operator)) {
      throw new Error(
        `Filter operator "${operator}" on "${field}" is not supported by the Realtime Database provider (supported: ${FILTER_OPERATORS.join(", ")}).`,
      );
    }
    if (operator !== "null" && operator !== "nnull" && isEmpty(value)) return undefined; // a cleared filter
    if (field === "q") {
      // Free text: a case-insensitive contains over the list columns.
      plan.clientOnly = true;
      const needle = String(value).toLowerCase();
      const columns = definition.list.columns.map((c: string) => c.split("."));
      return (r) =>
        columns.some((path: string[]) => {
          const v = valueAt(r, path);
          return isPrimitive(v) && v !== null && String(v).toLowerCase().includes(needle);
        });
    }
    const fieldFilter: FieldFilter = {
      field,
      path: childPath(definition, field).split("/"),
      operator: operator as FilterOperator,
      value: coerce(definition, field, operator, value),
    };
    if (top) plan.fields.push(fieldFilter);
    else plan.clientOnly = true;
    return (r) => test(fieldFilter, r);
  };
  for (const filter of filters) {
    const predicate = toPredicate(filter, true);
    if (predicate) plan.predicates.push(predicate);
  }
  return plan;
}

/**
 * The one query the server runs: the most selective filter it can take (an `eq`, preferring fields
 * that are not enums, else the range filters on one field), else the first sorter. `exact` says
 * whether that query selects exactly the rows of every filter (then a limit is safe).
 */
function serverQuery(
  definition: Definition,
  plan: Plan,
  sorters: readonly CrudSort[],
): { query?: RtdbQuery; exact: boolean } {
  const indexed = new Set(indexedPaths(definition));
  const pushable = plan.fields.filter((f) => indexed.has(f.path.join("/")));
  const onlyFilters = (field: string, pushed: (f: FieldFilter) => boolean) =>
    !plan.clientOnly && plan.fields.every((f) => f.field === field && pushed(f));

  const eqs = pushable.filter((f) => f.operator === "eq" && isPrimitive(f.value ?? null));
  const eq = eqs.find((f) => !definition.fields[f.field]?.options) ?? eqs[0];
  if (eq) {
    const query = { orderByChild: eq.path.join("/"), equalTo: (eq.value ?? null) as RtdbPrimitive };
    return { query, exact: onlyFilters(eq.field, (f) => f === eq) };
  }

  const ranges = pushable.filter((f) => {
    if (!RANGE.has(f.operator)) return false;
    if (f.operator === "between") return Array.isArray(f.value) && f.value.length === 2 && f.value.every(isPrimitive);
    if (f.operator === "startswith") return typeof f.value === "string" && caseless(f.value) && f.value.length > 0;
    return isPrimitive(f.value) && f.value !== null;
  });
  const field = ranges[0]?.field;
  if (field !== undefined) {
    let from: RtdbPrimitive | undefined;
    let to: RtdbPrimitive | undefined;
    const atLeast = (v: RtdbPrimitive) => (from === undefined || compareRtdbValues(v, from) > 0) && (from = v);
    const atMost = (v: RtdbPrimitive) => (to === undefined || compareRtdbValues(v, to) < 0) && (to = v);
    for (const f of ranges.filter((r) => r.field === field)) {
      const v = f.value as RtdbPrimitive;
      if (f.operator === "gt" || f.operator === "gte") atLeast(v);
      else if (f.operator === "lt" || f.operator === "lte") atMost(v);
      else if (f.operator === "between") {
        atLeast((f.value as RtdbPrimitive[])[0]!);
        atMost((f.value as RtdbPrimitive[])[1]!);
      } else {
        // A prefix: every string that starts with it lies between it and its successor.
        const s = v as string;
        atLeast(s);
        atMost(s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1));
      }
    }
    // Bounds are inclusive and typed: a bound on a type different from the field's still selects a
    // superset, which the client then narrows (e.g. endAt(10) also returns rows missing the field).
    const query: RtdbQuery = { orderByChild: childPath(definition, field) };
    if (from !== undefined) query.startAt = from;
    if (to !== undefined) query.endAt = to;
    const exactOperators = new Set(["gte", "lte", "between"]);
    return { query, exact: onlyFilters(field, (f) => ranges.includes(f) && exactOperators.has(f.operator)) };
  }

  const sorter = sorters[0];
  if (sorter && indexed.has(childPath(definition, sorter.field))) {
    return {
      query: { orderByChild: childPath(definition, sorter.field) },
      exact: !plan.clientOnly && plan.fields.length === 0,
    };
  }
  return { exact: false };
}

function compareRecords(definition: Definition, sorters: readonly CrudSort[]) {
  const paths = sorters.map((s) => ({
    path: childPath(definition, s.field).split("/"),
    sign: s.order === "desc" ? -1 : 1,
  }));
  // Ties go by key, in the direction of the first sorter: what a reversed limitToLast gives.
  const tieSign = paths[0]?.sign ?? 1;
  return (a: BaseRecord, b: BaseRecord) => {
    for (const { path, sign } of paths) {
      const c = compareRtdbValues(valueAt(a, path), valueAt(b, path));
      if (c !== 0) return c * sign;
    }
    return compareRtdbKeys(String(a.id), String(b.id)) * tieSign;
  };
}

/* ------------------------------------------------------------------------------------------------
 * The provider
 * --------------------------------------------------------------------------------------------- */
const notFound = (resource: string, id: unknown): HttpError => ({
  message: `No ${resource} record with id ${String(id)}.`,
  statusCode: 404,
});

/** Database errors as Refine's HttpError: a refusal by the security rules is a 403. */
async function guard<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if ((error as { statusCode?: unknown })?.statusCode !== undefined) throw error;
    throwHttpError({ message, statusCode: /permission[_ ]denied/i.test(message) ? 403 : 500 });
  }
}

/** Record fields as stored: without `id` (it is the key) and without undefined values (the SDK refuses them). */
function stored(variables: unknown): Record<string, unknown> {
  const fields = Object.entries((variables ?? {}) as Record<string, unknown>);
  return Object.fromEntries(fields.filter(([k, v]) => k !== "id" && v !== undefined));
}

const asRecord = (id: string, value: unknown): BaseRecord =>
  value !== null && typeof value === "object" ? { ...value, id } : { id, value };

/**
 * A Refine data provider over the Realtime Database for resources declared `source: "rtdb"`. One
 * query goes to the server (see serverQuery); every filter, the sorters and the page are then
 * finished on the client, so `total` counts the rows matching all filters. Ids come from push();
 * update() writes only the given fields.
 */
export function createRtdbDataProvider(db: RtdbPort, options: RtdbDataProviderOptions): DataProvider {
  const definitionOf = (resource: string) => {
    const definition = options.resources(resource);
    if (!definition) throw new Error(`Unknown resource "${resource}".`);
    if (definition.source !== "rtdb")
      throw new Error(`Resource "${resource}" is not served by the Realtime Database (source: ${definition.source}).`);
    return definition;
  };
  const recordPath = (resource: string, id: unknown) => {
    const key = String(id);
    if (!key || /[.#$/[\]]/.test(key))
      throwHttpError({ message: `Invalid id ${JSON.stringify(key)}.`, statusCode: 400 });
    return `${options.root(resource)}/${key}`;
  };
  const readOne = async (resource: string, id: unknown) => {
    definitionOf(resource);
    const value = await guard(db.read(recordPath(resource, id)));
    if (value === null || value === undefined) throwHttpError(notFound(resource, id));
    return asRecord(String(id), value);
  };

  return {
    getApiUrl: () => db.url,

    async getList<TData extends BaseRecord = BaseRecord>({
      resource,
      pagination,
      sorters = [],
      filters,
      meta,
    }: GetListParams) {
      const definition = definitionOf(resource);
      const plan = planFilters(definition, filters);
      const order = sorters.length ? sorters : definition.list.defaultSort;
      const { query, exact } = serverQuery(definition, plan, order);

      const paged = pagination?.mode !== "off" && pagination?.mode !== "client";
      const page = Math.max(1, pagination?.currentPage ?? 1);
      const pageSize = Math.max(1, pagination?.pageSize ?? 10);
      const first = order[0];
      // A limit is safe only when the server query alone selects and orders the rows.
      // (Without sorters the rows go by key, which is the server's order only among equal values.)
      const orderedByServer =
        order.length === 0
          ? query?.equalTo !== undefined
          : order.length === 1 && childPath(definition, first!.field) === query?.orderByChild;
      const limit =
        paged && query && exact && orderedByServer && (meta as RtdbListMeta | undefined)?.exactTotal === false
          ? page * pageSize + 1
          : undefined;
      if (limit !== undefined && query) {
        if (first?.order === "desc") query.limitToLast = limit;
        else query.limitToFirst = limit;
      }

      const children = await guard(db.get(options.root(resource), query));
      const rows = children.map((c) => asRecord(c.key, c.value)).filter((r) => plan.predicates.every((p) => p(r)));
      rows.sort(compareRecords(definition, order));
      const total = rows.length;
      return { data: (paged ? rows.slice((page - 1) * pageSize, page * pageSize) : rows) as TData[], total };
    },

    async getOne<TData extends BaseRecord = BaseRecord>({ resource, id }: GetOneParams) {
      return { data: (await readOne(resource, id)) as TData };
    },

    async getMany<TData extends BaseRecord = BaseRecord>({ resource, ids }: GetManyParams) {
      definitionOf(resource);
      const values = await Promise.all(ids.map((id) => guard(db.read(recordPath(resource, id)))));
      return {
        data: values.flatMap((v, i) => (v === null || v === undefined ? [] : [asRecord(String(ids[i]), v)])) as TData[],
      };
    },

    async create<TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      variables,
    }: CreateParams<TVariables>) {
      definitionOf(resource);
      const values = stored(variables);
      const id = await guard(db.push(options.root(resource), values));
      return { data: { ...values, id } as TData };
    },

    async update<TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      id,
      variables,
    }: UpdateParams<TVariables>) {
      const before = await readOne(resource, id);
      const values = stored(variables);
      if (Object.keys(values).length) await guard(db.update(recordPath(resource, id), values));
      const after: BaseRecord = { ...before, ...values, id: String(id) };
      for (const [k, v] of Object.entries(values)) if (v === null) delete after[k];
      return { data: after as TData };
    },

    async deleteOne<TData extends BaseRecord = BaseRecord, TVariables = object>({
      resource,
      id,
    }: DeleteOneParams<TVariables>) {
      const before = await readOne(resource, id);
      await guard(db.remove(recordPath(resource, id)));
      return { data: before as TData };
    },
  };
}
