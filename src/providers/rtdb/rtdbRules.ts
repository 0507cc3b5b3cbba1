import { z } from "zod";
import type { ResourceDefinition, Role, Scope } from "../../resources/define";

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
    if (resource.rtdb?.groupBy) {
      rules[resource.name] = groupedRules(resource);
      continue;
    }
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

/** `auth.token.role` is one of the roles an access entry names (with one of the scopes given). */
function roleIs(entry: Partial<Record<Role, Scope>> | undefined, scopes: readonly Scope[]): string | undefined {
  const roles = Object.entries(entry ?? {})
    .filter(([, scope]) => scopes.includes(scope))
    .map(([role]) => `auth.token.role === '${role}'`);
  return roles.length ? `(${roles.join(" || ")})` : undefined;
}

/** A stored field holds the schema's type of value. */
function typeRule(schema: z.ZodType): string | boolean {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodString) return "newData.isString()";
  if (inner instanceof z.ZodNumber) return "newData.isNumber()";
  if (inner instanceof z.ZodBoolean) return "newData.isBoolean()";
  return true;
}

/** Who may write a record of a grouped resource for one kind of write (create: a value; delete: null). */
function writer(entry: Partial<Record<Role, Scope>> | undefined): string {
  const any = roleIs(entry, ["all"]);
  const own = roleIs(entry, ["own"]);
  const who = [any, own && `(auth.uid === $uid && ${own})`].filter(Boolean);
  return who.length ? (who.length > 1 ? `(${who.join(" || ")})` : who[0]!) : "false";
}

/**
 * A grouped resource (`rtdb.groupBy`, e.g. presence) at /<resource>/$operator/$group/$uid: the
 * roles that may `list` it read a whole group of their own operator (that is how a page learns who
 * else is on it); the roles that may `create` write a record, those that may `delete` remove one,
 * their own only (`auth.uid === $uid`) for the scope "own". A record holds every field the schema
 * requires and no field it lacks (the key and the group are the path, not fields).
 */
function groupedRules(resource: Definition): Record<string, unknown> {
  const sameOperator = "auth != null && auth.token.operator === $operator";
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  const stored = Object.keys(shape)
    .filter((k) => k !== "id" && k !== resource.rtdb!.groupBy)
    .sort();
  const required = stored.filter((k) => !(shape[k] instanceof z.ZodOptional));
  return {
    $operator: {
      $group: {
        ".read": `${sameOperator} && ${roleIs(resource.access.list, ["all", "own"]) ?? "false"}`,
        $uid: {
          ".write":
            `${sameOperator} && (!newData.exists() || ${writer(resource.access.create)})` +
            ` && (newData.exists() || ${writer(resource.access.delete)})`,
          ".validate": `newData.hasChildren([${required.map((k) => `'${k}'`).join(", ")}])`,
          // Only the declared fields: nothing else can be parked in a presence record.
          ...Object.fromEntries(stored.map((k) => [k, { ".validate": typeRule(shape[k]!) }])),
          $other: { ".validate": false },
        },
      },
    },
  };
}
