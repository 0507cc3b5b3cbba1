import type { ResourceDefinition } from "../../resources/define";

type Definition = ResourceDefinition;

/**
 * Where a declared field lives in a stored record, as a Realtime Database child path: "a.b" becomes
 * "a/b", and a money field is ordered and filtered by its minor units ("price/amount"), as the
 * backend's list contract does.
 */
export function childPath(definition: Definition, field: string): string {
  const path = field.split(".").join("/");
  return definition.fields[field]?.kind === "money" ? `${path}/amount` : path;
}

/**
 * Every child path a declaration filters or sorts on: what the server indexes and may be queried by.
 * `id` is left out: it is the record's key, not a stored child.
 */
export function indexedPaths(definition: Definition): string[] {
  const fields = new Set<string>([
    ...Object.keys(definition.list.filters),
    ...definition.list.sortable,
    ...definition.list.defaultSort.map((s) => s.field),
  ]);
  fields.delete("id");
  return [...new Set([...fields].map((f) => childPath(definition, f)))].sort();
}

export interface RtdbRulesFile {
  rules: Record<string, unknown>;
}

// Who may touch a record at /<resource>/<ownerUid>/<id>. Read and write rules cascade downwards
// (a grant on a parent cannot be taken back below it) and they do not filter: a read of a node is
// refused as a whole unless a rule on it or above it allows it.
//
// - The owner: everything under their own /<resource>/<uid>, including list queries on it.
const OWNER = "auth != null && auth.uid === $uid";
// - Staff (agent/admin claim) of the record's operator: one record at a time, and only when the
//   stored record (before and after the write) names their `operator` claim. Staff cannot list a
//   subscriber's subtree, because its node as a whole has no operator to check; staff lists go
//   through the backend.
const STAFF = "auth != null && (auth.token.role === 'agent' || auth.token.role === 'admin')";
const STAFF_READ = `${STAFF} && data.child('operator').val() === auth.token.operator`;
const STAFF_WRITE =
  `${STAFF} && (!data.exists() || data.child('operator').val() === auth.token.operator)` +
  ` && (!newData.exists() || newData.child('operator').val() === auth.token.operator)`;
// - Every stored record names the operator of whoever wrote it, so that no one can hand a record
//   to another operator's staff (.validate is not checked on deletes).
const STAMPED = "newData.child('operator').val() === auth.token.operator";

/**
 * database.rules.json for the resources declared `source: "rtdb"`: default deny at the root, then
 * per resource the access rules above and `.indexOn` for every field the declaration filters or
 * sorts on (the queries run on the children of /<resource>/<uid>, so the index sits on `$uid`).
 */
export function rtdbRules(resources: readonly Definition[]): RtdbRulesFile {
  const rules: Record<string, unknown> = { ".read": false, ".write": false };
  for (const resource of resources) {
    if (resource.source !== "rtdb") continue;
    rules[resource.name] = {
      $uid: {
        ".read": OWNER,
        ".write": OWNER,
        ".indexOn": indexedPaths(resource),
        $id: { ".read": STAFF_READ, ".write": STAFF_WRITE, ".validate": STAMPED },
      },
    };
  }
  return { rules };
}
