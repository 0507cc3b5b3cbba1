import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, ledgerEntries, lines, notifications, resourceDocuments } from "../../server/db/schema";
import { readAccountMoney } from "../../server/domain/money/accountMoney";
import { postLedgerEntry } from "../../server/domain/money/ledger";
import { runDeclaredSchedules } from "../../server/generic/declaredSchedules";
import { domainJobs } from "../../server/domain/jobs";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";

// Travel insurance (issue 29): a product declared in one file (src/resources/travelInsurance.ts) with
// no domain module: a rate table, a price from it kept at purchase, a quote before buying, a charge
// through the ledger, a cancel before the start with a refund, and expiry by the scheduled job.
let backend: TestBackend;
const lineId: Record<string, string> = {};
const ALEX_PREPAID = "+12025550101";
const ALEX_POSTPAID = "+12025550102";
const SAM_LINE = "+12025550103";

interface Problem {
  status: number;
  errors?: { path: string; message: string }[];
  shortfall?: { amount: number; currency: string };
}
interface Policy {
  id: string;
  lineId: string;
  zone: string;
  startsOn: string;
  days: number;
  endsOn: string;
  price: { amount: number; currency: string };
  status: string;
}

const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const today = () => dayFrom(0);
const usd = (amount: number) => ({ amount, currency: "USD" });
const policy = (over: Record<string, unknown> = {}) => ({
  lineId: lineId[ALEX_PREPAID],
  zone: "europe",
  startsOn: dayFrom(3),
  days: 7,
  ...over,
});
const buy = (body: Record<string, unknown>, as = ALEX, headers: Record<string, string> = {}, operator?: string) =>
  backend.send("POST", "/api/v1/travel-insurance", { as, body, headers, operator });
const quote = (body: Record<string, unknown>, as = ALEX) =>
  backend.send("POST", "/api/v1/travel-insurance/preview", { as, body });
const cancel = (id: string, as = ALEX, body: Record<string, unknown> | undefined = undefined) =>
  backend.send("POST", `/api/v1/travel-insurance/${id}/actions/cancel`, { as, body });

async function accountOf(line: string) {
  const [row] = await backend.database.db
    .select({ accountId: lines.accountId })
    .from(lines)
    .where(eq(lines.id, lineId[line]!));
  return row!.accountId;
}
const balanceOf = async (line: string) => {
  const account = await accountOf(line);
  return (await readAccountMoney(backend.database.db, [account])).get(account)!.balance?.amount ?? null;
};
/** Tops a prepaid line's account up for the test, through the ledger like any credit. */
async function topUp(line: string, amount: number) {
  const accountId = await accountOf(line);
  await backend.database.db.transaction(async (tx) =>
    postLedgerEntry(tx, {
      operatorCode: "ATT",
      accountId,
      kind: "adjustment",
      amount,
      currency: "USD",
      reason: "Test credit",
      actorUid: null,
      actorRole: "system",
    }),
  );
}

beforeAll(async () => {
  backend = await startTestBackend();
  for (const row of await backend.database.db.select({ id: lines.id, msisdn: lines.msisdn }).from(lines))
    lineId[row.msisdn] = row.id;
  await topUp(ALEX_PREPAID, 20_000);
});
afterAll(async () => {
  await backend?.close();
});

describe("the rate table", () => {
  it("starts with the declared rates for each operator, and only staff read it; admins change it", async () => {
    const rates = await backend.get("/api/v1/travel-insurance-rates?sort=zone", { as: AGENT });
    expect(rates.statusCode, rates.body).toBe(200);
    expect(
      rates.json<{ data: { zone: string; dailyRate: unknown }[] }>().data.map((r) => [r.zone, r.dailyRate]),
    ).toEqual([
      ["americas", usd(150)],
      ["europe", usd(200)],
      ["rest_of_world", usd(300)],
    ]);
    expect((await backend.get("/api/v1/travel-insurance-rates", { as: ALEX })).statusCode).toBe(403);
    const byAgent = await backend.send("POST", "/api/v1/travel-insurance-rates", {
      as: AGENT,
      body: { zone: "europe", dailyRate: usd(250), effectiveFrom: today() },
    });
    expect(byAgent.statusCode).toBe(403);
    const tmo = await backend.get("/api/v1/travel-insurance-rates", { as: "agent@tmo.example", operator: "TMO" });
    expect(tmo.json<{ total: number }>().total).toBe(3);
  });
});

