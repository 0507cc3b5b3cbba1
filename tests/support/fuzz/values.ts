import fc from "fast-check";
import type { JsonSchema } from "./operations";

/**
 * Values seen in the API's own answers while fuzzing: ids (of records, users, lines) and other short
 * texts (numbers, codes, emails). Cases pick from them at generation time, so requests name records
 * that exist and reach past "404 not found" into the handlers.
 */
export class SeenValues {
  readonly ids: string[] = [];
  readonly texts: string[] = [];
  private readonly known = new Set<string>();

  /** Collects from a JSON answer: strings under `id`, `uid` and `…Id` keys as ids, other short strings and numbers as texts. */
  collect(value: unknown, key = ""): void {
    if (Array.isArray(value)) for (const item of value) this.collect(item, key);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) this.collect(v, k);
    else if (typeof value === "number" && Number.isFinite(value)) this.collect(String(value), key);
    else if (typeof value === "string" && value.length <= 64 && !this.known.has(value)) {
      const list = /^(id|uid)$|Id$/.test(key) ? this.ids : this.texts;
      if (list.length >= 300) return;
      this.known.add(value);
      list.push(value);
    }
  }
}

const pick = (list: () => string[], fallback: fc.Arbitrary<string>) =>
  fc.tuple(fc.nat(), fallback).map(([n, other]) => {
    const values = list();
    return values.length ? values[n % values.length]! : other;
  });

/** Texts that have broken parsers, databases and encoders before. */
const NASTY_TEXTS = [
  "",
  " ",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "-1",
  "0",
  "-0",
  "1.5",
  "1e400",
  "-1e400",
  "1e-400",
  "99999999999999999999999",
  "9007199254740993",
  "2147483648",
  "-2147483649",
  "0x1F",
  "1_000",
  "true",
  "false",
  "[]",
  "{}",
  "[object Object]",
  "\u0000",
  "a\u0000b",
  "%00",
  "\ud800",
  "\udfff\ud800",
  "😀",
  "\u202eabc",
  "Ω≈ç√∫",
  "ñandú",
  "\t",
  "\n",
  "\r\n",
  "' OR '1'='1",
  "1; DROP TABLE lines--",
  "\\",
  "\\u0000",
  "%",
  "%zz",
  "%%",
  "../..",
  "<script>alert(1)</script>",
  "${7*7}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "prototype",
  "2024-02-30",
  "9999-12-31",
  "0000-00-00",
  "-000001-01-01",
  "2024-13-01T25:61:61Z",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "9b2f6a53-0a53-4f4e-9a55-0d1e0b5a8a1",
  "+12025550101",
  "+1202555010199999999",
  "*",
  "?",
  "#",
  "&",
  "=",
  ",",
  ",,,",
  "-",
  "+",
  "asc",
  "desc",
];

/** A long run of one character (a code point that is ASCII, two-byte, four-byte or NUL), across the limits a server has. */
export const hugeText = fc
  .tuple(fc.constantFrom(101, 257, 1_001, 10_001, 70_000), fc.constantFrom("a", "é", "😀", "\u0000", "9"))
  .map(([n, ch]) => ch.repeat(n));

/** Characters that databases, LIKE patterns, JSON and UTF-8 treat specially, mixed with plain ones. */
const SPECIAL_CHARACTERS = [
  "\u0000",
  "\ud800",
  "\udc00",
  "😀",
  "%",
  "_",
  "\\",
  "'",
  '"',
  "a",
  "1",
  " ",
  "\u202e",
  "\uffff",
  "\u0085",
  "\n",
  "é",
  ",",
];
const specialText = fc
  .array(fc.constantFrom(...SPECIAL_CHARACTERS), { minLength: 1, maxLength: 8 })
  .map((chars) => chars.join(""));
const specialCharacter = fc.constantFrom(
  "\u0000",
  "\ud800",
  "\udc00",
  "😀",
  "%",
  "_",
  "\\",
  "'",
  '"',
  "\u202e",
  "\uffff",
  "\n",
);

/** The text with one special character put somewhere in it: an otherwise valid value that a database may still choke on. */
export const withSpecialCharacter = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, specialCharacter, fc.nat()).map(([t, ch, n]) => {
    const at = n % (t.length + 1);
    return t.slice(0, at) + ch + t.slice(at);
  });

/** The value with a special character put into one of its strings (the n-th, counting round), or the value as it was when it has none. */
export function withSpecialCharacterInside(value: unknown): fc.Arbitrary<unknown> {
  const strings: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === "string") strings.push(v);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  if (strings.length === 0) return fc.constant(value);
  return fc.nat({ max: strings.length - 1 }).chain((index) =>
    withSpecialCharacter(fc.constant(strings[index]!)).map((changed) => {
      let seen = -1;
      const replace = (v: unknown): unknown => {
        if (typeof v === "string") return ++seen === index ? changed : v;
        if (Array.isArray(v)) return v.map(replace);
        if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
        return v;
      };
      return replace(value);
    }),
  );
}

