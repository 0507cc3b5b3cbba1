import { ResponseSerializationError } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parsesAsItEncodes, serializerCompiler } from "../../server/lib/responseSerializer";
import { e164Schema } from "../../src/resources/common";
import { resources } from "../../src/resources";

// Responses are checked against their schema as before, only more cheaply where parse and encode
// agree; the phone number check gives the same answers when it remembers valid numbers.

const serializerOf = (schema: z.ZodType) => serializerCompiler({ schema, method: "GET", url: "/test" });

describe("the response serializer", () => {
  const record = z.object({
    id: z.uuid(),
    msisdn: e164Schema,
    at: z.iso.datetime(),
    note: z.string().nullable(),
    tags: z.array(z.enum(["a", "b"])).optional(),
  });
  const good = {
    id: "6f1c1d9e-7a37-4e0b-9d3c-2c1f1f3b9a11",
    msisdn: "+12025550101",
    at: "2026-11-22T10:00:00.000Z",
    note: null,
  };

  it("sends a record that matches its schema, without keys the schema does not have", () => {
    expect(JSON.parse(serializerOf(record)({ ...good, secret: "never sent" }))).toEqual(good);
  });

  it("refuses a record that does not match, field by field", () => {
    for (const bad of [
      { ...good, id: "nope" },
      { ...good, msisdn: "+1202555010" },
      { ...good, at: "yesterday" },
      { ...good, tags: ["c"] },
      { ...good, note: undefined },
    ]) {
      expect(() => serializerOf(record)(bad)).toThrow(ResponseSerializationError);
    }
  });

  it("encodes through codecs and transforms as before: only plain shapes take the fast check", () => {
    const withCodec = z.object({
      at: z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }),
    });
    expect(parsesAsItEncodes(withCodec)).toBe(false);
    expect(parsesAsItEncodes(z.object({ n: z.string().default("x") }))).toBe(false);
    expect(JSON.parse(serializerOf(withCodec)({ at: new Date("2026-11-22T10:00:00.000Z") }))).toEqual({
      at: "2026-11-22T10:00:00.000Z",
    });
  });

  it("takes the fast check for every declared resource's record", () => {
    expect(resources.filter((r) => !parsesAsItEncodes(r.schema)).map((r) => r.name)).toEqual([]);
  });
});

describe("the phone number check", () => {
  it("gives the same answer for a number it has seen valid and refuses invalid ones every time", () => {
    for (let round = 0; round < 2; round++) {
      expect(e164Schema.safeParse("+12025550101").success).toBe(true);
      expect(e164Schema.safeParse("+1202555010").success).toBe(false);
      expect(e164Schema.safeParse("+12025550101 ").success).toBe(false);
      expect(e164Schema.safeParse("12025550101").success).toBe(false);
    }
  });
});
