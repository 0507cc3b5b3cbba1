import { describe, expect, it } from "vitest";
import { listQuerySchema, MAX_PAGE_SIZE, type ListQuery } from "../../server/lib/listQuery";
import { validationText } from "../../server/i18n/validationText";
import { linesResource } from "../../src/resources/lines";
import { plansResource } from "../../src/resources/plans";
import { deviceClaimsResource } from "../../src/resources/deviceClaims";

const linesQuery = listQuerySchema(linesResource);
const plansQuery = listQuerySchema(plansResource);

function ok(schema: typeof linesQuery, input: Record<string, unknown>): ListQuery {
  const result = schema.safeParse(input);
  if (!result.success) throw new Error(`expected success, got ${JSON.stringify(result.error.issues)}`);
  return result.data;
}

/** The paths of the issues of a rejected query, each joined as the API reports it. */
function issuePaths(schema: typeof linesQuery, input: Record<string, unknown>): string[] {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
}

describe("listQuerySchema: defaults", () => {
  it("an empty query is page 1 of 20 in the declared default order, no search, no filters", () => {
    expect(ok(linesQuery, {})).toEqual({
      page: 1,
      pageSize: 20,
      sort: [{ field: "msisdn", order: "asc" }],
      q: undefined,
      filters: [],
    });
    expect(ok(plansQuery, {})).toEqual({
      page: 1,
      pageSize: 20,
      sort: [{ field: "price", order: "asc" }],
      q: undefined,
      filters: [],
    });
  });

  it("page and pageSize arrive as text and are coerced", () => {
    const query = ok(linesQuery, { page: "3", pageSize: "50" });
    expect(query.page).toBe(3);
    expect(query.pageSize).toBe(50);
    expect(ok(linesQuery, { pageSize: String(MAX_PAGE_SIZE) }).pageSize).toBe(100);
  });

  it("q is trimmed and an empty q means no search", () => {
    expect(ok(linesQuery, { q: "  Alex  " }).q).toBe("Alex");
    expect(ok(linesQuery, { q: "   " }).q).toBeUndefined();
  });
});

describe("listQuerySchema: sort", () => {
  it("parses fields in order with '-' for descending", () => {
    expect(ok(linesQuery, { sort: "-createdAt,msisdn" }).sort).toEqual([
      { field: "createdAt", order: "desc" },
      { field: "msisdn", order: "asc" },
    ]);
    expect(ok(plansQuery, { sort: "-price" }).sort).toEqual([{ field: "price", order: "desc" }]);
    expect(ok(plansQuery, { sort: " name , -dataMb " }).sort).toEqual([
      { field: "name", order: "asc" },
      { field: "dataMb", order: "desc" },
    ]);
  });

  it("an undeclared sort field is an issue at 'sort'", () => {
    const result = linesQuery.safeParse({ sort: "-iccid" });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toHaveLength(1);
    expect(result.error!.issues[0]!.path).toEqual(["sort"]);
    expect(validationText(result.error!.issues[0]!, "en")).toContain("iccid");
    expect(issuePaths(plansQuery, { sort: "price,bogus" })).toEqual(["sort"]);
    // A field of the other resource is not sortable here.
    expect(issuePaths(plansQuery, { sort: "msisdn" })).toEqual(["sort"]);
  });
});

describe("listQuerySchema: page and pageSize", () => {
  it.each(["0", "101", "abc", "-5", "2.5", "1000"])("pageSize=%j is an issue at pageSize", (pageSize) => {
    expect(issuePaths(linesQuery, { pageSize })).toEqual(["pageSize"]);
  });

  it.each(["0", "abc", "-1"])("page=%j is an issue at page", (page) => {
    expect(issuePaths(plansQuery, { page })).toEqual(["page"]);
  });
});

