/** A JSON Schema node as @fastify/swagger writes it from the zod schemas (the subset the fuzzer reads). */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface Operation {
  /** "POST /api/v1/device-claims/{id}/actions/approve" */
  id: string;
  method: string;
  /** The OpenAPI path, with {param} placeholders. */
  path: string;
  pathParams: string[];
  query: Parameter[];
  headers: Parameter[];
  /** The JSON request body, when the operation declares one. */
  body?: { required: boolean; schema: JsonSchema };
  /** Fields of the records the operation answers with (list items, or the object itself): names to sort and filter by. */
  fields: string[];
  /** Declared `security: []`: callable without a token. */
  public: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
}
interface RawOperation {
  parameters?: (Parameter & { in: string })[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: unknown[];
}

const METHODS = ["get", "put", "post", "delete", "patch"];

/** The record fields an operation's success response describes: `data[]` items of a list, or the object's own properties. */
function responseFields(op: RawOperation): string[] {
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"))?.[1];
  const schema = success?.content?.["application/json"]?.schema;
  const data = schema?.properties?.data;
  const record = data?.type === "array" ? data.items : schema;
  return Object.keys(record?.properties ?? {});
}

/** Every operation the document declares (the document itself is hidden from it, and so not fuzzed). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = op.parameters ?? [];
      const json = op.requestBody?.content?.["application/json"]?.schema;
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters.filter((p) => p.in === "query"),
        headers: parameters.filter((p) => p.in === "header"),
        ...(json ? { body: { required: op.requestBody?.required === true, schema: json } } : {}),
        fields: responseFields(op),
        public: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return operations;
}

/**
 * Words of the document a valid request is made of: path segments (resource names), parameter and
 * property names, enum values. Valid-looking text built from them reaches deeper than noise
 * (`?resources=lines,staff` for the live stream, `sort=-createdAt`).
 */
export function vocabularyOf(document: OpenApiDocument): string[] {
  const words = new Set<string>();
  const visit = (schema: JsonSchema | undefined) => {
    if (!schema || typeof schema !== "object") return;
    for (const value of schema.enum ?? []) if (typeof value === "string") words.add(value);
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      words.add(name);
      visit(child);
    }
    for (const child of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) visit(child);
    visit(schema.items);
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const segment of path.split("/")) if (/^[a-z][\w-]*$/i.test(segment)) words.add(segment);
    for (const op of Object.values(item)) {
      for (const p of op.parameters ?? []) words.add(p.name);
      visit(op.requestBody?.content?.["application/json"]?.schema);
      for (const response of Object.values(op.responses ?? {})) visit(response.content?.["application/json"]?.schema);
    }
  }
  return [...words].sort();
}

/** The collections of the API: the first segment after /api/v1/ of every path. */
export function collectionsOf(operations: Operation[]): string[] {
  return [
    ...new Set(
      operations.map((op) => /^\/api\/v1\/([^/{]+)/.exec(op.path)?.[1]).filter((name): name is string => Boolean(name)),
    ),
  ].sort();
}