describe("a quote before buying", () => {
  it("prices by zone × days from the rate table, and writes nothing", async () => {
    const before = await balanceOf(ALEX_PREPAID);
    for (const [zone, amount] of [
      ["europe", 1400],
      ["americas", 1050],
      ["rest_of_world", 2100],
    ] as const) {
      const res = await quote(policy({ zone }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        lines: [
          {
            label: "resources.travel-insurance.charge",
            amount: usd(amount),
            params: { days: 7, startsOn: dayFrom(3), endsOn: dayFrom(9) },
          },
        ],
        total: usd(amount),
      });
    }
    expect(await balanceOf(ALEX_PREPAID)).toBe(before);
    const stored = await backend.database.db
      .select()
      .from(resourceDocuments)
      .where(eq(resourceDocuments.resource, "travel-insurance"));
    expect(stored).toEqual([]);
  });

  it("refuses what the create refuses, at the field", async () => {
    const past = await quote(policy({ startsOn: dayFrom(-1) }));
    expect(past.statusCode, past.body).toBe(400);
    expect(past.json<Problem>().errors).toEqual([{ path: "startsOn", message: "Pick today or a later day." }]);
    const tooLong = await quote(policy({ days: 91 }));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<Problem>().errors?.map((e) => e.path)).toEqual(["days"]);
    const badZone = await quote(policy({ zone: "mars" }));
    expect(badZone.json<Problem>().errors?.map((e) => e.path)).toEqual(["zone"]);
    const priced = await quote(policy({ price: usd(1) }));
    expect(priced.statusCode).toBe(403);
    const notMine = await quote(policy({ lineId: lineId[SAM_LINE] }));
    expect(notMine.statusCode, notMine.body).toBe(400);
    expect(notMine.json<Problem>().errors?.map((e) => e.path)).toEqual(["lineId"]);
    expect((await backend.send("POST", "/api/v1/travel-insurance/preview", { body: policy() })).statusCode).toBe(401);
  });

  it("answers 422 with the shortfall when the prepaid balance cannot pay, before anything is bought", async () => {
    const res = await quote(policy({ lineId: lineId[SAM_LINE], zone: "rest_of_world", days: 90 }), SAM);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<Problem>().shortfall?.amount).toBeGreaterThan(0);
  });
});

