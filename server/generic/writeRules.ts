import { z } from "zod";
import type { Role } from "#resources/define";
import type { FieldError } from "../errors";
import { words } from "../i18n/words";
import type { DeclaredResource } from "../lib/declaredResource";

export type WriteKind = "create" | "edit";

/** Fields of every generic record that only the server sets. */
const SERVER_SET = ["id", "createdAt", "updatedAt"];

const shapeOf = (resource: DeclaredResource) => resource.schema.shape as Record<string, z.ZodType>;

/** The fields a form of this kind may send, as the declaration lists them. */
export const formFields = (resource: DeclaredResource, kind: WriteKind): readonly string[] =>
  resource.form?.[kind] ?? [];

/**
 * The request body of POST (every create field required as the schema says) or PATCH (any subset)
 * as one zod schema: each declared field validated by the record's own schema. `loose` so that keys
 * outside the form reach `refusedFields`, which names each one with the reason (unknown, or forbidden).
 */
export function writeBodySchema(resource: DeclaredResource, kind: WriteKind) {
  const shape = shapeOf(resource);
  const rules = (resource.writeRules ?? {}) as Record<string, z.ZodType | undefined>;
  // A field's write rule ("not in the future") replaces its record schema on writes only.
  // A create field with a default (a start day of today) may be left out: the default fills it.
  const defaults = resource.store === "table" ? {} : (resource.defaults ?? {});
  const picked = Object.fromEntries(
    formFields(resource, kind).map((field) => {
      const schema = rules[field] ?? shape[field]!;
      return [field, kind === "create" && Object.hasOwn(defaults, field) ? schema.optional() : schema];
    }),
  );
  const body = z.object(picked).loose();
  return kind === "create" ? body : body.partial();
}

/**
 * Keys a caller may not send, each with why: 400 for a field the resource does not have, 403 for a
 * field that exists but this role may not set (server-set fields such as status, or `writableBy`).
 */
export function refusedFields(resource: DeclaredResource, kind: WriteKind, role: Role, body: Record<string, unknown>) {
  const shape = shapeOf(resource);
  const form = new Set(formFields(resource, kind));
  const unknown: FieldError[] = [];
  const forbidden: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (!Object.hasOwn(shape, key)) unknown.push({ path: key, message: words("generic.unknownField") });
    else if (!form.has(key))
      forbidden.push({
        path: key,
        message: words(kind === "create" ? "generic.serverSet" : "generic.cannotChange"),
      });
    else {
      const writers = resource.fields[key]?.writableBy;
      if (writers && !writers.includes(role))
        forbidden.push({ path: key, message: words("generic.roleMayNotSet", { role }) });
    }
  }
  return { unknown, forbidden };
}

/** Checks a document declaration once at start-up, so a mistake in it fails loudly instead of per request. */
export function assertWritable(resource: DeclaredResource) {
  const shape = shapeOf(resource);
  for (const required of SERVER_SET) {
    if (!shape[required])
      throw new Error(
        `${resource.name}: a resource served by the generic API needs an '${required}' field in its schema`,
      );
  }
  for (const kind of ["create", "edit"] as const) {
    for (const field of formFields(resource, kind)) {
      if (!shape[field] || SERVER_SET.includes(field))
        throw new Error(`${resource.name}: form.${kind} names '${field}', which is not a writable field of its schema`);
    }
  }
  // Computed fields are the server's: numbers (or money) from two numeric fields, never in a form.
  const computed = resource.store === "table" ? {} : (resource.computed ?? {});
  const numeric = (field: string) =>
    ["number", "quantity", "dataMb", "money"].includes(resource.fields[field]?.kind ?? "");
  for (const [field, rule] of Object.entries(computed)) {
    if (!shape[field]) throw new Error(`${resource.name}: computed field '${field}' is not in its schema`);
    if (formFields(resource, "create").includes(field) || formFields(resource, "edit").includes(field))
      throw new Error(`${resource.name}: computed field '${field}' cannot be in a form`);
    for (const operand of rule && "of" in rule ? rule.of : [])
      if (!shape[operand] || !numeric(operand))
        throw new Error(
          `${resource.name}: computed field '${field}' needs numeric fields, and '${operand}' is not one`,
        );
  }
  // A new record must be complete: every field the form does not ask for needs a default (or may be absent).
  const created = new Set<string>([
    ...formFields(resource, "create"),
    ...Object.keys(resource.defaults ?? {}),
    ...Object.keys(computed),
    ...SERVER_SET,
  ]);
  for (const [field, schema] of Object.entries(shape)) {
    if (!created.has(field) && !schema.safeParse(undefined).success)
      throw new Error(
        `${resource.name}: '${field}' is neither in form.create nor in defaults, so no record could be created`,
      );
  }
  for (const [field, value] of Object.entries(resource.defaults ?? {})) {
    // An expression default is type-checked against its field's kind instead (declaration.ts).
    if (value !== null && typeof value === "object" && "expression" in value) continue;
    if (!shape[field]?.safeParse(value).success)
      throw new Error(`${resource.name}: the default of '${field}' does not pass its schema`);
  }
  for (const [name, action] of Object.entries(resource.actions ?? {})) {
    for (const field of [...Object.keys(action.set ?? {}), ...Object.keys(action.when ?? {})]) {
      if (!shape[field]) throw new Error(`${resource.name}: action '${name}' names '${field}', which its schema lacks`);
    }
    for (const [field, value] of Object.entries(action.set ?? {})) {
      if (!shape[field]!.safeParse(value).success)
        throw new Error(`${resource.name}: action '${name}' sets '${field}' to a value its schema refuses`);
    }
  }
  for (const field of Object.keys(resource.writeRules ?? {})) {
    if (!shape[field]) throw new Error(`${resource.name}: writeRules names '${field}', which its schema lacks`);
  }
  const through = resource.ownership?.through;
  if (through && resource.fields[through]?.kind !== "reference")
    throw new Error(`${resource.name}: ownership.through must name a reference field`);
}
