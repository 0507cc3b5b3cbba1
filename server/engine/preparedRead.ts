import { createHash } from "node:crypto";
import { and, Column, eq, is, SQL, sql, type DriverValueDecoder } from "drizzle-orm";
import pg from "pg";
import type { Principal } from "#resources/access";
import type { SourceScope } from "#resources/define";
import type { Executor } from "../audit";
import { DRIZZLE_TEXT_TYPES } from "../db/drizzleTextTypes";
import { selectRecords } from "./recordQuery";
import type { DomainModule } from "./types";

// GET /{resource}/{id} is the hottest read, and building its query (drizzle walking the select, the
// joins and the scope for every request) cost more CPU than the rest of the request together. The
// query is the same for every caller of one role and scope but for three values, so it is built once
// with placeholders for them and prepared (on PostgreSQL a named statement, parsed once per
// connection). Nothing is given up: the same SQL, the same scope, the same values.

/** Something that runs the prepared read with the request's values. */
export interface PreparedRead {
  execute(values: { operator: string; uid: string; id: string }): Promise<unknown[]>;
  /** Who runs it: node-postgres's pool directly, or drizzle's prepared query (PGlite, a nested selection). */
  readonly via: "pool" | "drizzle";
}

const PLACEHOLDERS = { operator: sql.placeholder("operator"), uid: sql.placeholder("uid"), id: sql.placeholder("id") };
type Name = keyof typeof PLACEHOLDERS;

const build = (db: Executor, module: DomainModule, principal: Principal, scope: SourceScope, id: unknown) =>
  selectRecords(module.source, db)
    .where(and(module.source.scope(principal, scope), eq(module.source.id, id as string)))
    .limit(1);

const isPlaceholder = (value: unknown): value is { name: Name } =>
  value === PLACEHOLDERS.operator || value === PLACEHOLDERS.uid || value === PLACEHOLDERS.id;

/**
 * The query with placeholders, or null when the module's scope does not use the principal's values
 * as plain SQL parameters (it computes with them, or throws on a placeholder): then the caller builds
 * the query per request as before. Proven by building it with two sample principals: same SQL text,
 * and each placeholder's position holds exactly that sample's value.
 */
function prepare(db: Executor, module: DomainModule, role: Principal["role"], scope: SourceScope): PreparedRead | null {
  try {
    const asPlaceholders = build(
      db,
      module,
      { role, operator: PLACEHOLDERS.operator, uid: PLACEHOLDERS.uid } as unknown as Principal,
      scope,
      PLACEHOLDERS.id,
    );
    const shape = asPlaceholders.toSQL();
    const samples = [
      { operator: "SAMPLEA", uid: "sample-uid-a", id: "00000000-0000-4000-8000-00000000000a" },
      { operator: "SAMPLEB", uid: "sample-uid-b", id: "00000000-0000-4000-8000-00000000000b" },
    ];
    for (const sample of samples) {
      const built = build(db, module, { role, operator: sample.operator, uid: sample.uid }, scope, sample.id).toSQL();
      if (built.sql !== shape.sql || built.params.length !== shape.params.length) return null;
      const same = shape.params.every((param: unknown, i: number) =>
        isPlaceholder(param)
          ? built.params[i] === sample[param.name]
          : JSON.stringify(built.params[i]) === JSON.stringify(param),
      );
      if (!same) return null;
    }
    // Named after its text: one statement per distinct query, whichever app instance prepares it.
    const name = `read_${createHash("sha1").update(shape.sql).digest("hex").slice(0, 20)}`;
    const direct = onPool(db, name, shape, asPlaceholders._.selectedFields);
    if (direct) return direct;
    const prepared = asPlaceholders.prepare(name);
    return { via: "drizzle", execute: (values) => prepared.execute(values) };
  } catch {
    return null;
  }
}

/** Dates, times, intervals and a few arrays as PostgreSQL writes them, as drizzle asks of node-postgres. */
const KEPT_AS_TEXT = new Set(Object.keys(DRIZZLE_TEXT_TYPES).map(Number));
const asText = (value: string) => value;
/** Results come as text (no statement here asks for binary). */
const typeParsers = {
  getTypeParser: (oid: number): ((value: string) => unknown) =>
    KEPT_AS_TEXT.has(oid) ? asText : (pg.types.getTypeParser(oid) as (value: string) => unknown),
};

/**
 * A node-postgres pool, or what stands for one (a read replica's failover pool): drizzle's own test.
 * PGlite's client is not one, and a transaction's handle has no client of its own.
 */
const isPool = (client: unknown): client is Pick<pg.Pool, "query"> =>
  client instanceof pg.Pool ||
  (typeof client === "object" && client !== null && client.constructor.name.includes("Pool"));

/**
 * On node-postgres (not in a transaction), the named statement goes to the pool itself, and its
 * row is decoded by each selected field's decoder, looked up once here. Drizzle's execute does the
 * same per call through a fresh query config, three tracing spans, its cache hook and a lookup of
 * every field's kind for every row: 10–14 µs more CPU a read, measured in process on a line's read
 * (~160 µs with its round trip; ~400 µs the whole answer), on the hottest read (issue 30, item 4).
 * A selection that nests objects is left to drizzle (its joins' nulls have rules of their own).
 */
function onPool(
  db: Executor,
  name: string,
  shape: { sql: string; params: unknown[] },
  selection: Record<string, unknown>,
): PreparedRead | null {
  const pool = (db as { $client?: unknown }).$client;
  if (!isPool(pool)) return null;
  const keys: string[] = [];
  const decoders: DriverValueDecoder<unknown, unknown>[] = [];
  for (const [key, field] of Object.entries(selection)) {
    const decoder = is(field, Column)
      ? field
      : is(field, SQL)
        ? decoderOf(field)
        : is(field, SQL.Aliased)
          ? decoderOf(field.sql)
          : undefined;
    if (!decoder) return null;
    keys.push(key);
    decoders.push(decoder);
  }
  const params = shape.params;
  return {
    via: "pool",
    async execute(values) {
      const filled = params.map((param) => (isPlaceholder(param) ? values[param.name] : param));
      const { rows } = await pool.query<unknown[]>({
        name,
        text: shape.sql,
        values: filled,
        rowMode: "array",
        types: typeParsers,
      });
      return rows.map((raw) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) {
          const value = raw[i];
          row[keys[i]!] = value === null ? null : decoders[i]!.mapFromDriverValue(value);
        }
        return row;
      });
    },
  };
}

/** An SQL expression's decoder (its `mapWith`): drizzle keeps it on the expression, out of its typings. */
const decoderOf = (expression: SQL): DriverValueDecoder<unknown, unknown> | undefined =>
  (expression as unknown as { decoder?: DriverValueDecoder<unknown, unknown> }).decoder;

const cache = new WeakMap<object, WeakMap<DomainModule, Map<string, PreparedRead | null>>>();

/** The prepared read of one record for a role and scope on `db` (which must live as long as the app). */
export function preparedRead(
  db: Executor,
  module: DomainModule,
  role: Principal["role"],
  scope: SourceScope,
): PreparedRead | null {
  let byModule = cache.get(db);
  if (!byModule) cache.set(db, (byModule = new WeakMap<DomainModule, Map<string, PreparedRead | null>>()));
  let byKey = byModule.get(module);
  if (!byKey) byModule.set(module, (byKey = new Map<string, PreparedRead | null>()));
  const key = `${role}|${scope}`;
  if (!byKey.has(key)) byKey.set(key, prepare(db, module, role, scope));
  return byKey.get(key)!;
}