describe("buying", () => {
  it("charges the line's balance the quoted price through the ledger, and keeps the price and the last day", async () => {
    const before = (await balanceOf(ALEX_PREPAID))!;
    const res = await buy(policy({ zone: "americas", days: 10 }));
    expect(res.statusCode, res.body).toBe(201);
    const bought = res.json<Policy>();
    expect(bought).toMatchObject({
      status: "active",
      price: usd(1500),
      startsOn: dayFrom(3),
      endsOn: dayFrom(12),
      days: 10,
    });
    expect(await balanceOf(ALEX_PREPAID)).toBe(before - 1500);
    const [entry] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "travel-insurance"), eq(ledgerEntries.referenceId, bought.id)));
    expect(entry).toMatchObject({
      kind: "charge",
      amount: 1500,
      reason: `Travel insurance, 10 days from ${dayFrom(3)}`,
    });
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, "travel-insurance"), eq(auditEvents.targetId, bought.id)));
    expect(audit.map((a) => a.action)).toEqual(["travel-insurance.create"]);
  });

  it("starts today by default and keeps the rate in force on the day of purchase when the rate changes later", async () => {
    const first = await buy({ lineId: lineId[ALEX_PREPAID], zone: "europe", days: 2 });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<Policy>()).toMatchObject({ startsOn: today(), endsOn: dayFrom(1), price: usd(400) });
    // A new Europe rate from today: new purchases pay it; the policy bought before keeps its price.
    const rate = await backend.send("POST", "/api/v1/travel-insurance-rates", {
      as: ADMIN,
      body: { zone: "europe", dailyRate: usd(275), effectiveFrom: today() },
    });
    expect(rate.statusCode, rate.body).toBe(201);
    const later = await buy(policy({ days: 2 }));
    expect(later.json<Policy>().price).toEqual(usd(550));
    const again = await backend.get(`/api/v1/travel-insurance/${first.json<Policy>().id}`, { as: ALEX });
    expect(again.json<Policy>().price).toEqual(usd(400));
    // A rate from a future day is not in force yet.
    await backend.send("POST", "/api/v1/travel-insurance-rates", {
      as: ADMIN,
      body: { zone: "europe", dailyRate: usd(999), effectiveFrom: dayFrom(30) },
    });
    expect((await quote(policy({ days: 1 }))).json<{ total: unknown }>().total).toEqual(usd(275));
  });

  it("refuses a balance too small with 422 and the shortfall, and writes nothing", async () => {
    const before = await balanceOf(SAM_LINE);
    const res = await buy(policy({ lineId: lineId[SAM_LINE], zone: "rest_of_world", days: 90 }), SAM);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<Problem>().shortfall?.amount).toBeGreaterThan(0);
    expect(await balanceOf(SAM_LINE)).toBe(before);
    const list = await backend.get("/api/v1/travel-insurance", { as: SAM });
    expect(list.json<{ total: number }>().total).toBe(0);
  });

  it("keeps a refused purchase under its key: the retry replays the 422 and buys nothing", async () => {
    const key = `travel-refused-${Date.now()}`;
    const body = policy({ lineId: lineId[SAM_LINE], zone: "rest_of_world", days: 90 });
    const first = await buy(body, SAM, { "idempotency-key": key });
    expect(first.statusCode, first.body).toBe(422);
    const again = await buy(body, SAM, { "idempotency-key": key });
    expect(again.statusCode, again.body).toBe(422);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    const list = await backend.get("/api/v1/travel-insurance", { as: SAM });
    expect(list.json<{ total: number }>().total).toBe(0);
  });

  it("puts a postpaid line's policy on its next bill instead", async () => {
    const res = await buy(policy({ lineId: lineId[ALEX_POSTPAID] }));
    expect(res.statusCode, res.body).toBe(201);
    const [entry] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.referenceId, res.json<Policy>().id));
    expect(entry, JSON.stringify(entry)).toMatchObject({ kind: "charge", amount: 1925, balanceAfter: null });
  });

  it("replays a retried purchase with the same Idempotency-Key: one policy, one charge", async () => {
    const before = (await balanceOf(ALEX_PREPAID))!;
    const key = `travel-${Date.now()}`;
    const [a, b] = await Promise.all([
      buy(policy({ zone: "americas", days: 1 }), ALEX, { "idempotency-key": key }),
      buy(policy({ zone: "americas", days: 1 }), ALEX, { "idempotency-key": key }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 201]);
    expect(a.json<Policy>().id).toBe(b.json<Policy>().id);
    expect(await balanceOf(ALEX_PREPAID)).toBe(before - 150);
  });

  it("is refused for another subscriber's line, without a sign-in, and across operators", async () => {
    expect((await buy(policy({ lineId: lineId[ALEX_PREPAID] }), SAM)).statusCode).toBe(400);
    expect((await backend.send("POST", "/api/v1/travel-insurance", { body: policy() })).statusCode).toBe(401);
    // Another operator's subscriber naming ATT's line: no such line for them (and ATT's header is refused).
    const tmo = await buy(policy(), TAYLOR, {}, "TMO");
    expect(tmo.statusCode, tmo.body).toBe(400);
    expect(tmo.json<Problem>().errors?.map((e) => e.path)).toEqual(["lineId"]);
    expect((await buy(policy(), TAYLOR)).statusCode).toBe(403);
    const mine = await backend.get("/api/v1/travel-insurance", { as: SAM });
    expect(mine.json<{ total: number }>().total).toBe(0);
    const taylors = await backend.get("/api/v1/travel-insurance", { as: TAYLOR, operator: "TMO" });
    expect(taylors.json<{ total: number }>().total).toBe(0);
  });

  it("lists filter and sort on the computed last day in SQL", async () => {
    const res = await backend.get(`/api/v1/travel-insurance?filter[endsOn][gte]=${dayFrom(10)}&sort=-endsOn`, {
      as: ALEX,
    });
    expect(res.statusCode, res.body).toBe(200);
    const ends = res.json<{ data: Policy[] }>().data.map((p) => p.endsOn);
    expect(ends.length).toBeGreaterThan(0);
    expect(ends.every((day) => day >= dayFrom(10))).toBe(true);
    expect([...ends].sort().reverse()).toEqual(ends);
  });
});

