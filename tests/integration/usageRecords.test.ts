import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import { lines } from "../../server/db/schema";
import type { DailyUsage } from "../../src/resources/usage";
import type { UsageRecord } from "../../src/resources/usageRecords";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";

// Usage history through the engine (issue 10): a subscriber's own records, the declared filters,
// and the per-day sums of a cycle behind the chart, on the real database (TEST_DB).
const LIST = "/api/v1/usage-records";
let backend: TestBackend;
const lineIds: Record<string, string> = {};
const day = (n: number) => new Date(Date.now() - n * 60_000).toISOString(); // n minutes ago: inside the current cycle of these lines
const ids = {
  alexData: `h-${randomUUID()}`,
  alexRoaming: `h-${randomUUID()}`,
  alexVoice: `h-${randomUUID()}`,
  postpaid: `h-${randomUUID()}`,
  sam: `h-${randomUUID()}`,
};
let alexCycleStart = "";

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const msisdn of ["+12025550101", "+12025550102", "+12025550103"]) {
    const [row] = await backend.database.db.select({ id: lines.id }).from(lines).where(eq(lines.msisdn, msisdn));
    lineIds[msisdn] = row!.id;
  }
  const records = [
    { id: ids.alexData, msisdn: "+12025550101", type: "data", startedAt: day(1), quantity: 120 },
    {
      id: ids.alexRoaming,
      msisdn: "+12025550101",
      type: "data",
      startedAt: day(2),
      quantity: 30,
      roamingZone: "europe",
    },
    { id: ids.alexVoice, msisdn: "+12025550101", type: "voice", startedAt: day(3), quantity: 75 },
    { id: ids.postpaid, msisdn: "+12025550102", type: "sms", startedAt: day(1), quantity: 1 },
    { id: ids.sam, msisdn: "+12025550103", type: "data", startedAt: day(1), quantity: 5 },
  ];
  const res = await backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { authorization: `ApiKey ${LOCAL_INGEST_KEY}`, "x-operator": "ATT" },
    payload: { records },
  });
  expect(res.statusCode, res.body).toBe(200);
  alexCycleStart = (await backend.get(`/api/v1/lines/${lineIds["+12025550101"]}/meters`, { as: ALEX })).json<
    {
      cycleStart: string;
    }[]
  >()[0]!.cycleStart;
});

afterAll(async () => {
  await backend?.close();
});