/** Any text a client might send: the classics above, special characters, random code units, graphemes, digits, huge runs. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXTS) },
  { weight: 3, arbitrary: specialText },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.oneof(fc.bigInt().map(String), fc.double().map(String), fc.integer().map(String)) },
  { weight: 1, arbitrary: hugeText },
);

/** Any JSON value of the wrong kind: texts, extreme numbers, booleans, null, arrays, objects. */
export const nastyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyText },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      -0.5,
      1e308,
      -1e308,
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53 + 2,
      Number.MIN_VALUE,
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.array(nastyText, { maxLength: 5 }) },
);

/**
 * Characters node:http lets through in a header value (tab, printable ASCII, Latin-1), at most 4,000
 * of them: larger headers are one case of their own (431), not the fate of every case with a huge text.
 */
export const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, "").slice(0, 4_000);

/** A valid date a few years back at most, as YYYY-MM-DD (input rules often refuse future dates). */
const pastDay = fc
  .integer({ min: 0, max: 3_650 })
  .map((days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10));

export interface ValueContext {
  seen: SeenValues;
  /** Words of the OpenAPI document (see vocabularyOf). */
  vocabulary: string[];
  /** Names of the collections under /api/v1 (lists of them are what some parameters take). */
  collections: string[];
  /** Distinguishes values made by concurrent runs (emails of invited users). */
  runTag: string;
}

/** Text that fits a string schema: its enum, its format, its pattern or its lengths; otherwise something seen or a vocabulary word. */
function validText(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.filter((v) => typeof v === "string"));
  switch (schema.format) {
    case "uuid":
      return fc.oneof(
        { weight: 4, arbitrary: pick(() => ctx.seen.ids, fc.uuid({ version: 4 })) },
        { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
      );
    case "date":
      return pastDay;
    case "date-time":
      return fc.date({ min: new Date("2000-01-01"), max: new Date(), noInvalidDate: true }).map((d) => d.toISOString());
    case "email":
      return fc.nat({ max: 1_000_000 }).map((n) => `fuzz-${ctx.runTag}-${n}@example.test`);
  }
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? min + 40, min + 40);
  const fits = (text: string) => text.length >= min && text.length <= (schema.maxLength ?? Infinity);
  const options: fc.Arbitrary<string>[] = [
    fc.string({ minLength: min, maxLength: max }),
    pick(() => ctx.seen.texts, fc.string({ minLength: min, maxLength: max })).filter(fits),
    fc
      .array(fc.constantFrom(...ctx.vocabulary), { minLength: 1, maxLength: 3 })
      .map((words) => words.join(","))
      .filter(fits),
    fc
      .array(fc.constantFrom(...ctx.collections), { minLength: 1, maxLength: 3 })
      .map((words) => words.join(","))
      .filter(fits),
  ];
  if (schema.pattern) options.unshift(fc.stringMatching(new RegExp(schema.pattern)).filter(fits));
  // Without a pattern, any character is valid as far as the schema says: NUL, lone surrogates, emoji.
  else options.push(nastyText.filter(fits));
  return fc.oneof(...options);
}

/** A value the schema accepts (as far as JSON Schema can say: zod refinements may still refuse it). */
export function validValue(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<unknown> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validValue(s, ctx)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case "string":
      return validText(schema, ctx);
    case "array":
      return fc.array(schema.items ? validValue(schema.items, ctx) : fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
    case "object": {
      const properties = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, validValue(s, ctx)]),
      );
      return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Keys a body should not have: unknown ones, server-set ones, prototype pollution, odd spellings. */
const extraKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "id",
    "uid",
    "ownerUid",
    "operator",
    "operatorCode",
    "status",
    "createdAt",
    "role",
    "",
    " ",
    "a.b",
    "$where",
  ),
  fc.string({ maxLength: 20 }),
);

/**
 * A body that is almost right: a valid object with one thing wrong, or wrong as a whole (another
 * JSON kind, the object in an array). The mutation is described so a failing case reads clearly.
 */
export function mutatedValue(schema: JsonSchema, ctx: ValueContext): fc.Arbitrary<unknown> {
  const fields = Object.keys(schema.properties ?? {});
  const fieldOrExtra = fields.length ? fc.oneof(fc.constantFrom(...fields), extraKey) : extraKey;
  return fc.oneof(
    fc.tuple(validValue(schema, ctx), fieldOrExtra, nastyJson).map(([value, key, bad]) => withKey(value, key, bad)),
    fc
      .tuple(validValue(schema, ctx), fc.constantFrom(...(fields.length ? fields : ["x"])))
      .map(([value, key]) => withoutKey(value, key)),
    fc
      .tuple(validValue(schema, ctx), fc.dictionary(extraKey, nastyJson, { maxKeys: 4 }))
      .map(([value, extra]) => ({ ...(asObject(value) ?? {}), ...extra })),
    validValue(schema, ctx).map((value) => [value]),
    nastyJson,
  );
}

const asObject = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function withKey(value: unknown, key: string, bad: unknown): unknown {
  const object = asObject(value);
  if (!object) return bad;
  // defineProperty: a literal "__proto__" key must become an own property, as JSON.parse would make it.
  const copy = { ...object };
  Object.defineProperty(copy, key, { value: bad, enumerable: true, configurable: true, writable: true });
  return copy;
}

function withoutKey(value: unknown, key: string): unknown {
  const object = asObject(value);
  if (!object) return value;
  const { [key]: _removed, ...rest } = object;
  return rest;
}
