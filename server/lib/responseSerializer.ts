import { ResponseSerializationError } from "fastify-type-provider-zod";
import { safeEncode, safeParse, type $ZodType } from "zod/v4/core";

// Every response is checked against its route's zod schema before it is sent (design.md §7: the
// stored record's shape). fastify-type-provider-zod checks with `safeEncode`, which runs schemas
// backwards for codecs and, unlike `safeParse`, never takes zod's compiled fast path for objects:
// three times the cost of the check itself on a record read. A schema without codecs, transforms,
// defaults or pipes (every record schema today) gives the same answer both ways, so it is checked
// with `safeParse`; any other keeps `safeEncode`. Decided once per route and status, at start-up.

/** Schema kinds whose parse and encode agree because neither changes the value (beyond stripping unknown keys). */
const SAME_BOTH_WAYS = new Set([
  "string",
  "number",
  "int",
  "boolean",
  "bigint",
  "null",
  "undefined",
  "any",
  "unknown",
  "enum",
  "literal",
  "template_literal",
  "object",
  "array",
  "tuple",
  "union",
  "intersection",
  "record",
  "nullable",
  "optional",
  "nonoptional",
  "readonly",
]);

/** Whether parsing the schema never transforms a value, so parse checks exactly what encode would. */
export function parsesAsItEncodes(schema: $ZodType, seen = new Set<$ZodType>()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  if (!SAME_BOTH_WAYS.has(def.type)) return false;
  const children: unknown[] = [];
  if (def.type === "object") children.push(...Object.values(def.shape as Record<string, unknown>), def.catchall);
  if (def.type === "array") children.push(def.element);
  if (def.type === "tuple") children.push(...(def.items as unknown[]), def.rest);
  if (def.type === "union") children.push(...(def.options as unknown[]));
  if (def.type === "intersection") children.push(def.left, def.right);
  if (def.type === "record") children.push(def.keyType, def.valueType);
  if (["nullable", "optional", "nonoptional", "readonly"].includes(def.type)) children.push(def.innerType);
  return children.every((child) => child === undefined || parsesAsItEncodes(child as $ZodType, seen));
}

type SchemaOf = $ZodType | { properties: $ZodType };
const resolve = (schema: SchemaOf): $ZodType => ("_zod" in schema ? schema : schema.properties);

/** Fastify's serializer compiler: the route's zod check, the cheapest way that checks the same, then JSON. */
export const serializerCompiler = ({
  schema: given,
  method,
  url,
}: {
  schema: unknown;
  method: string;
  url: string;
}) => {
  const schema = resolve(given as SchemaOf);
  const check = parsesAsItEncodes(schema)
    ? (data: unknown) => safeParse(schema, data)
    : (data: unknown) => safeEncode(schema, data);
  return (data: unknown) => {
    const result = check(data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
