import fc from "fast-check";
import type { RawRequest } from "../rawHttp";
import type { JsonSchema, Operation } from "./operations";
import {
  headerSafe,
  hugeText,
  mutatedValue,
  nastyJson,
  nastyText,
  validValue,
  withSpecialCharacter,
  withSpecialCharacterInside,
  type ValueContext,
} from "./values";

/** Who sends a case: nobody, a garbage token, or a signed-in user of each role (and of another operator). */
export const ROLES = ["anonymous", "garbageToken", "subscriber", "agent", "admin", "otherOperator"] as const;
export type RoleName = (typeof ROLES)[number];
export type SignedInRole = Exclude<RoleName, "anonymous" | "garbageToken">;
export const isSignedIn = (role: RoleName): role is SignedInRole => role !== "anonymous" && role !== "garbageToken";

/** A piece of a URL: text to percent-encode, or characters sent as they are (broken escapes, dots, NUL escapes). */
export interface UrlPiece {
  text: string;
  raw: boolean;
}

export type CaseBody =
  | { kind: "none" }
  | { kind: "json"; value: unknown; contentType: string }
  | { kind: "text"; text: string; contentType: string | null };

/** One request to one operation, before tokens are filled in. */
export interface Case {
  role: RoleName;
  /** The Authorization header of the garbage-token role. */
  garbageAuthorization: string;
  /** X-Operator: the caller's own, absent, the other operator's, or any text. */
  operator: { kind: "own" } | { kind: "missing" } | { kind: "other" } | { kind: "text"; text: string };
  path: Record<string, UrlPiece>;
  query: { key: UrlPiece; value: UrlPiece }[];
  body: CaseBody;
  headers: Record<string, string | string[]>;
}

const REFINE_OPERATORS = [
  "eq",
  "ne",
  "lt",
  "gt",
  "lte",
  "gte",
  "in",
  "nin",
  "ina",
  "nina",
  "contains",
  "ncontains",
  "containss",
  "ncontainss",
  "between",
  "nbetween",
  "null",
  "nnull",
  "startswith",
  "nstartswith",
  "startswiths",
  "nstartswiths",
  "endswith",
  "nendswith",
  "or",
  "and",
];
const BAD_OPERATORS = ["EQ", "", "foo", "__proto__", "constructor", "eq][eq", "0", "in ", "%00"];
const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  "application/json; charset=latin1",
  "application/json;",
];
const OTHER_TYPES = [
  null,
  "",
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/octet-stream",
  "application/problem+json",
  "application/merge-patch+json",
  "application/jsonx",
  "*/*",
  ";",
  "application/json, text/plain",
  "text/event-stream",
];
const NOT_JSON = [
  "{",
  "}",
  "[1,2",
  '{"a":',
  "nul",
  "'single'",
  "{a:1}",
  "NaN",
  "\u0000",
  '{"a":1}garbage',
  "\ufeff{}",
  " ",
  "[]",
  "{}",
  "null",
  "0",
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"a":1,"a":2}',
  "\ud800",
  "1e999999",
];
/** URL pieces that percent-decoding, routers and path normalization trip over. */
const RAW_PIECES = [
  "%00",
  "%zz",
  "%",
  "%E0%A4%A",
  "%C0%AF",
  "%FF",
  "%2F",
  "..",
  ".",
  "%2e%2e",
  "a%2Fb",
  ";",
  "~",
  "!",
  "%25",
  "%u0000",
  "+",
];
const RAW_QUERY = [
  "%zz=1",
  "%=%",
  "%00=%00",
  "a=%E0%A4%A",
  "&&&",
  "=",
  "=x",
  "filter[",
  "filter[status]]=x",
  "filter[]=x",
  "filter[[a]]=1",
  "page=%C0%AF",
  "%FF=1",
  "a[b=1",
  "sort",
];
const GARBAGE_TOKENS = [
  "Bearer",
  "Bearer ",
  "Bearer garbage",
  "Bearer a.b.c",
  "bearer x",
  "Basic Zm9vOmJhcg==",
  "ApiKey abc",
  "Bearer eyJhbGciOiJub25lIn0.e30.",
  "Bearer null",
  "Bearer \t",
  "Token abc",
  "Bearer a b",
  "Bearer ..",
];
const IDEMPOTENCY_EDGES = [
  "",
  " ",
  "1234567",
  "12345678",
  "x".repeat(200),
  "x".repeat(201),
  "x".repeat(8_000),
  "x".repeat(20_000),
  "é".repeat(10),
  "\t\t\t\t\t\t\t\t",
];

