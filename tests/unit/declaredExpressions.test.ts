import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineResource, type DeclaredResource, type DocumentResource } from "../../src/resources/define";
import { idSchema, isoDate, isoDateTime, moneySchema } from "../../src/resources/common";
import {
  computedValues,
  declaredExpressions,
  failedAllowedIf,
  failedChecks,
  initialValues,
  quotesAction,
  quotesOnCreate,
  type ExpressionContext,
} from "../../src/resources/expressions/declaration";
import { travelInsuranceResource } from "../../src/resources/travelInsurance";
import { buildModules } from "../../server/engine/registry";
import { resources } from "../../src/resources";

// Each expression of a declaration is type-checked once, against the record's fields, and a mistake
// refuses the declaration naming its file, the key and the position (issue 29).
const schema = z.object({
  id: idSchema,
  lineId: idSchema,
  zone: z.enum(["europe", "americas"]),
  startsOn: isoDate,
  days: z.number().int(),
  endsOn: isoDate,
  price: moneySchema,
  status: z.enum(["active", "cancelled"]),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

type Extra = Partial<DocumentResource<typeof schema, Extract<keyof z.output<typeof schema>, string>>>;
/** A small priced declaration, with one key changed by each case. */
const declare = (extra: Extra): DeclaredResource =>
  defineResource({
    name: "trips",
    label: "resources.trips.label",
    icon: "GlobalOutlined",
    schema,
    recordTitle: "zone",
    fields: {
      lineId: { label: "fields.line", kind: "reference", reference: { resource: "lines" } },
      zone: { label: "fields.zone", kind: "enum", options: ["europe", "americas"] },
      startsOn: { label: "fields.startsOn", kind: "date" },
      days: { label: "fields.days", kind: "number" },
      endsOn: { label: "fields.endsOn", kind: "date" },
      price: { label: "fields.price", kind: "money" },
      status: { label: "fields.status", kind: "enum", options: ["active", "cancelled"] },
    },
    list: { columns: ["zone"], defaultSort: [], sortable: [], filters: {} },
    show: ["zone"],
    form: { create: ["lineId", "zone", "startsOn", "days"], edit: [] },
    defaults: { status: "active" },
    access: { create: { subscriber: "own" } },
    source: "backend",
    audit: true,
    ...extra,
  } as never);

const refusal = (extra: Extra) => {
  try {
    declaredExpressions(declare(extra));
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

describe("a declaration's expressions are refused at start-up, naming the file, the key and the position", () => {
  it.each([
    [
      "an unknown field",
      { computed: { endsOn: { expression: "startsOn + dayz - 1" } } },
      "computed.endsOn",
      /'dayz'.* at 11/,
    ],
    ["a parse error", { computed: { endsOn: { expression: "startsOn + (days" } } }, "computed.endsOn", / at \d+/],
    [
      "a wrong type for the field",
      { computed: { endsOn: { expression: "days * 2" } } },
      "computed.endsOn",
      /gives number where date is needed/,
    ],
    [
      "adding a date to money",
      { computed: { endsOn: { expression: "startsOn + price" } } },
      "computed.endsOn",
      /date.*money.* at \d+/,
    ],
    [
      "an unknown function",
      { checks: [{ rule: "tomorrow() > startsOn", field: "startsOn", message: "m" }] },
      "checks[0]",
      /tomorrow.* at 0/,
    ],
    [
      "a check that is not yes or no",
      { checks: [{ rule: "days + 1", field: "days", message: "m" }] },
      "checks[0]",
      /boolean/,
    ],
    [
      "a rate in a field computed on every read",
      { computed: { price: { expression: "rate('travel-insurance-rates', zone) * days" } } },
      "computed.price",
      /stored/,
    ],
    [
      "today() in a field computed on every read",
      { computed: { endsOn: { expression: "today() + days" } } },
      "computed.endsOn",
      /today\(\)/,
    ],
    [
      "a rate table that does not exist",
      { computed: { price: { expression: "rate('nowhere', zone) * days", stored: true } } },
      "computed.price",
      /nowhere/,
    ],
    [
      "a charge of a number",
      { onCreate: [{ charge: { account: "lineId", amount: "days", label: "l" } }] },
      "onCreate[0].charge.amount",
      /money/,
    ],
    [
      "a schedule on an unknown field",
      { schedules: { end: { when: "finished == true", set: { status: "cancelled" } } } },
      "schedules.end.when",
      /'finished'/,
    ],
    [
      "a default of the wrong type",
      { defaults: { startsOn: { expression: "days" }, status: "active" } },
      "defaults.startsOn",
      /number where date/,
    ],
  ] as const)("%s", (_what, extra, key, problem) => {
    const message = refusal(extra);
    expect(message).toContain("tests/unit/declaredExpressions.test.ts:");
    expect(message).toContain(`trips ${key}`);
    expect(message).toMatch(problem);
  });

  it("refuses a charge to something that is not a line or an account", () => {
    expect(refusal({ onCreate: [{ charge: { account: "zone", amount: "price", label: "l" } }] })).toMatch(
      /onCreate\[0\]\.charge\.account 'zone' must be a reference to lines or accounts/,
    );
  });

  it("refuses an action's allowedIf on a field the record lacks", () => {
    const message = refusal({
      actions: {
        cancel: {
          label: "c",
          set: { status: "cancelled" },
          allowedIf: [{ rule: "begun == false", field: "startsOn", message: "m" }],
        },
      },
    });
    expect(message).toMatch(/actions\.cancel\.allowedIf\[0\].*'begun'/);
  });

  it("and the server will not start on such a declaration", () => {
    const broken = declare({
      computed: {
        endsOn: { expression: "startsOn + days - 1" },
        price: { expression: "money(2) * days", stored: true },
      },
      checks: [{ rule: "startsOn >= tday()", field: "startsOn", message: "m" }],
    });
    expect(() => buildModules([...(resources as readonly DeclaredResource[]), broken])).toThrow(/trips checks\[0\]/);
  });
});

describe("the travel insurance declaration, read as the browser reads it", () => {
  const ctx = (role: ExpressionContext["role"], today = "2026-12-01"): ExpressionContext => ({
    role,
    today,
    currency: "USD",
  });
  const travel = travelInsuranceResource as DeclaredResource;

  it("starts today, works out the last day, and checks the start", () => {
    expect(initialValues(travel, ctx("subscriber"))).toEqual({ startsOn: "2026-12-01", days: 7, status: "active" });
    expect(computedValues(travel, { startsOn: "2026-12-30", days: 5 }, ctx("subscriber"))).toEqual({
      endsOn: "2027-01-03",
    });
    expect(failedChecks(travel, { startsOn: "2026-11-30" }, ctx("subscriber"))).toEqual([
      { field: "startsOn", message: "resources.travel-insurance.startsTodayOrLater" },
    ]);
    expect(failedChecks(travel, { startsOn: "2026-12-01" }, ctx("subscriber"))).toEqual([]);
  });

  it("lets a subscriber cancel only before the start, staff at any time", () => {
    const started = { status: "active", startsOn: "2026-12-01" };
    expect(failedAllowedIf(travel, "cancel", started, ctx("subscriber"))).toHaveLength(1);
    expect(failedAllowedIf(travel, "cancel", started, ctx("agent"))).toEqual([]);
    expect(failedAllowedIf(travel, "cancel", { ...started, startsOn: "2026-12-02" }, ctx("subscriber"))).toEqual([]);
  });

  it("quotes its purchase and its cancel", () => {
    expect(quotesOnCreate(travel)).toBe(true);
    expect(quotesAction(travel, "cancel")).toBe(true);
  });
});
