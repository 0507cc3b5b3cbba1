import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, ledgerEntries, lines, notifications, plans, usageCaps } from "../../server/db/schema";
import { parseServiceKeys } from "../../server/auth/serviceKeys";
import type { AccountMeters, Meter } from "../../src/resources/usage";
import type { Plan } from "../../src/resources/plans";
import { createPoolPlan } from "../support/poolPlan";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { expectProblem } from "../support/problems";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyCallerByOverride } from "../support/callerVerification";

// Shared data plans (issue 28 item 5): a pool plan made and put on sale in the catalog, alex's
// postpaid account (three lines) moved onto it line by line with change-plan, the pool drawn by the
// rating across lines, a per-line cap (set-cap) that stops one line only, a used-up pool that stops
// every line, GET /accounts/{id}/meters, and who may read and act. On the real database (TEST_DB).
const KEY = "att-pool-key";
const ALEX_POSTPAID = "+12025550102";
const KID_A = "+12025550181";
const KID_B = "+12025550182";
const POOL_MB = 100;

let backend: TestBackend;
let accountId: string;
let poolPlanId: string;
const lineId: Record<string, string> = {};

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
async function ingestData(msisdn: string, mb: number) {
  const res = await backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { "content-type": "application/json", "x-operator": "ATT", authorization: `ApiKey ${KEY}` },
    payload: {
      records: [{ id: `pool-${randomUUID()}`, msisdn, type: "data", startedAt: minutesAgo(5), quantity: mb }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const accountMeters = (as: string | undefined, operator?: string) =>
  backend.get(`/api/v1/accounts/${accountId}/meters`, { as, operator });
async function pool(): Promise<AccountMeters> {
  const res = await accountMeters(ALEX);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AccountMeters>();
}
const partOf = (m: AccountMeters, msisdn: string) => m.lines.find((l) => l.msisdn === msisdn)!;
async function dataMeter(msisdn: string): Promise<Meter> {
  const res = await backend.get(`/api/v1/lines/${lineId[msisdn]}/meters`, { as: ALEX });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Meter[]>().find((m) => m.type === "data")!;
}
const setCap = (msisdn: string, body: unknown, options: { as?: string; operator?: string } = { as: ALEX }) =>
  backend.send("POST", `/api/v1/lines/${lineId[msisdn]}/actions/set-cap`, { ...options, body });

beforeAll(async () => {
  backend = await startTestBackend({ ingestApiKeys: parseServiceKeys(KEY, "ATT") });
  // A pool plan made in catalog management as any other plan: 100 MB shared, $20 a line, no data past it.
  const created = await createPoolPlan(backend, {
    code: "POOL_TEST_100MB",
    name: "Family Test 100 MB",
    dataMb: POOL_MB,
  });
  poolPlanId = created.id;
  expect(created).toMatchObject({ sharing: "pool", status: "active" });

  // Alex's family: his postpaid line and two more on the same account and cycle day (as add-line makes them).
  const [main] = await backend.database.db
    .select({ id: lines.id, accountId: lines.accountId, planId: lines.planId, cycleDay: lines.cycleDay })
    .from(lines)
    .where(eq(lines.msisdn, ALEX_POSTPAID));
  accountId = main!.accountId;
  lineId[ALEX_POSTPAID] = main!.id;
  for (const [n, msisdn] of [KID_A, KID_B].entries()) {
    const [row] = await backend.database.db
      .insert(lines)
      .values({
        operatorCode: "ATT",
        accountId,
        msisdn,
        iccid: `89014109990000000${n + 10}`,
        simType: "esim",
        planId: main!.planId,
        status: "active",
        cycleDay: main!.cycleDay,
      })
      .returning({ id: lines.id });
    lineId[msisdn] = row!.id;
  }
  // "alex moves the family to a shared plan": change-plan on each line.
  for (const msisdn of [ALEX_POSTPAID, KID_A, KID_B]) {
    const res = await backend.send("POST", `/api/v1/lines/${lineId[msisdn]}/actions/change-plan`, {
      as: ALEX,
      body: { planId: poolPlanId, effective: "now" },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
});

afterAll(async () => {
  await backend?.close();
});

describe("shared plans in the catalog", () => {
  it("the demo catalog has a pool plan on sale; existing plans keep their own data", async () => {
    const res = await backend.get("/api/v1/plans?pageSize=50", { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    const all = res.json<{ data: Plan[] }>().data;
    expect(all.find((p) => p.code === "POST_FAMILY_30GB")).toMatchObject({ sharing: "pool", dataMb: 30 * 1024 });
    expect(all.find((p) => p.code === "POST_50GB")?.sharing).toBe("none");
  });

  it("sharing is edited like other plan fields; anything else than none or pool is 400 at sharing", async () => {
    const bad = await backend.send("PATCH", `/api/v1/plans/${poolPlanId}`, { as: ADMIN, body: { sharing: "family" } });
    expectProblem(bad, 400, "sharing");
    const [row] = await backend.database.db.select().from(plans).where(eq(plans.id, poolPlanId));
    expect(row!.sharing).toBe("pool");
  });
});

describe("the pool in rating and in GET /accounts/{id}/meters", () => {
  it("lines draw from one pool: each line's part and what is left", async () => {
    await ingestData(ALEX_POSTPAID, 30);
    await ingestData(KID_A, 20);
    const m = await pool();
    expect(m.pool).toMatchObject({ planId: poolPlanId, allowance: POOL_MB, used: 50, left: 50, usedUp: false });
    expect(m.pool!.cycleEnd > m.pool!.cycleStart).toBe(true);
    expect(partOf(m, ALEX_POSTPAID)).toMatchObject({ shared: true, used: 30, cap: null, capped: false });
    expect(partOf(m, KID_A)).toMatchObject({ shared: true, used: 20, cap: null, capped: false });
    expect(partOf(m, KID_B)).toMatchObject({ used: 0, capped: false });
    // A line's own data meter measures what it used against what it can still use: the pool's rest.
    expect(await dataMeter(KID_A)).toMatchObject({ used: 20, allowance: 70, capped: false });
    expect(await dataMeter(KID_B)).toMatchObject({ used: 0, allowance: 50 });
  });

  it("a cap below what the line used this cycle is 422 naming dataMb; nothing changes", async () => {
    const res = await setCap(KID_A, { dataMb: 10 });
    const problem = expectProblem(res, 422, "dataMb");
    expect(problem.detail).toContain("20 MB");
    expect(partOf(await pool(), KID_A).cap).toBeNull();
  });

  it("a per-line cap stops that line only, audited and told to the owner; the pool goes on for the others", async () => {
    const res = await setCap(KID_A, { dataMb: 25 });
    expect(res.statusCode, res.body).toBe(200);
    await ingestData(KID_A, 10); // 5 MB up to the cap from the pool, 5 MB barred
    let m = await pool();
    expect(partOf(m, KID_A)).toMatchObject({ used: 30, cap: 25, capped: true });
    expect(m.pool).toMatchObject({ used: 55, left: 45 });
    expect(await dataMeter(KID_A)).toMatchObject({ used: 30, allowance: 25, capped: true });
    expect((await dataMeter(KID_B)).capped).toBe(false);
    const audits = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.cap-reached"), eq(auditEvents.targetId, lineId[KID_A]!)));
    expect(audits).toHaveLength(1);
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "usage.capped")));
    expect(notices.map((n) => n.params)).toContainEqual({ msisdn: KID_A, usageType: "data", capReason: "line_cap" });

    await ingestData(KID_B, 5);
    m = await pool();
    expect(partOf(m, KID_B)).toMatchObject({ used: 5, capped: false });
    expect(m.pool).toMatchObject({ used: 60, left: 40 });
  });

  it("a used-up pool stops every line of it, nothing is charged; lifting a line's cap leaves it stopped", async () => {
    await ingestData(ALEX_POSTPAID, 50); // 40 MB left: the last 10 MB are past the pool (no rate: barred)
    const m = await pool();
    expect(m.pool).toMatchObject({ used: POOL_MB, left: 0, usedUp: true });
    expect(m.lines.every((l) => l.capped)).toBe(true);
    const caps = await backend.database.db
      .select({ lineId: usageCaps.lineId, reason: usageCaps.reason })
      .from(usageCaps)
      .where(eq(usageCaps.type, "data"));
    expect(caps).toContainEqual({ lineId: lineId[KID_B], reason: "pool" });
    expect(caps).toContainEqual({ lineId: lineId[ALEX_POSTPAID], reason: "pool" });
    const overage = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, accountId), eq(ledgerEntries.referenceType, "overage")));
    expect(overage.filter((e) => e.createdAt.getTime() > Date.now() - 60_000)).toHaveLength(0);

    const lifted = await setCap(KID_A, { dataMb: null });
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(partOf(await pool(), KID_A)).toMatchObject({ cap: null, capped: true });
  });
});

describe("who may read the pool and set caps", () => {
  it("GET /accounts/{id}/meters: 401 without a token, 404 for another subscriber and another operator, 403 caller-not-verified for an agent until the caller is verified, then 200; 400 for a malformed id", async () => {
    expect((await accountMeters(undefined)).statusCode).toBe(401);
    expectProblem(await accountMeters(SAM), 404);
    expectProblem(await accountMeters(TAYLOR, "TMO"), 404);
    expect(expectProblem(await accountMeters(AGENT), 403).type).toBe("/problems/caller-not-verified");
    await verifyCallerByOverride(backend, accountId);
    const res = await accountMeters(AGENT);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AccountMeters>().pool?.used).toBe(POOL_MB);
    expect((await accountMeters(ADMIN)).statusCode).toBe(200);
    const malformed = await backend.get("/api/v1/accounts/not-an-id/meters", { as: ALEX });
    expect(malformed.statusCode).toBe(400);
  });

  it("set-cap: 401 without a token, 404 for another subscriber and another operator, staff need a reason, 400 at dataMb for a fraction, a negative, text or nothing; nothing changes", async () => {
    const url = `/api/v1/lines/${lineId[KID_B]}/actions/set-cap`;
    expect((await backend.send("POST", url, { body: { dataMb: 50 } })).statusCode).toBe(401);
    expectProblem(await setCap(KID_B, { dataMb: 50 }, { as: SAM }), 404);
    expectProblem(await setCap(KID_B, { dataMb: 50 }, { as: TAYLOR, operator: "TMO" }), 404);
    for (const body of [{ dataMb: 1.5 }, { dataMb: -1 }, { dataMb: "50" }, {}])
      expectProblem(await setCap(KID_B, body), 400, "dataMb");
    expectProblem(await setCap(KID_B, { dataMb: 50 }, { as: AGENT }), 400, "reason");
    expect(partOf(await pool(), KID_B).cap).toBeNull();
    const byAgent = await setCap(KID_B, { dataMb: 50, reason: "Owner asked on the phone" }, { as: AGENT });
    expect(byAgent.statusCode, byAgent.body).toBe(200);
    expect(partOf(await pool(), KID_B).cap).toBe(50);
  });

  it("an agent who has not verified the caller cannot set a cap (403 caller-not-verified)", async () => {
    const [sams] = await backend.database.db
      .select({ id: lines.id })
      .from(lines)
      .where(eq(lines.msisdn, "+12025550103"));
    const res = await backend.send("POST", `/api/v1/lines/${sams!.id}/actions/set-cap`, {
      as: AGENT,
      body: { dataMb: 50, reason: "Owner asked on the phone" },
    });
    expect(expectProblem(res, 403).type).toBe("/problems/caller-not-verified");
  });
});
