import { and, eq } from "drizzle-orm";
import { accessScope, sourceScope, type Principal } from "#resources/access";
import type { Executor } from "../audit";
import { PROBLEM_TYPES } from "#resources/api";
import type { SourceScope } from "#resources/define";
import { forbidden, ProblemError } from "../errors";
import type { FieldError } from "../errors";
import { words } from "../i18n/words";
import { resourceNoun, roleMayNot } from "./refusals";
import { preparedRead } from "./preparedRead";
import { selectRecords } from "./recordQuery";
import type { DomainModule } from "./types";
import type { DeclaredResource } from "../lib/declaredResource";

/** Every served resource with its module, by name (built once by the registry). */
export type ModuleMap = ReadonlyMap<string, { resource: DeclaredResource; module: DomainModule }>;

/**
 * One record the principal may reach through `action` (its access scope), or null; 403 when the role
 * may not take the action at all. `forUpdate` locks the resource's own row for the transaction;
 * `reuse` (only for `db` that lives as long as the app, never a transaction) runs a query built once.
 */
export async function findRecordRow<Row>(
  db: Executor,
  resource: DeclaredResource,
  module: DomainModule<Row>,
  principal: Principal,
  action: string,
  id: string,
  options: { forUpdate?: boolean; reuse?: boolean } = {},
): Promise<Row | null> {
  const scope = sourceScope(principal, resource, action);
  if (!scope) throw forbidden(roleMayNot(principal.role, action, resource.name));
  const row = await findInScope(db, module, principal, scope, id, options);
  // Not among the verified callers' records: 403 when the record is there for the operator, so the
  // agent knows to verify the caller (a record of no one's, or of another operator, stays a 404).
  if (!row && scope === "verified" && (await findInScope(db, module, principal, "all", id, { reuse: options.reuse })))
    throw callerNotVerified();
  return row;
}

async function findInScope<Row>(
  db: Executor,
  module: DomainModule<Row>,
  principal: Principal,
  scope: SourceScope,
  id: string,
  options: { forUpdate?: boolean; reuse?: boolean },
): Promise<Row | null> {
  const prepared = options.reuse && !options.forUpdate ? preparedRead(db, module, principal.role, scope) : null;
  if (prepared) {
    const [row] = await prepared.execute({ operator: principal.operator, uid: principal.uid, id });
    // The prepared statement is the module's own select (preparedRead.ts), so its rows are the module's.
    return (row as Row | undefined) ?? null;
  }
  const { source } = module;
  const query = selectRecords(source, db)
    .where(and(source.scope(principal, scope), eq(source.id, id)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for("update", { of: source.table }) : await query;
  return row ?? null;
}

/** 403 `/problems/caller-not-verified`: the subscriber's records wait until the agent verifies the caller. */
export const callerNotVerified = () =>
  new ProblemError(403, words("callerVerification.notVerified"), undefined, PROBLEM_TYPES.callerNotVerified);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every reference field in `values` must point at a record the writer may open ("show" access of the
 * target): a subscriber files a claim only for their own line. Returns the owners found, by field,
 * and an error per bad field. A database failure is not "no such record": it propagates.
 */
export async function checkReferences(
  db: Executor,
  modules: ModuleMap,
  resource: DeclaredResource,
  principal: Principal,
  values: Record<string, unknown>,
) {
  const owners: Record<string, string | null> = {};
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(values)) {
    const spec = resource.fields[field];
    if (spec?.kind !== "reference" || !spec.reference || value === null || value === undefined) continue;
    const target = modules.get(spec.reference.resource);
    // An id is text; anything else matches no record.
    const id = typeof value === "string" ? value : "";
    const found =
      target && UUID.test(id) && accessScope(principal, target.resource, "show")
        ? await findRecordRow(db, target.resource, target.module, principal, "show", id)
        : null;
    if (found) owners[field] = target!.module.source.ownerUids(found)[0] ?? null;
    else
      errors.push({
        path: field,
        message: words("engine.noUsableReference", {
          resource: target ? resourceNoun(target.resource) : spec.reference.resource,
        }),
      });
  }
  return { owners, errors };
}
