import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Principal } from "#resources/access";
import type { SourceScope } from "#resources/define";
import type { Executor } from "../audit";
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
    const prepared = asPlaceholders.prepare(name);
    return { execute: (values) => prepared.execute(values) };
  } catch {
    return null;
  }
}

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
