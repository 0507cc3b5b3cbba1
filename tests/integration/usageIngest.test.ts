import http from "node:http";
import { randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  lines,
  notificationPreferences,
  notifications,
  outboxMessages,
  usageCounters,
  usageRecords,
} from "../../server/db/schema";
import { parseServiceKeys } from "../../server/auth/serviceKeys";
import { rowsOf } from "../../server/db/rowsOf";
import { readAccountMoney } from "../../server/domain/money/accountMoney";
import { cycleStartOf } from "../../server/domain/usage/cycles";
import type { Meter, UsageBatchResult } from "../../src/resources/usage";
import type { Home } from "../../src/resources/usage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { expectProblem, type Problem } from "../support/problems";
import { AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";

// Usage from the network (issue 10): the ingest service path, the counters it keeps, the meters and
// home page built on them, live meter events and allowance alerts, on the real database (TEST_DB).
const BATCH = "/api/v1/usage-records/batch";
const ATT_KEY = "att-mediation-key";
const TMO_KEY = "tmo-mediation-key";
const ALEX_PREPAID = "+12025550101";
const SAM_LINE = "+12025550103";
const TMO_LINE = "+13105550199";

let backend: TestBackend;
const ids: Record<string, string> = {};

function ingest(
  records: unknown[],
  options: { key?: string | null; operator?: string; authorization?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-operator": options.operator ?? "ATT",
  };
  const authorization =
    options.authorization ?? (options.key === null ? undefined : `ApiKey ${options.key ?? ATT_KEY}`);
  if (authorization) headers.authorization = authorization;
  return backend.app.inject({ method: "POST", url: BATCH, headers, payload: { records } });
}

async function ingestOk(
  records: unknown[],
  options: { key?: string; operator?: string } = {},
): Promise<UsageBatchResult> {
  const res = await ingest(records, options);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UsageBatchResult>();
}

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const record = (
  msisdn: string,
  type: "data" | "voice" | "sms",
  quantity: number,
  extra: Record<string, unknown> = {},
) => ({
  id: `test-${randomUUID()}`,
  msisdn,
  type,
  startedAt: minutesAgo(5),
  quantity,
  ...extra,
});

async function meters(lineId: string, as = ALEX): Promise<Record<string, Meter>> {
  const res = await backend.get(`/api/v1/lines/${lineId}/meters`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(res.json<Meter[]>().map((m) => [m.type, m]));
}

async function countersOf(lineId: string) {
  return backend.database.db.select().from(usageCounters).where(eq(usageCounters.lineId, lineId));
}

beforeAll(async () => {
  backend = await startTestBackend({ ingestApiKeys: parseServiceKeys(`${ATT_KEY},TMO:${TMO_KEY}`, "ATT") });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const msisdn of [ALEX_PREPAID, SAM_LINE, TMO_LINE, "+12025550102"]) {
    const [row] = await backend.database.db.select({ id: lines.id }).from(lines).where(eq(lines.msisdn, msisdn));
    ids[msisdn] = row!.id;
  }
});

afterAll(async () => {
  await backend?.close();
});

describe("POST /usage-records/batch: who may send", () => {
  it("401 without a key and with a key the backend does not know; 403 for a person's token and for another operator's key; nothing counted", async () => {
    const batch = [record(ALEX_PREPAID, "data", 10)];
    const noKey = await ingest(batch, { key: null });
    expect(noKey.statusCode, noKey.body).toBe(401);
    expect(noKey.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect((await ingest(batch, { key: "not-a-configured-key" })).statusCode).toBe(401);
    expect((await ingest(batch, { authorization: "ApiKey" })).statusCode).toBe(401);

    const person = await ingest(batch, { authorization: `Bearer ${await backend.tokenFor(ALEX)}` });
    expect(person.statusCode, person.body).toBe(403);
    const staff = await ingest(batch, { authorization: `Bearer ${await backend.tokenFor(AGENT)}` });
    expect(staff.statusCode, staff.body).toBe(403);

    const otherOperatorsKey = await ingest(batch, { key: TMO_KEY, operator: "ATT" });
    expect(otherOperatorsKey.statusCode, otherOperatorsKey.body).toBe(403);
    const missingOperator = await backend.app.inject({
      method: "POST",
      url: BATCH,
      headers: { authorization: `ApiKey ${ATT_KEY}` },
      payload: { records: batch },
    });
    expect(missingOperator.statusCode).toBe(400);

    expect(await countersOf(ids[ALEX_PREPAID]!)).toEqual([]);
  });
});

describe("POST /usage-records/batch: counting", () => {
  it("counts records into the line's cycle counters; the meters show them with the newest record's time", async () => {
    const newest = minutesAgo(1);
    const batch = [
      record(ALEX_PREPAID, "data", 100),
      record(ALEX_PREPAID, "data", 50, { startedAt: newest }),
      record(ALEX_PREPAID, "voice", 61),
      record(ALEX_PREPAID, "voice", 30),
      record(ALEX_PREPAID, "sms", 2, { roamingZone: "europe" }),
    ];
    expect(await ingestOk(batch)).toEqual({ received: 5, counted: 5, duplicates: 0, unknownLines: [] });

    const m = await meters(ids[ALEX_PREPAID]!);
    expect(m.data).toMatchObject({ used: 150, allowance: 15 * 1024, unit: "MB", asOf: newest });
    expect(m.voice).toMatchObject({ used: 2, allowance: null, unit: "minutes" }); // 91 s: two started minutes
    expect(m.sms).toMatchObject({ used: 2, allowance: null, unit: "messages" });
    expect(Date.parse(`${m.data!.cycleEnd}T00:00:00Z`)).toBeGreaterThan(Date.now());
    expect(m.data!.cycleEnd.slice(8)).toBe("05"); // alex's prepaid line's cycle day
  });

  it("a replayed batch counts nothing twice, and a batch repeating an id counts it once", async () => {
    const batch = [record(ALEX_PREPAID, "data", 7), record(ALEX_PREPAID, "sms", 1)];
    const before = await meters(ids[ALEX_PREPAID]!);
    expect(await ingestOk(batch)).toMatchObject({ counted: 2, duplicates: 0 });
    expect(await ingestOk(batch)).toMatchObject({ counted: 0, duplicates: 2 });
    const twiceInOne = record(ALEX_PREPAID, "data", 3);
    expect(await ingestOk([twiceInOne, twiceInOne])).toMatchObject({ received: 2, counted: 1, duplicates: 1 });
    const after = await meters(ids[ALEX_PREPAID]!);
    expect(after.data!.used - before.data!.used).toBe(10);
    expect(after.sms!.used - before.sms!.used).toBe(1);
  });

  it("a batch mixing seen and new records counts the new ones only", async () => {
    const seen = [record(ALEX_PREPAID, "sms", 1), record(ALEX_PREPAID, "sms", 1)];
    expect(await ingestOk(seen)).toMatchObject({ counted: 2, duplicates: 0 });
    const before = await meters(ids[ALEX_PREPAID]!);
    const mixed = [record(ALEX_PREPAID, "sms", 1), seen[1]!, record(ALEX_PREPAID, "sms", 1), seen[0]!];
    expect(await ingestOk(mixed)).toMatchObject({ received: 4, counted: 2, duplicates: 2 });
    expect((await meters(ids[ALEX_PREPAID]!)).sms!.used - before.sms!.used).toBe(2);
  });

  it("the same batch sent four times at once, and batches sharing records sent at once, count every record once", async () => {
    const before = await meters(ids[ALEX_PREPAID]!);
    const batch = Array.from({ length: 50 }, () => record(ALEX_PREPAID, "sms", 1));
    const shared = Array.from({ length: 20 }, () => record(ALEX_PREPAID, "sms", 1));
    const left = [...shared, ...Array.from({ length: 30 }, () => record(ALEX_PREPAID, "sms", 1))];
    const right = [...Array.from({ length: 30 }, () => record(ALEX_PREPAID, "sms", 1)), ...shared.toReversed()];
    const results = await Promise.all([batch, batch, left, batch, right, batch].map((records) => ingestOk(records)));
    const counted = results.reduce((total, r) => total + r.counted, 0);
    expect(counted).toBe(50 + 20 + 30 + 30);
    expect(results.reduce((total, r) => total + r.duplicates, 0)).toBe(6 * 50 - counted);
    expect((await meters(ids[ALEX_PREPAID]!)).sms!.used - before.sms!.used).toBe(counted);
    const stored = await backend.database.db
      .select({ id: usageRecords.id })
      .from(usageRecords)
      .where(
        inArray(
          usageRecords.id,
          [...batch, ...left, ...right].map((r) => r.id),
        ),
      );
    expect(stored).toHaveLength(counted);
  });

  it("batches sharing hundreds of records in opposite orders, sent at once, all succeed and count each record once", async () => {
    // Without inserting in key order, two of these batches lock the shared ids in opposite orders and
    // PostgreSQL kills one as a deadlock (a 500): it did in each of 10 rounds before the fix.
    const before = await meters(ids[ALEX_PREPAID]!);
    let counted = 0;
    for (let round = 0; round < 3; round++) {
      const shared = Array.from({ length: 400 }, () => record(ALEX_PREPAID, "sms", 1));
      const batches = [shared, shared.toReversed(), shared.slice(200), shared.slice(0, 200).toReversed()];
      const results = await Promise.all(batches.map((records) => ingestOk(records)));
      expect(results.reduce((total, r) => total + r.counted, 0)).toBe(shared.length);
      counted += shared.length;
    }
    expect((await meters(ids[ALEX_PREPAID]!)).sms!.used - before.sms!.used).toBe(counted);
  });

  it("a batch whose transaction PostgreSQL aborts as a deadlock answers 503 with Retry-After, counts nothing, and goes through when sent again", async () => {
    // The deadlock is raised by this test's trigger (SQLSTATE 40P01, as PostgreSQL raises it) on one record id.
    const db = backend.database.db;
    const victim = record(ALEX_PREPAID, "sms", 1);
    await db.execute(
      sql.raw(
        `create or replace function test_deadlock() returns trigger language plpgsql as $$ begin raise exception 'injected deadlock' using errcode = '40P01'; end $$`,
      ),
    );
    await db.execute(
      sql.raw(
        `create trigger test_deadlock before insert on usage_records for each row when (new.id = '${victim.id}') execute function test_deadlock()`,
      ),
    );
    const before = await meters(ids[ALEX_PREPAID]!);
    const batch = [record(ALEX_PREPAID, "sms", 1), victim];
    try {
      const res = await ingest(batch);
      expect(expectProblem(res, 503).detail).toMatch(/concurrent request/);
      expect(res.headers["retry-after"]).toBe("1");
      expect((await meters(ids[ALEX_PREPAID]!)).sms!.used).toBe(before.sms!.used);
    } finally {
      await db.execute(sql.raw(`drop trigger if exists test_deadlock on usage_records`));
    }
    expect(await ingestOk(batch)).toMatchObject({ counted: 2 });
  });

  it("a record of an earlier cycle counts in that cycle, not in the current meter", async () => {
    const before = await meters(ids[ALEX_PREPAID]!);
    const lastCycle = new Date(Date.parse(`${before.data!.cycleStart}T00:00:00Z`) - 86_400_000).toISOString();
    await ingestOk([record(ALEX_PREPAID, "data", 500, { startedAt: lastCycle })]);
    expect((await meters(ids[ALEX_PREPAID]!)).data!.used).toBe(before.data!.used);
    const counters = await countersOf(ids[ALEX_PREPAID]!);
    expect(counters.find((c) => c.type === "data" && c.cycleStart < before.data!.cycleStart)?.used).toBe(500);
  });

  it("each record is stored in the cycle cycleStartOf gives for its line, whatever the offset its time was sent in", async () => {
    // Ingest works out cycles in SQL (cycleStartSql); the meters and alerts use cycleStartOf: they must agree.
    const [line] = await backend.database.db
      .select({ cycleDay: lines.cycleDay })
      .from(lines)
      .where(eq(lines.id, ids[ALEX_PREPAID]!));
    const startTimes = [
      "2025-12-31T23:59:59.999Z",
      "2026-01-01T00:00:00.000Z",
      "2026-01-04T23:59:59.999Z",
      "2026-01-05T00:00:00.000Z",
      "2026-03-01T00:30:00.000Z",
      "2028-02-29T12:00:00.000Z",
      "2026-02-05T01:00:00+02:00",
      "2026-02-04T22:00:00.123456-03:00",
    ];
    const sent = startTimes.map((startedAt) => record(ALEX_PREPAID, "sms", 1, { startedAt }));
    expect(await ingestOk(sent)).toMatchObject({ counted: sent.length });
    const stored = await backend.database.db
      .select({ id: usageRecords.id, startedAt: usageRecords.startedAt, cycleStart: usageRecords.cycleStart })
      .from(usageRecords)
      .where(
        inArray(
          usageRecords.id,
          sent.map((r) => r.id),
        ),
      );
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const r of sent) {
      const at = new Date(r.startedAt);
      expect(byId.get(r.id), r.startedAt).toEqual({
        id: r.id,
        startedAt: at,
        cycleStart: cycleStartOf(at, line!.cycleDay),
      });
    }
  });

  it("a malformed record refuses the batch with 400 naming the record's index and field, and counts nothing", async () => {
    const before = await meters(ids[ALEX_PREPAID]!);
    const cases: [Record<string, unknown>, string][] = [
      [{ quantity: -1 }, "records.1.quantity"],
      [{ quantity: 1.5 }, "records.1.quantity"],
      [{ type: "fax" }, "records.1.type"],
      [{ startedAt: "yesterday" }, "records.1.startedAt"],
      [{ msisdn: "555" }, "records.1.msisdn"],
      [{ roamingZone: "moon" }, "records.1.roamingZone"],
      [{ id: "" }, "records.1.id"],
      [{ colour: "blue" }, "records.1"],
      [{ type: "sms", quantity: 5000 }, "records.1.quantity"],
    ];
    for (const [change, path] of cases) {
      const res = await ingest([record(ALEX_PREPAID, "data", 1), { ...record(ALEX_PREPAID, "data", 1), ...change }]);
      expect(res.statusCode, res.body).toBe(400);
      const problem = res.json<Problem>();
      expect(
        problem.errors?.map((e) => e.path),
        `${JSON.stringify(change)}: ${res.body}`,
      ).toContain(path);
    }
    const empty = await ingest([]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<Problem>().errors?.map((e) => e.path)).toContain("records");
    const tooMany = await ingest(Array.from({ length: 10_001 }, () => record(ALEX_PREPAID, "sms", 1)));
    expect(tooMany.statusCode).toBe(400);
    expect((await meters(ids[ALEX_PREPAID]!)).data!.used).toBe(before.data!.used);
  });

  it("another operator's number is reported and not stored; that operator's own key counts it for them", async () => {
    const result = await ingestOk([
      record(ALEX_PREPAID, "sms", 1),
      record(TMO_LINE, "data", 999),
      record("+12025550199", "sms", 1),
    ]);
    expect(result).toEqual({
      received: 3,
      counted: 1,
      duplicates: 0,
      unknownLines: [
        { index: 1, msisdn: TMO_LINE },
        { index: 2, msisdn: "+12025550199" },
      ],
    });
    expect(await countersOf(ids[TMO_LINE]!)).toEqual([]);
    const stored = await backend.database.db.select().from(usageRecords).where(eq(usageRecords.lineId, ids[TMO_LINE]!));
    expect(stored).toEqual([]);

    expect(await ingestOk([record(TMO_LINE, "data", 42)], { key: TMO_KEY, operator: "TMO" })).toMatchObject({
      counted: 1,
    });
    const theirs = await backend.get(`/api/v1/lines/${ids[TMO_LINE]}/meters`, { as: TAYLOR, operator: "TMO" });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json<Meter[]>().find((m) => m.type === "data")?.used).toBe(42);
  });

  it("a number given again after its quarantine counts on its live line, not on the newer cancelled one", async () => {
    const reused = "+12025550177";
    // The live line is the older row: the lookup must prefer live over newest.
    const live = randomUUID();
    const cancelled = randomUUID();
    // On an account of their own: the demo subscribers' pages stay as the other tests expect them.
    await backend.database.db.execute(sql`
      with account as (
        insert into accounts (operator_code, name, type) values ('ATT', 'Reused number', 'prepaid') returning id
      )
      insert into lines (id, operator_code, account_id, msisdn, sim_type, plan_id, status, cycle_day, created_at)
      select v.id, l.operator_code, account.id, ${reused}, 'esim', l.plan_id, v.status, l.cycle_day, v.created_at
      from lines l, account, (values (${live}::uuid, 'active', now() - interval '1 day'), (${cancelled}::uuid, 'terminated', now())) as v(id, status, created_at)
      where l.id = ${ids[ALEX_PREPAID]!}`);
    expect(await ingestOk([record(reused, "data", 9)])).toMatchObject({ counted: 1, unknownLines: [] });
    expect((await countersOf(live)).map((c) => [c.type, Number(c.used)])).toEqual([["data", 9]]);
    expect(await countersOf(cancelled)).toEqual([]);
  });
});

