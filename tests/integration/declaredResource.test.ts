import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { resources } from "../../src/resources";
import { defineResource } from "../../src/resources/define";
import { idSchema, isoDateTime } from "../../src/resources/common";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, AGENT, ADMIN, TMO_AGENT } from "../support/fixtures";
import { rowsOf } from "../../server/db/rowsOf";

// A resource that exists nowhere in the product: declared here, handed to the backend, and the
// backend serves it with validation, access rules, SQL filters and an audit trail. This is what a
// product owner's new file gets without any other code.
const supportArticles = defineResource({
  name: "support-articles",
  label: "resources.support-articles.label",
  icon: "BookOutlined",
  schema: z.object({
    id: idSchema,
    title: z.string().trim().min(5).max(120),
    body: z.string().trim().min(20).max(5000),
    topic: z.enum(["billing", "roaming", "devices"]),
    published: z.boolean(),
    readMinutes: z.number().int().min(1).max(60),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
  recordTitle: "title",
  fields: {
    title: { label: "fields.title", kind: "text" },
    body: { label: "fields.body", kind: "longText" },
    topic: { label: "fields.topic", kind: "enum", options: ["billing", "roaming", "devices"] },
    published: { label: "fields.published", kind: "boolean" },
    readMinutes: { label: "fields.readMinutes", kind: "number" },
  },
  list: {
    columns: ["title", "topic", "readMinutes"],
    defaultSort: [{ field: "title", order: "asc" }],
    sortable: ["title", "readMinutes", "createdAt"],
    filters: { topic: ["eq", "in"], readMinutes: ["lte", "gte"], published: ["eq"] },
    search: { placeholder: "resources.support-articles.search", fields: ["title", "body"] },
  },
  show: ["title", "topic", "body", "readMinutes"],
  form: {
    create: ["title", "body", "topic", "published", "readMinutes"],
    edit: ["title", "body", "topic", "published", "readMinutes"],
  },
  // Staff write, everyone reads.
  access: {
    list: { subscriber: "all", agent: "all", admin: "all" },
    show: { subscriber: "all", agent: "all", admin: "all" },
    create: { agent: "all", admin: "all" },
    edit: { agent: "all", admin: "all" },
    delete: { admin: "all" },
  },
  source: "backend",
  audit: true,
  indexes: ["topic", "readMinutes"],
});

const article = (over: Record<string, unknown> = {}) => ({
  title: "Roaming in Mexico",
  body: "Your plan includes roaming in Mexico and Canada at no extra charge.",
  topic: "roaming",
  published: true,
  readMinutes: 2,
  ...over,
});

let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend({ resources: [...resources, supportArticles] });
});
afterAll(async () => {
  await backend?.close();
});