/** An unsigned token shaped like the emulator's, for a user who does not exist (never a real user: the emulator would accept it). */
const forgedToken = fc
  .tuple(fc.uuid({ version: 4 }), fc.constantFrom("admin", "agent", "subscriber", "root"))
  .map(([uid, role]) => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      iss: "https://securetoken.google.com/demo-att-portal",
      aud: "demo-att-portal",
      sub: `fuzz-${uid}`,
      user_id: `fuzz-${uid}`,
      iat: now,
      exp: now + 3600,
      auth_time: now,
      role,
      operator: "ATT",
      firebase: { sign_in_provider: "password" },
    };
    return `Bearer ${encode({ alg: "none", typ: "JWT" })}.${encode(payload)}.`;
  });

const garbageAuthorization = fc.oneof(
  fc.constantFrom(...GARBAGE_TOKENS),
  forgedToken,
  nastyText.map((text) => `Bearer ${headerSafe(text)}`),
  nastyText.map(headerSafe),
);

const operatorHeader: fc.Arbitrary<Case["operator"]> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ kind: "own" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "missing" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "other" as const }) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.constantFrom("att", "XYZ", "AT", "ATTT", "ATT ", " ATT", "ATT,TMO", ""), nastyText)
      .map((text) => ({ kind: "text" as const, text: headerSafe(text) })),
  },
);

const encoded = (text: string): UrlPiece => ({ text, raw: false });
const raw = (text: string): UrlPiece => ({ text, raw: true });

function pathValue(ctx: ValueContext): fc.Arbitrary<UrlPiece> {
  return fc.oneof(
    { weight: 5, arbitrary: validValue({ type: "string", format: "uuid" }, ctx).map((v) => encoded(String(v))) },
    {
      weight: 1,
      arbitrary: withSpecialCharacter(validValue({ type: "string", format: "uuid" }, ctx).map(String)).map(encoded),
    },
    { weight: 4, arbitrary: nastyText.map(encoded) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PIECES).map(raw) },
  );
}

/** A query value the parameter's schema accepts (one value: a list of them is a case of its own). */
function validQueryValue(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<UrlPiece> {
  const scalar = schema.anyOf?.find((s) => s.type !== "array") ?? schema;
  const text = validValue(scalar, ctx).map(String);
  return fc.oneof({ weight: 2, arbitrary: text }, { weight: 1, arbitrary: withSpecialCharacter(text) }).map(encoded);
}

/**
 * The query: declared parameters with valid values (a few of them), and now and then one to three
 * bad entries besides (a declared parameter with a bad value or twice, an unknown key, a
 * filter with an unknown field or operator, a broken escape), so each bad entry is met on its own.
 */
function queryEntries(op: Operation, ctx: ValueContext): fc.Arbitrary<Case["query"]> {
  const badValue = fc.oneof(
    { weight: 3, arbitrary: nastyText.map(encoded) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constantFrom(...ctx.vocabulary), { minLength: 1, maxLength: 3 })
        .map((w) => encoded(w.join(","))),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_PIECES).map(raw) },
  );
  const fieldNames = [...op.fields, ...ctx.vocabulary.slice(0, 50)];
  const filterKey = fc
    .tuple(
      fc.oneof(fc.constantFrom(...fieldNames), nastyText),
      fc.option(fc.oneof(fc.constantFrom(...REFINE_OPERATORS), fc.constantFrom(...BAD_OPERATORS), nastyText), {
        nil: null,
      }),
    )
    .map(([field, operator]) => encoded(operator === null ? `filter[${field}]` : `filter[${field}][${operator}]`));
  const sortValue = fc
    .array(fc.tuple(fc.constantFrom("", "-", "+", "--"), fc.oneof(fc.constantFrom(...fieldNames), nastyText)), {
      minLength: 1,
      maxLength: 4,
    })
    .map((parts) => encoded(parts.map(([sign, field]) => sign + field).join(",")));

  const bad: fc.Arbitrary<Case["query"]>[] = [
    fc
      .tuple(filterKey, fc.oneof(validQueryValue({ type: "string" }, ctx), badValue))
      .map(([key, value]) => [{ key, value }]),
    fc.tuple(nastyText, badValue).map(([key, value]) => [{ key: encoded(key), value }]),
    fc.constantFrom(...RAW_QUERY).map((text) => [{ key: raw(text), value: raw("") }]),
  ];
  for (const p of op.query) {
    const value = p.name === "sort" ? fc.oneof(sortValue, badValue) : badValue;
    bad.push(value.map((v) => [{ key: encoded(p.name), value: v }]));
    // The same parameter twice arrives as an array.
    const twice = fc.oneof(value, validQueryValue(p.schema, ctx));
    bad.push(
      fc.tuple(twice, twice).map(([a, b]) => [
        { key: encoded(p.name), value: a },
        { key: encoded(p.name), value: b },
      ]),
    );
  }
  // Required parameters are nearly always there, and one or two optional ones, each with a value its schema accepts.
  const required = op.query.filter((p) => p.required);
  const optional = op.query.filter((p) => !p.required);
  const entry = (p: (typeof op.query)[number]) =>
    validQueryValue(p.schema, ctx).map((value) => ({ key: encoded(p.name), value }));
  const valid = fc
    .tuple(
      fc.tuple(
        ...required.map((p) =>
          fc.oneof({ weight: 9, arbitrary: entry(p) }, { weight: 1, arbitrary: fc.constant(null) }),
        ),
      ),
      optional.length
        ? fc.oneof(
            { weight: 2, arbitrary: fc.oneof(...optional.map((p) => entry(p).map((e) => [e]))) },
            {
              weight: 1,
              arbitrary: fc
                .subarray(optional, { maxLength: Math.min(2, optional.length) })
                .chain((ps) => fc.tuple(...ps.map(entry))),
            },
          )
        : fc.constant([]),
    )
    .map(([a, b]) => [...a, ...b]);
  return fc
    .tuple(
      valid,
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(fc.oneof(...bad), { minLength: 1, maxLength: 3 }) },
      ),
    )
    .map(([good, rest]) => [...good.filter((e) => e !== null), ...rest.flat()]);
}