describe("GET /lines/{id}/meters and GET /home", () => {
  it("401 without a token; 404 for another subscriber's line and for another operator's; staff see any line of theirs", async () => {
    expect((await backend.get(`/api/v1/lines/${ids[ALEX_PREPAID]}/meters`)).statusCode).toBe(401);
    expect((await backend.get(`/api/v1/lines/${ids[ALEX_PREPAID]}/meters`, { as: SAM })).statusCode).toBe(404);
    expect(
      (await backend.get(`/api/v1/lines/${ids[ALEX_PREPAID]}/meters`, { as: TAYLOR, operator: "TMO" })).statusCode,
    ).toBe(404);
    expect((await backend.get(`/api/v1/lines/${ids[ALEX_PREPAID]}/meters`, { as: TAYLOR })).statusCode).toBe(403);
    expect((await backend.get(`/api/v1/lines/not-a-uuid/meters`, { as: ALEX })).statusCode).toBe(400);
    const agent = await meters(ids[ALEX_PREPAID]!, AGENT);
    expect(agent.data!.used).toBeGreaterThan(0);
  });

  it("the home page gives alex both lines with plan, days left and meters in one answer; staff and strangers are refused", async () => {
    const res = await backend.get("/api/v1/home", { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    const home = res.json<Home>();
    expect(home.lines.map((l) => l.msisdn)).toEqual([ALEX_PREPAID, "+12025550102"]);
    const prepaid = home.lines[0]!;
    expect(prepaid.plan).toMatchObject({ name: "Prepaid 15 GB", price: { amount: 3500, currency: "USD" } });
    expect(prepaid.meters.map((m) => m.type)).toEqual(["data", "voice", "sms"]);
    expect(prepaid.meters[0]).toEqual((await meters(ids[ALEX_PREPAID]!)).data);
    expect(prepaid.daysLeft).toBeGreaterThanOrEqual(0);
    expect(prepaid.daysLeft).toBeLessThanOrEqual(31);
    expect(home.lines[1]!.meters[0]).toMatchObject({ used: 0, allowance: 50 * 1024, asOf: null });
    // Beside the lines, each account's money as the ledger has it (prepaid balance, postpaid amount due).
    const money = await readAccountMoney(
      backend.database.db,
      home.accounts.map((a) => a.id),
    );
    expect(home.accounts).toEqual([
      { id: prepaid.accountId, type: "prepaid", balance: money.get(prepaid.accountId)!.balance },
      {
        id: home.lines[1]!.accountId,
        type: "postpaid",
        amountDue: money.get(home.lines[1]!.accountId)!.amountDue,
        overdueBill: money.get(home.lines[1]!.accountId)!.overdueBill,
      },
    ]);
    // The seed's open bill is overdue: the home names it (its Pay now), with its total and due date.
    expect(home.accounts[1]!.overdueBill).toMatchObject({ total: home.accounts[1]!.amountDue });
    expect(home.accounts[0]!.balance!.currency).toBe("USD");

    expect((await backend.get("/api/v1/home")).statusCode).toBe(401);
    expect((await backend.get("/api/v1/home", { as: AGENT })).statusCode).toBe(403);
    const samHome = (await backend.get("/api/v1/home", { as: SAM })).json<Home>();
    expect(samHome.lines.map((l) => l.msisdn)).toEqual([SAM_LINE]);
  });
});

/** Opens GET /live as a user and resolves with the next event naming `resource`. */
async function nextLiveEvent(
  base: string,
  token: string,
  resource: string,
): Promise<{ close(): void; event: Promise<{ resource: string; ids: string[] }> }> {
  const url = `${base}/api/v1/live?resources=${resource}&operator=ATT&token=${encodeURIComponent(token)}`;
  const response = await new Promise<http.IncomingMessage & { req?: http.ClientRequest }>((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => resolve(Object.assign(res, { req })));
    req.on("error", reject);
  });
  expect(response.statusCode).toBe(200);
  response.setEncoding("utf8");
  let received = "";
  const event = new Promise<{ resource: string; ids: string[] }>((resolve) => {
    response.on("data", (chunk: string) => {
      received += chunk;
      const data = received.split("\n").find((line) => line.startsWith("data: "));
      if (data) resolve(JSON.parse(data.slice(6)) as { resource: string; ids: string[] });
    });
  });
  response.on("error", () => {});
  return { close: () => response.req?.destroy(), event };
}

describe("live meters and allowance alerts", () => {
  it("an ingest tells the line's holder at once that the meters of that line moved", async () => {
    await backend.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(backend.app.server.address() as { port: number }).port}`;
    const alexLive = await nextLiveEvent(base, await backend.tokenFor(ALEX), "meters");
    try {
      await ingestOk([record(ALEX_PREPAID, "data", 1)]);
      const event = await alexLive.event;
      expect(event).toMatchObject({ resource: "meters", ids: [ids[ALEX_PREPAID]] });
    } finally {
      alexLive.close();
    }
  });

  it("80 % and 100 % of an allowance each notify the holder once per cycle, in the inbox and by the channels they chose", async () => {
    const db = backend.database.db;
    await db.insert(notificationPreferences).values({
      operatorCode: "ATT",
      uid: "demo-sam",
      usageAlertsByEmail: true,
      usageAlertsBySms: false,
      usageLimitByEmail: true,
    });
    const samLine = ids[SAM_LINE]!;
    const usageNotices = () =>
      db
        .select()
        .from(notifications)
        .where(and(eq(notifications.recipientUid, "demo-sam"), eq(notifications.kind, "usage.threshold")));

    // Sam's plan has 5 GB: 4,000 MB is 78 %, nothing yet; 100 MB more is 80 %.
    await ingestOk([record(SAM_LINE, "data", 4000)]);
    expect(await usageNotices()).toEqual([]);
    await ingestOk([record(SAM_LINE, "data", 100)]);
    let notices = await usageNotices();
    expect(notices.map((n) => n.params)).toEqual([{ msisdn: SAM_LINE, usageType: "data", threshold: 80 }]);
    expect(notices[0]!.link).toBe(`/lines/show/${samLine}`);

    // More usage below 100 % notifies nobody again.
    await ingestOk([record(SAM_LINE, "data", 500)]);
    expect(await usageNotices()).toHaveLength(1);
    await ingestOk([record(SAM_LINE, "data", 600)]);
    notices = await usageNotices();
    expect(notices.map((n) => n.params.threshold).sort()).toEqual([100, 80]);
    await ingestOk([record(SAM_LINE, "data", 600)]);
    expect(await usageNotices()).toHaveLength(2);

    const inbox = await backend.get("/api/v1/notifications", { as: SAM });
    expect(inbox.json<{ data: { kind: string }[] }>().data.filter((n) => n.kind === "usage.threshold")).toHaveLength(2);
    const outbox = await db.select().from(outboxMessages).where(eq(outboxMessages.recipient, "sam@example.com"));
    expect(
      outbox.filter((m) => m.kind === "usage.threshold").map((m) => [m.channel, m.kind, m.params.threshold]),
    ).toEqual([
      ["email", "usage.threshold", 80],
      ["email", "usage.threshold", 100],
    ]);
    // Sam's plan stops data at the allowance (issue 24): reaching it also says so once, by the limit's channel.
    expect(
      outbox.filter((m) => m.kind === "usage.capped").map((m) => [m.channel, m.params.usageType, m.params.capReason]),
    ).toEqual([["email", "data", "plan"]]);
    expect(await db.select().from(outboxMessages).where(eq(outboxMessages.recipient, SAM_LINE))).toEqual([]);
  });

  it("crossing both thresholds in one batch sends one notice, for 100 %", async () => {
    const db = backend.database.db;
    const postpaid = "+12025550102"; // alex's 50 GB postpaid line
    await ingestOk([record(postpaid, "data", 51_200)]);
    const notices = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "usage.threshold")));
    expect(notices.map((n) => n.params)).toEqual([{ msisdn: postpaid, usageType: "data", threshold: 100 }]);
  });

  it("a batch offers only the thresholds it crosses, and all of them again once the allowance moved under a used meter", async () => {
    const db = backend.database.db;
    const number = "+12025550188";
    const [line] = rowsOf<{ id: string }>(
      await db.execute(sql`
        with account as (
          insert into accounts (operator_code, name, type) values ('ATT', 'Allowance moved', 'postpaid') returning id
        )
        insert into lines (operator_code, account_id, msisdn, sim_type, plan_id, status, cycle_day)
        select l.operator_code, account.id, ${number}, 'esim', l.plan_id, 'active', l.cycle_day
        from lines l, account where l.id = ${ids["+12025550102"]!} returning id`),
    );
    const alerts = async () =>
      rowsOf<{ threshold: number }>(
        await db.execute(
          sql`select threshold from usage_alerts where line_id = ${line!.id} and type = 'data' order by threshold`,
        ),
      ).map((r) => Number(r.threshold));

    // 10,000 MB of the 50 GB plan: under 80 %.
    await ingestOk([record(number, "data", 10_000)]);
    await ingestOk([record(number, "data", 1)]);
    expect(await alerts()).toEqual([]);
    // The line moves to Sam's 5 GB plan: its meter is now past both thresholds, which no batch crossed.
    await db.execute(
      sql`update lines set plan_id = (select plan_id from lines where id = ${ids[SAM_LINE]!}) where id = ${line!.id}`,
    );
    await ingestOk([record(number, "data", 1)]);
    expect(await alerts()).toEqual([80, 100]);
  });
});