describe("cancelling", () => {
  it("before the start: the subscriber's own, with a quote first and the full price back", async () => {
    const bought = (await buy(policy({ zone: "europe", days: 4 }))).json<Policy>();
    const before = (await balanceOf(ALEX_PREPAID))!;
    const preview = await backend.send("POST", `/api/v1/travel-insurance/${bought.id}/actions/cancel/preview`, {
      as: ALEX,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ total: usd(-bought.price.amount) });
    expect(await balanceOf(ALEX_PREPAID)).toBe(before);
    expect((await cancel(bought.id, SAM)).statusCode).toBe(404);
    const res = await cancel(bought.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Policy>().status).toBe("cancelled");
    expect(await balanceOf(ALEX_PREPAID)).toBe(before + bought.price.amount);
    const again = await cancel(bought.id);
    expect(again.statusCode).toBe(409);
    expect(again.json<Problem>().errors?.map((e) => e.path)).toEqual(["status"]);
    expect(await balanceOf(ALEX_PREPAID)).toBe(before + bought.price.amount);
  });

  it("from the start on: refused to the subscriber (409 at startsOn); staff cancel with a reason and refund the days not begun", async () => {
    const bought = (await buy(policy({ startsOn: today(), days: 5, zone: "americas" }))).json<Policy>();
    const mine = await cancel(bought.id);
    expect(mine.statusCode, mine.body).toBe(409);
    expect(mine.json<Problem>().errors).toEqual([
      { path: "startsOn", message: "It can be cancelled only before the day it starts; call care after that." },
    ]);
    const before = (await balanceOf(ALEX_PREPAID))!;
    expect((await cancel(bought.id, AGENT)).statusCode).toBe(400);
    const byAgent = await cancel(bought.id, AGENT, { reason: "Trip called off, customer asked by phone" });
    expect(byAgent.statusCode, byAgent.body).toBe(200);
    // 5 days from today: today has begun, 4 have not: 4/5 of the price.
    expect(await balanceOf(ALEX_PREPAID)).toBe(before + Math.round((bought.price.amount * 4) / 5));
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, bought.id), eq(auditEvents.action, "travel-insurance.cancel")));
    expect(audit[0]).toMatchObject({ actorRole: "agent", reason: "Trip called off, customer asked by phone" });
  });

  it("answers malformed ids and bodies with 400", async () => {
    expect((await cancel("not-a-uuid")).statusCode).toBe(400);
    const bought = (await buy(policy())).json<Policy>();
    expect((await cancel(bought.id, ALEX, { status: "cancelled" })).statusCode).toBe(400);
  });
});

describe("expiry", () => {
  it("ends active policies after their last day, as the system, once, telling the holder", async () => {
    const bought = (await buy(policy({ startsOn: today(), days: 1 }))).json<Policy>();
    const cancelled = (await buy(policy({ days: 1 }))).json<Policy>();
    await cancel(cancelled.id);
    expect(domainJobs({} as never).find((job) => job.name === "declared-schedules")?.cron).toBe("7 * * * *");
    // Run as if it were two days later.
    const first = await runDeclaredSchedules(backend.database.db, undefined, undefined, dayFrom(2));
    expect(first.changed).toBeGreaterThan(0);
    const read = async (id: string) =>
      (await backend.get(`/api/v1/travel-insurance/${id}`, { as: ALEX })).json<Policy>();
    expect((await read(bought.id)).status).toBe("expired");
    expect((await read(cancelled.id)).status).toBe("cancelled");
    expect(await runDeclaredSchedules(backend.database.db, undefined, undefined, dayFrom(2))).toEqual({ changed: 0 });
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, bought.id), eq(auditEvents.action, "travel-insurance.expire")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorRole: "system", actorUid: null });
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "resource.notice")));
    expect(
      notices.some((n) => (n.params as Record<string, unknown>).message === "resources.travel-insurance.expired"),
    ).toBe(true);
  });
});