/** Deep nesting as JSON text (building it as a value would overflow the test's own stack when serialized). */
const deepJson = fc
  .tuple(fc.constantFrom(64, 1_000, 10_000, 100_000, 400_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
  );

function bodyOf(op: Operation, ctx: ValueContext): fc.Arbitrary<CaseBody> {
  const json = (value: fc.Arbitrary<unknown>) =>
    fc
      .tuple(value, fc.constantFrom(...JSON_TYPES))
      .map(([v, contentType]): CaseBody => ({ kind: "json", value: v, contentType }));
  const text = (arb: fc.Arbitrary<string>, types: readonly (string | null)[]) =>
    fc
      .tuple(arb, fc.constantFrom(...types))
      .map(([t, contentType]): CaseBody => ({ kind: "text", text: t, contentType }));
  const none = fc.constant<CaseBody>({ kind: "none" });
  const noise = [
    { weight: 1, arbitrary: text(fc.oneof(fc.constantFrom(...NOT_JSON), nastyText), JSON_TYPES) },
    {
      weight: 1,
      arbitrary: text(fc.oneof(fc.constantFrom(...NOT_JSON), nastyText, fc.constant("a=1&b=2")), OTHER_TYPES),
    },
    { weight: 1, arbitrary: text(deepJson, JSON_TYPES) },
    { weight: 1, arbitrary: json(nastyJson) },
  ];
  if (op.body) {
    const schema = op.body.schema;
    const fields = Object.keys(schema.properties ?? {});
    // A valid body with one field nested deeply, as text.
    const deepField = fc
      .tuple(validValue(schema, ctx), fc.constantFrom(...(fields.length ? fields : ["x"])), deepJson)
      .map(([value, field, deep]): CaseBody => {
        const base = value && typeof value === "object" && !Array.isArray(value) ? value : {};
        return {
          kind: "text",
          contentType: "application/json",
          text: JSON.stringify({ ...base, [field]: "\u0001DEEP" }).replace('"\\u0001DEEP"', deep),
        };
      });
    // Over the body limit (1 MiB by default).
    const huge = fc
      .tuple(validValue(schema, ctx), fc.constantFrom(...(fields.length ? fields : ["x"])))
      .map(([value, field]): CaseBody => ({
        kind: "json",
        contentType: "application/json",
        value: { ...(value && typeof value === "object" ? value : {}), [field]: "a".repeat(1_100_000) },
      }));
    return fc.oneof(
      { weight: 6, arbitrary: json(validValue(schema, ctx)) },
      { weight: 8, arbitrary: json(mutatedValue(schema, ctx)) },
      { weight: 4, arbitrary: json(validValue(schema, ctx).chain(withSpecialCharacterInside)) },
      { weight: 1, arbitrary: deepField },
      { weight: 1, arbitrary: fc.oneof(huge, json(hugeText)) },
      { weight: 1, arbitrary: none },
      ...noise,
    );
  }
  if (op.method === "GET") return fc.oneof({ weight: 12, arbitrary: none }, ...noise);
  return fc.oneof({ weight: 6, arbitrary: none }, ...noise);
}

function headersOf(op: Operation): fc.Arbitrary<Record<string, string | string[]>> {
  const declaresKey = op.headers.some((h) => h.name === "idempotency-key");
  const idempotencyKey = fc.oneof(
    { weight: declaresKey ? 3 : 8, arbitrary: fc.constant(undefined) },
    // A few keys reused across cases: replays, and the same key with another body.
    { weight: 3, arbitrary: fc.constantFrom("fuzz-key-000001", "fuzz-key-000002", "fuzz-key-000003") },
    { weight: 2, arbitrary: fc.constantFrom(...IDEMPOTENCY_EDGES) },
    { weight: 1, arbitrary: nastyText.map(headerSafe) },
    { weight: 1, arbitrary: fc.constant<string[]>(["fuzz-key-000001", "fuzz-key-000002"]) },
  );
  const optionalText = (values: string[]) =>
    fc.option(fc.oneof(fc.constantFrom(...values), nastyText.map(headerSafe)), { freq: 3 });
  return fc
    .record({
      idempotencyKey,
      appVersion: optionalText(["3.2.1", "0", "9".repeat(300)]),
      requestId: optionalText(["a", "../x", "x".repeat(65)]),
      accept: fc.option(fc.constantFrom("application/xml", "*/*", "text/event-stream", "application/json;q=0", ""), {
        freq: 4,
      }),
    })
    .map(({ idempotencyKey: key, appVersion, requestId, accept }) => {
      const headers: Record<string, string | string[]> = {};
      if (key !== undefined) headers["idempotency-key"] = key;
      if (appVersion !== null) headers["x-app-version"] = appVersion;
      if (requestId !== null) headers["x-request-id"] = requestId;
      if (accept !== null) headers.accept = accept;
      return headers;
    });
}

/** Every case of one operation: the roles, X-Operator, path, query, body and headers each from its own source of trouble. */
export function casesOf(op: Operation, ctx: ValueContext): fc.Arbitrary<Case> {
  return fc.record({
    // Signed-in roles weigh more: most of an operation lies behind the token check.
    role: fc.oneof(
      ...ROLES.map((role) => ({
        weight: role === "anonymous" || role === "garbageToken" || role === "otherOperator" ? 1 : 2,
        arbitrary: fc.constant(role),
      })),
    ),
    garbageAuthorization,
    operator: operatorHeader,
    path: fc.record(Object.fromEntries(op.pathParams.map((name) => [name, pathValue(ctx)]))),
    query: queryEntries(op, ctx),
    body: bodyOf(op, ctx),
    headers: headersOf(op),
  });
}

/** Percent-encodes UTF-8 (lone surrogates become U+FFFD, as any client would send them); brackets and commas stay readable. */
function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~[\],]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
const urlText = (piece: UrlPiece) => (piece.raw ? piece.text : percentEncode(piece.text));

