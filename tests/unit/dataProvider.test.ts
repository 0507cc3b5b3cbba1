import type { CrudFilter } from "@refinedev/core";
import { describe, expect, it, vi } from "vitest";
import { listQuerySchema } from "../../server/lib/listQuery";
import { en } from "../../src/i18n/en";
import { toHttpError } from "../../src/providers/apiClient";
import { toListQuery } from "../../src/providers/dataProvider";
import { plansResource } from "../../src/resources/plans";

// toListQuery and toHttpError are pure; the session (and with it Firebase Auth) is not needed here.
vi.mock("../../src/providers/session", () => ({
  currentIdToken: () => Promise.resolve(null),
  currentSessionUser: () => Promise.resolve(null),
}));

/** The query string as a plain list of pairs, in the order they were added. */
const pairs = (params: URLSearchParams) => [...params.entries()];

describe("toListQuery: pagination", () => {
  it("defaults to page 1 of 10 (Refine's defaults) when Refine gives no pagination", () => {
    expect(pairs(toListQuery())).toEqual([
      ["page", "1"],
      ["pageSize", "10"],
    ]);
  });

  it("sends Refine's currentPage and pageSize as page and pageSize", () => {
    const params = toListQuery({ currentPage: 3, pageSize: 25 });
    expect(params.get("page")).toBe("3");
    expect(params.get("pageSize")).toBe("25");
    expect(toListQuery({ currentPage: 2, pageSize: 50, mode: "server" }).toString()).toBe("page=2&pageSize=50");
  });

  it.each(["off", "client"] as const)("sends no page or pageSize when the pagination mode is %s", (mode) => {
    const params = toListQuery({ currentPage: 4, pageSize: 25, mode });
    expect(params.has("page")).toBe(false);
    expect(params.has("pageSize")).toBe(false);
    expect(params.toString()).toBe("");
  });
});

describe("toListQuery: sorters", () => {
  it("joins sorters in order as -field for descending and field for ascending", () => {
    const params = toListQuery({ mode: "off" }, [
      { field: "createdAt", order: "desc" },
      { field: "msisdn", order: "asc" },
    ]);
    expect(params.get("sort")).toBe("-createdAt,msisdn");
  });

  it("sends no sort when there are no sorters", () => {
    expect(toListQuery({ mode: "off" }, []).has("sort")).toBe(false);
    expect(toListQuery({ mode: "off" }, undefined).has("sort")).toBe(false);
  });
});

describe("toListQuery: filters", () => {
  const only = (filters: CrudFilter[]) => pairs(toListQuery({ mode: "off" }, [], filters));

  it("an eq filter is filter[field]=value", () => {
    expect(only([{ field: "status", operator: "eq", value: "active" }])).toEqual([["filter[status]", "active"]]);
  });

  it("any other operator is filter[field][op]=value", () => {
    expect(only([{ field: "status", operator: "ne", value: "terminated" }])).toEqual([
      ["filter[status][ne]", "terminated"],
    ]);
    expect(only([{ field: "price", operator: "gte", value: 1000 }])).toEqual([["filter[price][gte]", "1000"]]);
    expect(only([{ field: "msisdn", operator: "startswith", value: "+1202" }])).toEqual([
      ["filter[msisdn][startswith]", "+1202"],
    ]);
  });

  it("joins array values (in, between) with commas", () => {
    expect(only([{ field: "status", operator: "in", value: ["active", "suspended"] }])).toEqual([
      ["filter[status][in]", "active,suspended"],
    ]);
    expect(only([{ field: "price", operator: "between", value: [1000, 5000] }])).toEqual([
      ["filter[price][between]", "1000,5000"],
    ]);
  });

  it("the q field becomes the q parameter, whatever its operator", () => {
    expect(only([{ field: "q", operator: "contains", value: "Alex" }])).toEqual([["q", "Alex"]]);
    expect(only([{ field: "q", operator: "eq", value: "+1202" }])).toEqual([["q", "+1202"]]);
  });

  it("skips undefined, empty-string and empty-array values", () => {
    expect(
      only([
        { field: "status", operator: "eq", value: undefined },
        { field: "msisdn", operator: "contains", value: "" },
        { field: "planId", operator: "in", value: [] },
        { field: "q", operator: "contains", value: "" },
      ]),
    ).toEqual([]);
  });

  it("keeps falsy values that are real values (0, false)", () => {
    expect(only([{ field: "price", operator: "gte", value: 0 }])).toEqual([["filter[price][gte]", "0"]]);
    expect(only([{ field: "enabled", operator: "eq", value: false }])).toEqual([["filter[enabled]", "false"]]);
  });

  it("the null and nnull operators send the parameter with an empty value", () => {
    expect(only([{ field: "suspendReason", operator: "null", value: true }])).toEqual([
      ["filter[suspendReason][null]", ""],
    ]);
    expect(only([{ field: "suspendReason", operator: "nnull", value: true }])).toEqual([
      ["filter[suspendReason][nnull]", ""],
    ]);
    expect(
      toListQuery({ mode: "off" }, [], [{ field: "suspendReason", operator: "null", value: true }]).toString(),
    ).toBe("filter%5BsuspendReason%5D%5Bnull%5D=");
  });

  it("combines pagination, sort, search and several filters in one query", () => {
    const params = toListQuery(
      { currentPage: 2, pageSize: 20 },
      [{ field: "price", order: "desc" }],
      [
        { field: "q", operator: "contains", value: "unlimited" },
        { field: "kind", operator: "eq", value: "prepaid" },
        { field: "price", operator: "lte", value: 5000 },
      ],
    );
    expect(pairs(params)).toEqual([
      ["page", "2"],
      ["pageSize", "20"],
      ["sort", "-price"],
      ["q", "unlimited"],
      ["filter[kind]", "prepaid"],
      ["filter[price][lte]", "5000"],
    ]);
  });

  it.each(["or", "and"] as const)(
    "throws on a conditional %s filter, which the backend contract cannot express",
    (operator) => {
      const grouped: CrudFilter = {
        operator,
        value: [
          { field: "status", operator: "eq", value: "active" },
          { field: "status", operator: "eq", value: "suspended" },
        ],
      };
      expect(() => toListQuery(undefined, undefined, [grouped])).toThrow(/not supported/);
      expect(() => toListQuery(undefined, undefined, [{ ...grouped, key: "grouped" }])).toThrow(/not supported/);
    },
  );
});

