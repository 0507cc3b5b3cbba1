import { accessScope, type Principal } from "../../src/resources/access";
import type { ResourceDefinition } from "../../src/resources/define";
import { findResource } from "../../src/resources";
import type { Db } from "../db/client";
import type { Executor } from "../audit";
import type { FieldError } from "../errors";
import { findVisibleLine } from "../routes/lines";
import { findVisiblePlan } from "../routes/plans";
import { findDocument } from "./documentStore";

type OwnerLookup = (db: Db, principal: Principal, id: string) => Promise<{ ownerUid: string | null } | null>;

/** Resources served by a domain module of their own; every other backend resource gets the generic API. */
const domainLookups: Record<string, OwnerLookup> = { lines: findVisibleLine, plans: findVisiblePlan };

export const hasDomainModule = (name: string) => Object.hasOwn(domainLookups, name);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A record of `resourceName` the principal may open (its "show" access), with its owner; null otherwise. */
async function findReferenced(db: Executor, principal: Principal, resourceName: string, id: string) {
  if (!UUID.test(id)) return null;
  const domain = domainLookups[resourceName];
  if (domain) return domain(db as Db, principal, id);
  const target = findResource(resourceName);
  // No "show" access to the target: the reference cannot be used either.
  if (!target || !accessScope(principal, target, "show")) return null;
  const row = await findDocument(db, target, principal, "show", id);
  return row ? { ownerUid: row.ownerUid } : null;
}

/**
 * Every reference field in `values` must point at a record the writer may open (a subscriber files a
 * claim only for their own line). Returns the owners found, by field, and an error per bad field.
 */
export async function checkReferences(db: Executor, resource: ResourceDefinition<any, any>, principal: Principal, values: Record<string, unknown>) {
  const owners: Record<string, string | null> = {};
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(values)) {
    const spec = resource.fields[field];
    if (spec?.kind !== "reference" || !spec.reference || value === null || value === undefined) continue;
    const found = await findReferenced(db, principal, spec.reference.resource, String(value));
    if (found) owners[field] = found.ownerUid;
    else errors.push({ path: field, message: `no ${spec.reference.resource} record with this id that you may use` });
  }
  return { owners, errors };
}