export interface Caller {
  /** A current ID token of a signed-in role. */
  token(role: SignedInRole): Promise<string>;
  /** The operator of the role's user (ATT for anonymous callers). */
  operatorOf(role: RoleName): string;
  /** An existing operator other than the role's. */
  otherOperatorOf(role: RoleName): string;
}

/** The HTTP request a case stands for. */
export async function requestOf(op: Operation, c: Case, caller: Caller): Promise<RawRequest> {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => urlText(c.path[name] ?? encoded("")));
  const query = c.query
    .map(({ key, value }) =>
      value.raw && value.text === "" && key.raw ? urlText(key) : `${urlText(key)}=${urlText(value)}`,
    )
    .join("&");
  const headers: Record<string, string | string[]> = { ...c.headers };
  if (c.role === "garbageToken") headers.authorization = c.garbageAuthorization;
  else if (isSignedIn(c.role)) headers.authorization = `Bearer ${await caller.token(c.role)}`;
  if (c.operator.kind === "own") headers["x-operator"] = caller.operatorOf(c.role);
  else if (c.operator.kind === "other") headers["x-operator"] = caller.otherOperatorOf(c.role);
  else if (c.operator.kind === "text") headers["x-operator"] = c.operator.text;
  let body: string | undefined;
  if (c.body.kind === "json") {
    body = JSON.stringify(c.body.value) ?? "null";
    headers["content-type"] = c.body.contentType;
  } else if (c.body.kind === "text") {
    body = c.body.text;
    if (c.body.contentType !== null) headers["content-type"] = c.body.contentType;
  }
  return {
    method: op.method,
    target: query ? `${path}?${query}` : path,
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

const clip = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;

/** A request as text to read or replay (tokens named by role, long parts clipped with their length). */
export function describeRequest(
  request: { method: string; target: string; headers: Record<string, string | string[]>; body?: string | Buffer },
  role: RoleName,
): string {
  const headers = Object.entries(request.headers)
    .map(
      ([name, value]) =>
        `${name}: ${name === "authorization" && isSignedIn(role) ? `Bearer <ID token of the ${role}>` : clip(JSON.stringify(value), 200)}`,
    )
    .join("\n  ");
  const body = request.body === undefined ? "" : `\n  body: ${clip(JSON.stringify(String(request.body)))}`;
  return `${request.method} ${clip(request.target)}\n  ${headers}${body}`;
}