describe("toListQuery agrees with the backend's list contract", () => {
  it("what the portal sends for plans parses back to the same page, sort, search and filters", () => {
    const params = toListQuery(
      { currentPage: 3, pageSize: 15 },
      [
        { field: "price", order: "desc" },
        { field: "name", order: "asc" },
      ],
      [
        { field: "q", operator: "contains", value: "gold" },
        { field: "kind", operator: "in", value: ["prepaid", "postpaid"] },
        { field: "status", operator: "eq", value: "active" },
        { field: "price", operator: "between", value: [1000, 5000] },
      ],
    );
    const parsed = listQuerySchema(plansResource).safeParse(Object.fromEntries(params));
    if (!parsed.success) throw new Error(`the backend rejected ${params}: ${JSON.stringify(parsed.error.issues)}`);
    expect(parsed.data).toEqual({
      page: 3,
      pageSize: 15,
      sort: [
        { field: "price", order: "desc" },
        { field: "name", order: "asc" },
      ],
      q: "gold",
      filters: [
        { field: "kind", operator: "in", value: ["prepaid", "postpaid"] },
        { field: "status", operator: "eq", value: "active" },
        { field: "price", operator: "between", value: [1000, 5000] },
      ],
    });
  });
});

describe("toHttpError", () => {
  it("keys field errors by path, each an array of messages, with the detail as message and the status", () => {
    const error = toHttpError(422, {
      title: "Unprocessable Content",
      status: 422,
      detail: "Some fields are not valid.",
      errors: [
        { path: "email", message: "must be an email address" },
        { path: "msisdn", message: "an E.164 number such as +12025550101" },
        { path: "email", message: "is already in use" },
      ],
    });
    expect(error).toEqual({
      message: "Some fields are not valid.",
      statusCode: 422,
      errors: {
        email: ["must be an email address", "is already in use"],
        msisdn: ["an E.164 number such as +12025550101"],
      },
    });
    for (const messages of Object.values(error.errors!)) {
      expect(Array.isArray(messages)).toBe(true);
      for (const message of messages as string[]) expect(typeof message).toBe("string");
    }
  });

  it("keeps nested paths as one key", () => {
    const error = toHttpError(400, {
      detail: "Invalid query.",
      errors: [{ path: "filter[status]", message: "unknown value" }],
    });
    expect(error.errors).toEqual({ "filter[status]": ["unknown value"] });
  });

  it("has no errors property when the problem lists no field errors", () => {
    expect(toHttpError(404, { title: "Not Found", status: 404, detail: "No such line." })).toEqual({
      message: "No such line.",
      statusCode: 404,
    });
    expect("errors" in toHttpError(409, { detail: "Conflict.", errors: [] })).toBe(false);
  });

  it("falls back to the title, then to the generic message", () => {
    expect(toHttpError(403, { title: "Forbidden", status: 403 })).toEqual({ message: "Forbidden", statusCode: 403 });
    expect(toHttpError(502, null)).toEqual({ message: en["signIn.errors.generic"], statusCode: 502 });
    expect(toHttpError(500, {})).toEqual({ message: en["signIn.errors.generic"], statusCode: 500 });
  });
});

describe("dataProvider.getMany", () => {
  it("asks for the records by id in one list request per 50 ids, each id once, never one request per id", async () => {
    const { dataProvider } = await import("../../src/providers/dataProvider");
    const urls: string[] = [];
    const fetchMock = vi.spyOn(globalThis, "fetch").mockImplementation((url) => {
      const href = url instanceof Request ? url.url : url.toString();
      urls.push(href);
      const ids = new URL(href, "http://x").searchParams.get("filter[id][in]")!.split(",");
      return Promise.resolve(
        new Response(JSON.stringify({ data: ids.map((id) => ({ id })), total: ids.length }), {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
      );
    });
    try {
      const ids = Array.from({ length: 120 }, (_, i) => `id-${i % 60}`); // 60 distinct ids, each twice
      const { data } = await dataProvider.getMany!({ resource: "lines", ids });
      expect(urls).toHaveLength(2);
      expect(
        urls.every((u) => u.includes("/lines?") && new URL(u, "http://x").searchParams.get("pageSize") !== null),
      ).toBe(true);
      expect(data.map((r) => r.id).sort()).toEqual([...new Set(ids)].sort());
    } finally {
      fetchMock.mockRestore();
    }
  });

  it("the list contract accepts filter[id][in] on every resource, and nothing else new", () => {
    const parsed = listQuerySchema(plansResource).safeParse({
      "filter[id][in]": "3b0e1f5e-9a53-4a52-8f44-3c6c0d1f2a10,9b2f6a53-0a53-4f4e-9a55-0d1e0b5a8a11",
    });
    expect(parsed.success).toBe(true);
    expect(listQuerySchema(plansResource).safeParse({ "filter[id][in]": "not-a-uuid" }).success).toBe(false);
    expect(listQuerySchema(plansResource).safeParse({ "filter[id][contains]": "3b0e" }).success).toBe(false);
  });
});