describe("listQuerySchema: filters", () => {
  it("filter[field]=v is eq", () => {
    expect(ok(linesQuery, { "filter[status]": "active" }).filters).toEqual([
      { field: "status", operator: "eq", value: "active" },
    ]);
  });

  it("filter[field][in]=a,b is a list", () => {
    expect(ok(linesQuery, { "filter[status][in]": "active,suspended" }).filters).toEqual([
      { field: "status", operator: "in", value: ["active", "suspended"] },
    ]);
  });

  it("filter[price][between]=100,200 on plans is a pair of numbers", () => {
    expect(ok(plansQuery, { "filter[price][between]": "100,200" }).filters).toEqual([
      { field: "price", operator: "between", value: [100, 200] },
    ]);
    expect(ok(plansQuery, { "filter[price][lte]": "5000" }).filters).toEqual([
      { field: "price", operator: "lte", value: 5000 },
    ]);
  });

  it("money filters must be whole minor units", () => {
    expect(issuePaths(plansQuery, { "filter[price][gte]": "10.5" })).toEqual(["filter[price][gte]"]);
    expect(issuePaths(plansQuery, { "filter[price][between]": "100,abc" })).toEqual(["filter[price][between]"]);
    expect(issuePaths(plansQuery, { "filter[price][between]": "100" })).toEqual(["filter[price][between]"]);
  });

  it("several filters combine", () => {
    expect(ok(plansQuery, { "filter[kind]": "prepaid", "filter[status][ne]": "retired" }).filters).toEqual([
      { field: "kind", operator: "eq", value: "prepaid" },
      { field: "status", operator: "ne", value: "retired" },
    ]);
  });

  it("a value outside the field's enum is an issue at the full parameter name", () => {
    expect(issuePaths(linesQuery, { "filter[status][in]": "bogus" })).toEqual(["filter[status][in]"]);
    expect(issuePaths(linesQuery, { "filter[status][in]": "active,bogus" })).toEqual(["filter[status][in]"]);
    expect(issuePaths(linesQuery, { "filter[status]": "bogus" })).toEqual(["filter[status]"]);
    expect(issuePaths(plansQuery, { "filter[kind]": "prepayed" })).toEqual(["filter[kind]"]);
  });

  it("an empty 'in' list is an issue", () => {
    expect(issuePaths(linesQuery, { "filter[status][in]": "" })).toEqual(["filter[status][in]"]);
    expect(issuePaths(linesQuery, { "filter[status][in]": ",," })).toEqual(["filter[status][in]"]);
  });

  it("an operator the field does not declare is an issue", () => {
    // 'gt' is a Refine operator, but not declared on status.
    expect(issuePaths(linesQuery, { "filter[status][gt]": "active" })).toEqual(["filter[status][gt]"]);
    // 'like' is no operator at all.
    expect(issuePaths(linesQuery, { "filter[status][like]": "active" })).toEqual(["filter[status][like]"]);
    expect(issuePaths(plansQuery, { "filter[price]": "100" })).toEqual(["filter[price]"]); // eq not declared on price
  });

  it("a field that declares no filter is an issue at its parameter", () => {
    expect(issuePaths(linesQuery, { "filter[iccid]": "8901" })).toEqual(["filter[iccid]"]);
    expect(issuePaths(linesQuery, { "filter[nope]": "1" })).toEqual(["filter[nope]"]);
    expect(issuePaths(plansQuery, { "filter[msisdn]": "+12025550101" })).toEqual(["filter[msisdn]"]);
  });

  it("the null operator takes no value or 'true', where declared", () => {
    const nullable = {
      ...linesResource,
      list: {
        ...linesResource.list,
        filters: { ...linesResource.list.filters, suspendReason: ["null", "nnull"] as const },
      },
    };
    const schema = listQuerySchema(nullable);
    expect(ok(schema, { "filter[suspendReason][null]": "" }).filters).toEqual([
      { field: "suspendReason", operator: "null", value: true },
    ]);
    expect(ok(schema, { "filter[suspendReason][nnull]": "true" }).filters).toEqual([
      { field: "suspendReason", operator: "nnull", value: true },
    ]);
    expect(issuePaths(schema, { "filter[suspendReason][null]": "lost" })).toEqual(["filter[suspendReason][null]"]);
    // Not declared on the real lines resource.
    expect(issuePaths(linesQuery, { "filter[status][null]": "" })).toEqual(["filter[status][null]"]);
  });

  it("text operators take any non-empty text", () => {
    expect(ok(linesQuery, { "filter[msisdn][startswith]": "+1202" }).filters).toEqual([
      { field: "msisdn", operator: "startswith", value: "+1202" },
    ]);
    expect(issuePaths(linesQuery, { "filter[msisdn][contains]": "" })).toEqual(["filter[msisdn][contains]"]);
  });
});

describe("listQuerySchema: unknown and repeated parameters", () => {
  it("an unknown parameter is an issue at its own name", () => {
    const result = linesQuery.safeParse({ foo: "bar" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path)).toEqual([["foo"]]);
    expect(issuePaths(linesQuery, { "filter[status": "active" })).toEqual(["filter[status"]);
    expect(issuePaths(linesQuery, { "filter[status][in][x]": "active" })).toEqual(["filter[status][in][x]"]);
  });

  it("a filter given twice is an issue at that filter", () => {
    expect(issuePaths(linesQuery, { "filter[status]": ["active", "suspended"] })).toEqual(["filter[status]"]);
  });

  it("page, pageSize or sort given twice is refused", () => {
    expect(linesQuery.safeParse({ sort: ["msisdn", "-msisdn"] }).success).toBe(false);
    expect(linesQuery.safeParse({ pageSize: ["10", "20"] }).success).toBe(false);
  });

  it("every bad sort and filter parameter is reported, not just the first", () => {
    const paths = issuePaths(linesQuery, {
      sort: "bogus",
      "filter[nope]": "1",
      foo: "x",
      "filter[status][in]": "bogus",
    });
    expect(paths.sort()).toEqual(["filter[nope]", "filter[status][in]", "foo", "sort"]);
  });

  it("a bad page size is named even alongside other bad parameters", () => {
    expect(issuePaths(linesQuery, { pageSize: "0", sort: "bogus", foo: "x" })).toContain("pageSize");
  });
});

describe("listQuerySchema: date filters of a declared resource", () => {
  const claimsQuery = listQuerySchema(deviceClaimsResource);

  it("takes any valid dates as bounds, also future ones the record itself may not hold", () => {
    const query = ok(claimsQuery, { "filter[occurredOn][between]": "2026-01-01,2099-12-31" });
    expect(query.filters).toEqual([{ field: "occurredOn", operator: "between", value: ["2026-01-01", "2099-12-31"] }]);
  });

  it("names the parameter of a bound that is not a date", () => {
    expect(issuePaths(claimsQuery, { "filter[occurredOn][between]": "2026-01-01,soon" })).toEqual([
      "filter[occurredOn][between]",
    ]);
    expect(issuePaths(claimsQuery, { "filter[occurredOn][gte]": "2026-02-30" })).toEqual(["filter[occurredOn][gte]"]);
  });
});
