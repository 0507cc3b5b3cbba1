import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resources } from "../../src/resources";
import { defineResource } from "../../src/resources/define";
import { idSchema, isoDate, isoDateTime, moneySchema } from "../../src/resources/common";
import { resourceDocuments } from "../../server/db/schema";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";

// What a product owner tried to say in a "roaming passes" declaration and could not, before
// (issue 8, part 4): a rule true only when written, labels of their own, a field computed in SQL.
const today = () => new Date().toISOString().slice(0, 10);
const PASS_STATUSES = ["active", "expired"] as const;

const roamingPasses = defineResource({
  name: "roaming-passes",
  label: "resources.roaming-passes.label",
  icon: "GlobalOutlined",
  schema: z.object({
    id: idSchema,
    zone: z.enum(["mexico_canada", "europe", "world"]),
    startsOn: isoDate,
    days: z.number().int().min(1).max(90),
    dailyPrice: moneySchema,
    total: moneySchema,
    status: z.enum(PASS_STATUSES),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
  // Only when written: a pass bought today for today stays readable tomorrow.
  writeRules: { startsOn: isoDate.refine((day) => day >= today(), "cannot be in the past") },
  computed: { total: { op: "multiply", of: ["dailyPrice", "days"] } },
  recordTitle: "zone",
  fields: {
    zone: { label: "fields.zone", kind: "enum", options: ["mexico_canada", "europe", "world"] },
    startsOn: { label: "fields.startsOn", kind: "date" },
    days: { label: "fields.days", kind: "number" },
    dailyPrice: { label: "fields.dailyPrice", kind: "money" },
    total: { label: "fields.total", kind: "money" },
    // A pass is masculine in Spanish ("pase activo"), a line feminine ("línea activa").
    status: { label: "fields.status", kind: "enum", options: PASS_STATUSES, labels: "enums.passStatus" },
  },
  list: {
    columns: ["zone", "startsOn", "days", "total", "status"],
    defaultSort: [{ field: "total", order: "desc" }],
    sortable: ["total", "startsOn", "days"],
    filters: { total: ["gte", "lte"], zone: ["eq"] },
  },
  show: ["zone", "startsOn", "days", "dailyPrice", "total", "status"],
  form: { create: ["zone", "startsOn", "days", "dailyPrice"], edit: ["startsOn"] },
  defaults: { status: "active" },
  access: {
    list: { subscriber: "own", agent: "all", admin: "all" },
    show: { subscriber: "own", agent: "all", admin: "all" },
    create: { subscriber: "own", agent: "all", admin: "all" },
    edit: { agent: "all", admin: "all" },
  },
  source: "backend",
  audit: true,
});

let backend: TestBackend;
const usd = (amount: number) => ({ amount, currency: "USD" });
const pass = (over: Record<string, unknown> = {}) => ({
  zone: "europe",
  startsOn: today(),
  days: 7,
  dailyPrice: usd(1000),
  ...over,
});

beforeAll(async () => {
  backend = await startTestBackend({ resources: [...resources, roamingPasses] });
});
afterAll(async () => {
  await backend?.close();
});

describe("a rule true only when written", () => {
  it("refuses a start in the past on create and on edit, naming the field", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const created = await backend.send("POST", "/api/v1/roaming-passes", {
      as: ALEX,
      body: pass({ startsOn: yesterday }),
    });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual(["startsOn"]);
    const ok = await backend.send("POST", "/api/v1/roaming-passes", { as: ALEX, body: pass() });
    expect(ok.statusCode, ok.body).toBe(201);
    const edited = await backend.send("PATCH", `/api/v1/roaming-passes/${ok.json<{ id: string }>().id}`, {
      as: AGENT,
      body: { startsOn: yesterday },
    });
    expect(edited.statusCode, edited.body).toBe(400);
  });

  it("never checks it on reads: a pass that started last month is still served", async () => {
    const [old] = await backend.database.db
      .insert(resourceDocuments)
      .values({
        operatorCode: "ATT",
        resource: "roaming-passes",
        ownerUid: "demo-alex",
        data: { zone: "world", startsOn: "2026-10-01", days: 3, dailyPrice: usd(1500), status: "expired" },
      })
      .returning({ id: resourceDocuments.id });
    const res = await backend.get(`/api/v1/roaming-passes/${old!.id}`, { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ startsOn: "2026-10-01", status: "expired" });
  });
});

describe("a field computed in SQL", () => {
  it("is shown like any other (money from money × number), and sorts and filters in SQL", async () => {
    for (const [days, price] of [
      [2, 500],
      [10, 900],
      [30, 300],
    ] as const) {
      const res = await backend.send("POST", "/api/v1/roaming-passes", {
        as: ALEX,
        body: pass({ days, dailyPrice: usd(price) }),
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ total: usd(days * price) });
    }
    const sorted = (await backend.get("/api/v1/roaming-passes?sort=-total&pageSize=100", { as: ADMIN })).json<{
      data: { total: { amount: number } }[];
    }>();
    const totals = sorted.data.map((p) => p.total.amount);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const cheap = (
      await backend.get("/api/v1/roaming-passes?filter[total][lte]=1000&pageSize=100", { as: ADMIN })
    ).json<{ data: { total: { amount: number } }[] }>();
    expect(cheap.data.length).toBeGreaterThan(0);
    expect(cheap.data.every((p) => p.total.amount <= 1000)).toBe(true);
  });

  it("cannot be written: it is not a field of any form", async () => {
    const res = await backend.send("POST", "/api/v1/roaming-passes", { as: ALEX, body: { ...pass(), total: usd(1) } });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toEqual(["total"]);
  });
});