describe("a resource declared in one file", () => {
  it("appears in the OpenAPI document with its list, record, create, edit and delete operations", async () => {
    const doc = (await backend.get("/api/openapi.json")).json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(doc.paths["/api/v1/support-articles"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/api/v1/support-articles/{id}"] ?? {}).sort()).toEqual(["delete", "get", "patch"]);
  });

  it("lets staff write and everyone of the operator read, and no one else", async () => {
    const created = await backend.send("POST", "/api/v1/support-articles", { as: AGENT, body: article() });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();

    expect((await backend.get(`/api/v1/support-articles/${id}`, { as: ALEX })).json()).toMatchObject({
      id,
      title: "Roaming in Mexico",
      published: true,
    });
    expect((await backend.send("POST", "/api/v1/support-articles", { as: ALEX, body: article() })).statusCode).toBe(
      403,
    );
    expect(
      (await backend.send("PATCH", `/api/v1/support-articles/${id}`, { as: ALEX, body: { readMinutes: 3 } }))
        .statusCode,
    ).toBe(403);
    expect((await backend.send("DELETE", `/api/v1/support-articles/${id}`, { as: AGENT })).statusCode).toBe(403);
    expect((await backend.get(`/api/v1/support-articles/${id}`)).statusCode).toBe(401);
    // Another operator's staff neither see nor change it.
    expect((await backend.get(`/api/v1/support-articles/${id}`, { as: TMO_AGENT, operator: "TMO" })).statusCode).toBe(
      404,
    );
    expect(
      (
        await backend.send("PATCH", `/api/v1/support-articles/${id}`, {
          as: TMO_AGENT,
          operator: "TMO",
          body: { readMinutes: 9 },
        })
      ).statusCode,
    ).toBe(404);
    const tmoList = (await backend.get("/api/v1/support-articles", { as: TMO_AGENT, operator: "TMO" })).json<{
      total: number;
    }>();
    expect(tmoList.total).toBe(0);
  });

  it("validates with the declared schema and names the field that is wrong", async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [article({ topic: "weather" }), 400, "topic"],
      [article({ readMinutes: "two" }), 400, "readMinutes"],
      [article({ readMinutes: 2.5 }), 400, "readMinutes"],
      [article({ title: "Hi" }), 400, "title"],
      [article({ colour: "red" }), 400, "colour"],
      [article({ id: "9b2f6a53-0a53-4f4e-9a55-0d1e0b5a8a11" }), 403, "id"],
    ];
    const before = (await backend.get("/api/v1/support-articles", { as: AGENT })).json<{ total: number }>().total;
    for (const [body, status, field] of cases) {
      const res = await backend.send("POST", "/api/v1/support-articles", { as: AGENT, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain(field);
    }
    const { title: _dropped, ...withoutTitle } = article();
    const missing = await backend.send("POST", "/api/v1/support-articles", { as: AGENT, body: withoutTitle });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain("title");
    expect((await backend.get("/api/v1/support-articles", { as: AGENT })).json<{ total: number }>().total).toBe(before);
  });

  it("runs the declared filters, sorts and search in SQL, and refuses undeclared ones", async () => {
    for (const [title, topic, readMinutes] of [
      ["Paying your bill online", "billing", 4],
      ["Setting up an eSIM", "devices", 6],
      ["Understanding your bill", "billing", 8],
    ] as const) {
      const res = await backend.send("POST", "/api/v1/support-articles", {
        as: ADMIN,
        body: article({ title, topic, readMinutes, body: `All about ${title.toLowerCase()}, step by step.` }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const list = async (query: string) =>
      (await backend.get(`/api/v1/support-articles?${query}`, { as: ALEX })).json<{
        data: { title: string }[];
        total: number;
      }>();
    expect((await list("filter[topic]=billing&sort=-readMinutes")).data.map((a) => a.title)).toEqual([
      "Understanding your bill",
      "Paying your bill online",
    ]);
    expect((await list("filter[readMinutes][gte]=5&sort=readMinutes")).data.map((a) => a.title)).toEqual([
      "Setting up an eSIM",
      "Understanding your bill",
    ]);
    expect((await list("q=esim")).data.map((a) => a.title)).toEqual(["Setting up an eSIM"]);
    expect((await list("filter[topic][in]=devices,roaming&pageSize=1")).total).toBe(2);
    const refused = await backend.get("/api/v1/support-articles?filter[body]=x&sort=topic", { as: ALEX });
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json<{ errors: { path: string }[] }>()
        .errors.map((e) => e.path)
        .sort(),
    ).toEqual(["filter[body]", "sort"]);
    // The declared indexes exist, and a trigram index per search field.
    const rows = rowsOf<{ indexname: string }>(
      await backend.database.db.execute(
        sql`select indexname from pg_indexes where tablename = 'resource_documents' and indexname like 'resource_documents_support_articles_%'`,
      ),
    );
    const names = rows.map((r) => r.indexname).sort();
    expect(names).toEqual([
      "resource_documents_support_articles_body_trgm_idx",
      "resource_documents_support_articles_readminutes_idx",
      "resource_documents_support_articles_title_trgm_idx",
      "resource_documents_support_articles_topic_idx",
    ]);
  });

  it("audits every write with actor, role, before and after", async () => {
    const created = (
      await backend.send("POST", "/api/v1/support-articles", {
        as: AGENT,
        body: article({ title: "Data roaming caps" }),
      })
    ).json<{ id: string }>();
    expect(
      (await backend.send("PATCH", `/api/v1/support-articles/${created.id}`, { as: AGENT, body: { readMinutes: 5 } }))
        .statusCode,
    ).toBe(200);
    expect((await backend.send("DELETE", `/api/v1/support-articles/${created.id}`, { as: ADMIN })).statusCode).toBe(
      200,
    );
    expect((await backend.get(`/api/v1/support-articles/${created.id}`, { as: AGENT })).statusCode).toBe(404);

    const trail = (
      await backend.get(`/api/v1/audit-events?filter[targetId]=${created.id}&sort=createdAt`, { as: ADMIN })
    ).json<{
      data: {
        action: string;
        actorRole: string;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
      }[];
    }>();
    expect(trail.data.map((e) => [e.action, e.actorRole])).toEqual([
      ["support-articles.create", "agent"],
      ["support-articles.edit", "agent"],
      ["support-articles.delete", "admin"],
    ]);
    expect(trail.data[1]!.before).toMatchObject({ readMinutes: 2 });
    expect(trail.data[1]!.after).toMatchObject({ readMinutes: 5 });
    expect(trail.data[2]!.before).toMatchObject({ title: "Data roaming caps" });
    expect(trail.data[2]!.after).toBeNull();
  });
});
