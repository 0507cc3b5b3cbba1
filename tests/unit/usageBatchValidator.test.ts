import { describe, expect, it } from "vitest";
import { usageBatchSchema } from "../../src/resources/usage";
import { isPlainValidBatch, usageBatchValidatorCompiler } from "../../server/routes/usageBatchValidator";

// The usage batch's fast check may only ever say yes where zod says yes and returns the body as it
// came; wherever it says no, zod decides. Each case below is one record put through both.

const good = {
  id: "rec-1_A",
  msisdn: "+12025550101",
  type: "data",
  startedAt: "2026-11-25T10:00:00.123Z",
  quantity: 5,
};

const variants: unknown[] = [
  good,
  { ...good, roamingZone: "europe" },
  { ...good, roamingZone: null },
  { ...good, type: "voice", quantity: 86_400 },
  { ...good, type: "voice", quantity: 86_401 },
  { ...good, type: "sms", quantity: 100 },
  { ...good, type: "sms", quantity: 101 },
  { ...good, quantity: 102_400 },
  { ...good, quantity: 102_401 },
  { ...good, quantity: 0 },
  { ...good, quantity: -0 },
  { ...good, quantity: -1 },
  { ...good, quantity: 1.5 },
  { ...good, quantity: "5" },
  { ...good, quantity: Number.NaN },
  { ...good, quantity: Number.POSITIVE_INFINITY },
  { ...good, quantity: null },
  { ...good, id: "" },
  { ...good, id: "a".repeat(64) },
  { ...good, id: "a".repeat(65) },
  { ...good, id: "a.b" },
  { ...good, id: "a b" },
  { ...good, id: "é" },
  { ...good, id: 12 },
  { ...good, msisdn: "12025550101" },
  { ...good, msisdn: "+0202555010" },
  { ...good, msisdn: "+123456" },
  { ...good, msisdn: "+1234567" },
  { ...good, msisdn: "+1234567890123456" },
  { ...good, type: "mms" },
  { ...good, type: "DATA" },
  { ...good, startedAt: "2026-11-25T10:00:00Z" },
  { ...good, startedAt: "2026-11-25T10:00:00+01:00" },
  { ...good, startedAt: "2026-11-25T10:00:00.123456789-05:30" },
  { ...good, startedAt: "2026-11-25T10:00Z" },
  { ...good, startedAt: "2026-11-25 10:00:00Z" },
  { ...good, startedAt: "2026-11-25T10:00:00" },
  { ...good, startedAt: "2026-02-29T10:00:00Z" },
  { ...good, startedAt: "2028-02-29T10:00:00Z" },
  { ...good, startedAt: "2026-11-31T10:00:00Z" },
  { ...good, startedAt: "2026-11-25T24:00:00Z" },
  { ...good, startedAt: 1764064800000 },
  { ...good, roamingZone: "mars" },
  { ...good, roamingZone: "" },
  { ...good, roamingZone: undefined },
  { ...good, extra: 1 },
  JSON.parse(
    '{"__proto__": {"x": 1}, "id": "a", "msisdn": "+12025550101", "type": "data", "startedAt": "2026-11-25T10:00:00Z", "quantity": 1}',
  ) as Record<string, unknown>,
  (({ id: _id, ...rest }) => rest)(good),
  (({ quantity: _q, ...rest }) => rest)(good),
  (({ startedAt: _s, ...rest }) => rest)(good),
  Object.assign(Object.create({ inherited: true }) as object, good),
  null,
  "record",
  [good],
];

describe("usage batch fast check", () => {
  it.each(variants.map((record, i) => [i, record] as const))(
    "case %i: says yes only where zod returns the body unchanged",
    (_i, record) => {
      const body = { records: [good, record] };
      const zod = usageBatchSchema.safeParse(body);
      if (isPlainValidBatch(body)) {
        expect(zod.success).toBe(true);
        expect(zod.data).toStrictEqual(body);
      }
    },
  );

  it("takes the common records itself", () => {
    for (const record of [
      good,
      { ...good, roamingZone: "europe" },
      { ...good, roamingZone: null },
      { ...good, startedAt: "2026-11-25T10:00:00+01:00" },
    ])
      expect(isPlainValidBatch({ records: [record] })).toBe(true);
  });

  it("leaves the batch's own limits and shape to zod", () => {
    expect(isPlainValidBatch({ records: [] })).toBe(false);
    expect(isPlainValidBatch({ records: Array.from({ length: 10_001 }, () => good) })).toBe(false);
    expect(isPlainValidBatch({ records: Array.from({ length: 10_000 }, () => good) })).toBe(true);
    expect(isPlainValidBatch({ records: [good], more: 1 })).toBe(false);
    expect(isPlainValidBatch([good])).toBe(false);
  });

  it("answers a refused batch with zod's errors, at the field", () => {
    const validate = usageBatchValidatorCompiler({
      schema: usageBatchSchema,
      method: "POST",
      url: "/usage-records/batch",
      httpPart: "body",
    }) as (data: unknown) => { value?: unknown; error?: unknown };
    const ok = validate({ records: [good] });
    expect(ok.error).toBeUndefined();
    expect(ok.value).toStrictEqual({ records: [good] });
    const refused = validate({ records: [good, { ...good, quantity: -1 }] });
    expect(JSON.stringify(refused.error)).toContain("quantity");
    expect(refused.value).toBeUndefined();
  });
});