const list = async (query: string, as = ALEX) => {
  const res = await backend.get(`${LIST}${query}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: UsageRecord[]; total: number }>();
};

describe("GET /usage-records", () => {
  it("a subscriber sees the records of their own lines only, newest first, with unit and roaming", async () => {
    const alex = await list("");
    expect(new Set(alex.data.map((r) => r.id))).toEqual(
      new Set([ids.alexData, ids.alexRoaming, ids.alexVoice, ids.postpaid]),
    );
    expect(alex.data.map((r) => r.startedAt)).toEqual([...alex.data.map((r) => r.startedAt)].sort().reverse());
    const roaming = alex.data.find((r) => r.id === ids.alexRoaming)!;
    expect(roaming).toMatchObject({
      msisdn: "+12025550101",
      type: "data",
      quantity: 30,
      unit: "MB",
      roaming: true,
      roamingZone: "europe",
      lineId: lineIds["+12025550101"],
    });
    expect(alex.data.find((r) => r.id === ids.alexVoice)).toMatchObject({
      unit: "seconds",
      roaming: false,
      roamingZone: null,
    });
    expect((await list("", SAM)).data.map((r) => r.id)).toEqual([ids.sam]);
    expect((await list("", AGENT)).total).toBe(5);
  });

  it("filters by line, type, date range and roaming", async () => {
    const byLine = await list(`?filter[lineId]=${lineIds["+12025550102"]}`);
    expect(byLine.data.map((r) => r.id)).toEqual([ids.postpaid]);
    expect((await list("?filter[type]=voice")).data.map((r) => r.id)).toEqual([ids.alexVoice]);
    expect(new Set((await list("?filter[type][in]=voice,sms")).data.map((r) => r.id))).toEqual(
      new Set([ids.alexVoice, ids.postpaid]),
    );
    expect((await list("?filter[roaming]=true")).data.map((r) => r.id)).toEqual([ids.alexRoaming]);
    expect((await list("?filter[roamingZone]=europe")).data.map((r) => r.id)).toEqual([ids.alexRoaming]);
    const between = await list(
      `?filter[startedAt][between]=${encodeURIComponent(day(2.5))},${encodeURIComponent(day(1.5))}`,
    );
    expect(between.data.map((r) => r.id)).toEqual([ids.alexRoaming]);
    expect((await list(`?filter[startedAt][gte]=${encodeURIComponent(day(1.5))}`)).total).toBe(2);
    expect((await list(`?filter[cycleStart]=${alexCycleStart}&filter[lineId]=${lineIds["+12025550101"]}`)).total).toBe(
      3,
    );
    expect((await list("?sort=quantity")).data[0]!.quantity).toBe(1);
  });

  it("refuses what it cannot do: no token 401, undeclared filters and sorts 400 naming them, another operator's user 403", async () => {
    expect((await backend.get(LIST)).statusCode).toBe(401);
    const filter = await backend.get(`${LIST}?filter[receivedAt]=x`, { as: ALEX });
    expect(filter.statusCode).toBe(400);
    expect(filter.body).toContain("receivedAt");
    const sort = await backend.get(`${LIST}?sort=msisdn`, { as: ALEX });
    expect(sort.statusCode).toBe(400);
    expect((await backend.get(`${LIST}?filter[type]=fax`, { as: ALEX })).statusCode).toBe(400);
    expect((await backend.get(LIST, { as: TAYLOR })).statusCode).toBe(403);
    const theirs = await backend.get(LIST, { as: TAYLOR, operator: "TMO" });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json<{ total: number }>().total).toBe(0);
  });

  it("one record: its holder and staff open it; another subscriber and another operator get 404", async () => {
    const mine = await backend.get(`${LIST}/${ids.alexData}`, { as: ALEX });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<UsageRecord>().quantity).toBe(120);
    expect((await backend.get(`${LIST}/${ids.alexData}`, { as: AGENT })).statusCode).toBe(200);
    expect((await backend.get(`${LIST}/${ids.alexData}`, { as: SAM })).statusCode).toBe(404);
    expect((await backend.get(`${LIST}/${ids.alexData}`, { as: TAYLOR, operator: "TMO" })).statusCode).toBe(404);
    expect((await backend.send("DELETE", `${LIST}/${ids.alexData}`, { as: ALEX })).statusCode).toBe(404);
    expect(
      (await backend.send("PATCH", `${LIST}/${ids.alexData}`, { as: ALEX, body: { quantity: 1 } })).statusCode,
    ).toBe(404);
  });
});

describe("GET /lines/{id}/usage-daily", () => {
  it("sums the line's usage per day of the current cycle; 404 for another's line, 400 for a bad cycle date", async () => {
    const url = `/api/v1/lines/${lineIds["+12025550101"]}/usage-daily`;
    const res = await backend.get(url, { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    const usage = res.json<DailyUsage>();
    expect(usage.cycleStart).toBe(alexCycleStart);
    const totals = usage.days.reduce(
      (sum, d) => ({ data: sum.data + d.data, voice: sum.voice + d.voice, sms: sum.sms + d.sms }),
      { data: 0, voice: 0, sms: 0 },
    );
    expect(totals).toEqual({ data: 150, voice: 75, sms: 0 });
    expect(usage.days.every((d) => d.day >= usage.cycleStart && d.day < usage.cycleEnd)).toBe(true);

    expect((await backend.get(url, { as: SAM })).statusCode).toBe(404);
    expect((await backend.get(url)).statusCode).toBe(401);
    expect((await backend.get(`${url}?cycleStart=soon`, { as: ALEX })).statusCode).toBe(400);
    const earlier = (await backend.get(`${url}?cycleStart=2020-01-05`, { as: ALEX })).json<DailyUsage>();
    expect(earlier).toEqual({ cycleStart: "2020-01-05", cycleEnd: "2020-02-05", days: [] });
  });
});
