import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accounts,
  addOns,
  auditEvents,
  ledgerEntries,
  lines,
  notifications,
  outboxMessages,
  notificationPreferences,
  plans,
  usageRecords,
} from "../../server/db/schema";
import { parseServiceKeys } from "../../server/auth/serviceKeys";
import { postLedgerEntry } from "../../server/domain/money/ledger";
import type { Meter, UsageBatchResult } from "../../src/resources/usage";
import type { Plan } from "../../src/resources/plans";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { listenOn, openLiveStream } from "../support/liveStream";
import type { Problem } from "../support/problems";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";

// Rating (issue 24): usage past the allowance rated in the ingest's transaction, prepaid from the
// balance (capped when it cannot pay), postpaid as unbilled charges; meters' capped and charged;
// set-overage; the plans' overage rates. On the real database (TEST_DB: PGlite or PostgreSQL).
const BATCH = "/api/v1/usage-records/batch";
const KEY = "att-rating-key";
const ALEX_PREPAID = "+12025550101"; // PRE_15GB: data capped at 15 GB (no rate), talk & text unlimited
const ALEX_POSTPAID = "+12025550102"; // POST_50GB: $0.01/MB past 50 GB, Europe $0.05/MB
const SAM_LINE = "+12025550103"; // PRE_5GB: 500 minutes, then $0.10 a minute from the balance (which is $0)

let backend: TestBackend;
const lineId: Record<string, string> = {};
const accountId: Record<string, string> = {};

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const record = (
  msisdn: string,
  type: "data" | "voice" | "sms",
  quantity: number,
  extra: Record<string, unknown> = {},
) => ({
  id: `rate-${randomUUID()}`,
  msisdn,
  type,
  startedAt: minutesAgo(5),
  quantity,
  ...extra,
});

async function ingest(records: unknown[]): Promise<UsageBatchResult> {
  const res = await backend.app.inject({
    method: "POST",
    url: BATCH,
    headers: { "content-type": "application/json", "x-operator": "ATT", authorization: `ApiKey ${KEY}` },
    payload: { records },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<UsageBatchResult>();
}

async function meters(msisdn: string, as = ALEX): Promise<Record<string, Meter>> {
  const res = await backend.get(`/api/v1/lines/${lineId[msisdn]}/meters`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries(res.json<Meter[]>().map((m) => [m.type, m]));
}

const entriesOf = (msisdn: string) =>
  backend.database.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountId, accountId[msisdn]!))
    .orderBy(ledgerEntries.createdAt);
/** Entries the seed wrote (alex's overdue bill carries a seeded overage charge): not this file's rating. */
const seeded = new Set<string>();
const usageEntriesOf = async (msisdn: string, kind: "usage" | "charge") =>
  (await entriesOf(msisdn)).filter(
    (e) => !seeded.has(e.id) && e.kind === kind && (kind === "usage" || e.referenceType === "overage"),
  );
const balanceOf = async (msisdn: string) =>
  (
    await backend.database.db
      .select({ b: accounts.balanceAmount })
      .from(accounts)
      .where(eq(accounts.id, accountId[msisdn]!))
  )[0]!.b;
const cappedNotices = (uid: string) =>
  backend.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.recipientUid, uid), eq(notifications.kind, "usage.capped")));

async function credit(msisdn: string, amount: number) {
  await backend.database.db.transaction((tx) =>
    postLedgerEntry(tx, {
      operatorCode: "ATT",
      accountId: accountId[msisdn]!,
      kind: "top_up",
      amount,
      currency: "USD",
      reason: "Voucher top-up",
      actorUid: null,
      actorRole: "system",
      idempotencyKey: `test-top-up:${randomUUID()}`,
    }),
  );
}

const setOverage = (msisdn: string, body: unknown, options: { as?: string; operator?: string } = { as: ALEX }) =>
  backend.send("POST", `/api/v1/lines/${lineId[msisdn]}/actions/set-overage`, {
    as: options.as,
    operator: options.operator,
    body,
  });

beforeAll(async () => {
  backend = await startTestBackend({ ingestApiKeys: parseServiceKeys(KEY, "ATT") });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const msisdn of [ALEX_PREPAID, ALEX_POSTPAID, SAM_LINE, "+13105550199"]) {
    const [row] = await backend.database.db
      .select({ id: lines.id, accountId: lines.accountId })
      .from(lines)
      .where(eq(lines.msisdn, msisdn));
    lineId[msisdn] = row!.id;
    accountId[msisdn] = row!.accountId;
    for (const entry of await entriesOf(msisdn)) seeded.add(entry.id);
  }
});

afterAll(async () => {
  await backend?.close();
});

describe("postpaid: usage past the allowance joins the cycle's unbilled charges", () => {
  it("a charge per line, type and zone with the agreed reference and reason; the meter shows what was charged; a replay rates nothing", async () => {
    const before = await meters(ALEX_POSTPAID);
    expect(before.data).toMatchObject({ allowance: 51_200, capped: false, charged: { amount: 0, currency: "USD" } });
    // 51,200 MB fill the allowance; 120 MB at home and 10 MB in Europe go past it (the later records).
    const batch = [
      record(ALEX_POSTPAID, "data", 51_200, { startedAt: minutesAgo(30) }),
      record(ALEX_POSTPAID, "data", 100, { startedAt: minutesAgo(20) }),
      record(ALEX_POSTPAID, "data", 10, { startedAt: minutesAgo(15), roamingZone: "europe" }),
      record(ALEX_POSTPAID, "data", 20, { startedAt: minutesAgo(10) }),
    ];
    expect(await ingest(batch)).toMatchObject({ counted: 4, duplicates: 0 });

    const charges = await usageEntriesOf(ALEX_POSTPAID, "charge");
    expect(charges.map((e) => [e.referenceId, e.amount, e.reason, e.balanceAfter]).sort()).toEqual(
      [
        [`${lineId[ALEX_POSTPAID]}:data:europe`, 50, "Data beyond the allowance in Europe, 10 MB (+12025550102)", null],
        [`${lineId[ALEX_POSTPAID]}:data:home`, 120, "Data beyond the allowance, 120 MB (+12025550102)", null],
      ].sort(),
    );
    expect(charges.every((e) => e.referenceType === "overage" && e.actorRole === "system")).toBe(true);
    const after = await meters(ALEX_POSTPAID);
    expect(after.data).toMatchObject({ used: 51_330, capped: false, charged: { amount: 170, currency: "USD" } });

    // The same batch again (mediation retrying): counted before, rated before.
    expect(await ingest(batch)).toMatchObject({ counted: 0, duplicates: 4 });
    expect(await usageEntriesOf(ALEX_POSTPAID, "charge")).toHaveLength(2);
    // The next batch: one more entry per zone it went past in.
    await ingest([record(ALEX_POSTPAID, "data", 7)]);
    const third = await usageEntriesOf(ALEX_POSTPAID, "charge");
    expect(third).toHaveLength(3);
    expect(third.at(-1)).toMatchObject({
      amount: 7,
      reason: "Data beyond the allowance, 7 MB (+12025550102)",
      referenceId: `${lineId[ALEX_POSTPAID]}:data:home`,
    });
    expect((await meters(ALEX_POSTPAID)).data!.charged!.amount).toBe(177);
  });

  it("a replay racing itself and half-new batches rate each record once", async () => {
    const first = record(ALEX_POSTPAID, "data", 3);
    const second = record(ALEX_POSTPAID, "data", 4);
    await ingest([first]);
    const before = (await usageEntriesOf(ALEX_POSTPAID, "charge")).length;
    // Half seen, half new: only the new record is rated.
    await ingest([first, second]);
    const after = await usageEntriesOf(ALEX_POSTPAID, "charge");
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.amount).toBe(4);
    const sameTwice = [record(ALEX_POSTPAID, "data", 5)];
    await Promise.all([ingest(sameTwice), ingest(sameTwice)]);
    const raced = await usageEntriesOf(ALEX_POSTPAID, "charge");
    expect(raced).toHaveLength(before + 2);
    expect((await meters(ALEX_POSTPAID)).data!.charged!.amount).toBe(177 + 3 + 4 + 5);
  });
});

describe("prepaid: rated from the balance at once, capped when it cannot pay", () => {
  it("rates what the balance covers in whole units, caps the rest, tells the holder once; never below zero", async () => {
    expect(await balanceOf(SAM_LINE)).toBe(0);
    await credit(SAM_LINE, 25);
    // 500 minutes fill the allowance; 5 more would cost $0.50: the $0.25 pays 2 whole minutes.
    await ingest([
      record(SAM_LINE, "voice", 28_800, { startedAt: minutesAgo(50) }),
      record(SAM_LINE, "voice", 1_200, { startedAt: minutesAgo(40) }),
      record(SAM_LINE, "voice", 300),
    ]);
    expect(await balanceOf(SAM_LINE)).toBe(5);
    const usage = await usageEntriesOf(SAM_LINE, "usage");
    expect(usage.map((e) => [e.amount, e.balanceAfter, e.reason])).toEqual([
      [20, 5, "Usage beyond the allowance (+12025550103): calls 2 min"],
    ]);
    const voice = (await meters(SAM_LINE, SAM)).voice!;
    expect(voice).toMatchObject({ used: 505, allowance: 500, capped: true, charged: { amount: 20, currency: "USD" } });

    const notices = await cappedNotices("demo-sam");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.params).toEqual({ msisdn: SAM_LINE, usageType: "voice", capReason: "balance" });
    // While capped: the record is kept, nothing is charged, nobody is told again.
    const kept = record(SAM_LINE, "voice", 120);
    expect(await ingest([kept])).toMatchObject({ counted: 1 });
    expect(await backend.database.db.select().from(usageRecords).where(eq(usageRecords.id, kept.id))).toHaveLength(1);
    expect(await usageEntriesOf(SAM_LINE, "usage")).toHaveLength(1);
    expect(await cappedNotices("demo-sam")).toHaveLength(1);
    expect(await balanceOf(SAM_LINE)).toBe(5);
  });

  it("the database refuses a usage entry the balance cannot cover", async () => {
    await expect(
      backend.database.db.execute(
        sql`insert into ledger_entries (operator_code, account_id, kind, amount, currency, reason, actor_role) values ('ATT', ${accountId[SAM_LINE]}, 'usage', 6, 'USD', 'too much', 'system')`,
      ),
    ).rejects.toThrow();
    expect(await balanceOf(SAM_LINE)).toBe(5);
  });

  it("a credit lifts the balance cap, live: the holder's meters hear it; usage is rated again", async () => {
    // The meter page's stream (src/components/usage/LineMeters.tsx follows `meters`), open before the credit.
    const stream = await openLiveStream(await listenOn(backend.app), "meters", { token: await backend.tokenFor(SAM) });
    try {
      expect(stream.status).toBe(200);
      await expect.poll(() => stream.text()).toMatch(/^retry: /);
      const adjusted = await backend.send("POST", `/api/v1/accounts/${accountId[SAM_LINE]}/actions/adjust`, {
        as: ADMIN,
        body: { amount: { amount: 500, currency: "USD" }, reason: "goodwill after an outage" },
      });
      expect(adjusted.statusCode, adjusted.body).toBe(200);
      // Sent after the commit: the meter read on hearing it is no longer capped.
      expect(await stream.next()).toMatchObject({ resource: "meters", type: "updated", ids: [lineId[SAM_LINE]] });
      expect((await meters(SAM_LINE, SAM)).voice!.capped).toBe(false);
    } finally {
      stream.close();
    }
    await ingest([record(SAM_LINE, "voice", 150)]);
    // 150 s = 3 started minutes at $0.10, one entry for the line's batch.
    const usage = await usageEntriesOf(SAM_LINE, "usage");
    expect(usage.map((e) => e.amount)).toEqual([20, 30]);
    expect(await balanceOf(SAM_LINE)).toBe(475);
    expect((await meters(SAM_LINE, SAM)).voice).toMatchObject({
      capped: false,
      charged: { amount: 50, currency: "USD" },
    });
    // A started minute is paid once: 20 s more fit in the 3rd minute's rest (150 s of 180), 40 s more start a new one.
    await ingest([record(SAM_LINE, "voice", 20)]);
    expect((await usageEntriesOf(SAM_LINE, "usage")).map((e) => e.amount)).toEqual([20, 30]);
    await ingest([record(SAM_LINE, "voice", 40)]);
    expect((await usageEntriesOf(SAM_LINE, "usage")).map((e) => e.amount)).toEqual([20, 30, 10]);
  });

  it("a plan without a data rate stops at the allowance (told once, by SMS too when chosen); a data pass lifts it and new usage counts", async () => {
    await backend.database.db
      .insert(notificationPreferences)
      .values({ operatorCode: "ATT", uid: "demo-alex", usageLimitBySms: true })
      .onConflictDoUpdate({
        target: [notificationPreferences.operatorCode, notificationPreferences.uid],
        set: { usageLimitBySms: true },
      });
    const balance = await balanceOf(ALEX_PREPAID);
    await ingest([
      record(ALEX_PREPAID, "data", 15_000, { startedAt: minutesAgo(30) }),
      record(ALEX_PREPAID, "data", 460),
    ]);
    const data = (await meters(ALEX_PREPAID)).data!;
    expect(data).toMatchObject({
      used: 15_460,
      allowance: 15_360,
      capped: true,
      charged: { amount: 0, currency: "USD" },
    });
    expect(await balanceOf(ALEX_PREPAID)).toBe(balance);
    expect(await usageEntriesOf(ALEX_PREPAID, "usage")).toEqual([]);
    const notices = await cappedNotices("demo-alex");
    expect(notices.map((n) => n.params)).toEqual([{ msisdn: ALEX_PREPAID, usageType: "data", capReason: "plan" }]);
    const sms = await backend.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.kind, "usage.capped"), eq(outboxMessages.recipient, ALEX_PREPAID)));
    expect(sms).toHaveLength(1);
    // A top-up does not lift a cap the plan makes.
    await credit(ALEX_PREPAID, 100);
    expect((await meters(ALEX_PREPAID)).data!.capped).toBe(true);

    const [pass] = await backend.database.db
      .select({ id: addOns.id })
      .from(addOns)
      .where(and(eq(addOns.operatorCode, "ATT"), eq(addOns.code, "DATA_1GB")));
    const bought = await backend.send("POST", `/api/v1/lines/${lineId[ALEX_PREPAID]}/actions/buy-add-on`, {
      as: ALEX,
      body: { addOnId: pass!.id },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const lifted = (await meters(ALEX_PREPAID)).data!;
    expect(lifted).toMatchObject({ allowance: 16_384, capped: false });
    await ingest([record(ALEX_PREPAID, "data", 300)]);
    expect((await meters(ALEX_PREPAID)).data).toMatchObject({ used: 15_760, capped: false });
    // The pass's MB run out too: capped again, told again (a new stop).
    await ingest([record(ALEX_PREPAID, "data", 1_000)]);
    expect((await meters(ALEX_PREPAID)).data!.capped).toBe(true);
    expect(await cappedNotices("demo-alex")).toHaveLength(2);
  });

  it("a plan change made now lifts the caps: the new plan's allowance and rates decide from the next record", async () => {
    expect((await meters(ALEX_PREPAID)).data!.capped).toBe(true);
    const unlimited = (
      await backend.database.db
        .select({ id: plans.id })
        .from(plans)
        .where(and(eq(plans.operatorCode, "ATT"), eq(plans.code, "PRE_UNL")))
    )[0]!.id;
    const changed = await backend.send("POST", `/api/v1/lines/${lineId[ALEX_PREPAID]}/actions/change-plan`, {
      as: ALEX,
      body: { planId: unlimited, effective: "now" },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await meters(ALEX_PREPAID)).data).toMatchObject({ allowance: null, capped: false });
    await ingest([record(ALEX_PREPAID, "data", 500)]);
    expect((await meters(ALEX_PREPAID)).data!.capped).toBe(false);
  });
});

describe("POST /lines/{id}/actions/set-overage", () => {
  it("401 without a token, 404 on another subscriber's line, 403/404 from another operator, 400 naming payAsYouGo, staff need a reason; nothing changes", async () => {
    const url = `/api/v1/lines/${lineId[ALEX_POSTPAID]}/actions/set-overage`;
    expect((await backend.send("POST", url, { body: { payAsYouGo: false } })).statusCode).toBe(401);
    expect((await setOverage(ALEX_POSTPAID, { payAsYouGo: false }, { as: SAM })).statusCode).toBe(404);
    expect((await setOverage(ALEX_POSTPAID, { payAsYouGo: false }, { as: TAYLOR })).statusCode).toBe(403);
    expect((await setOverage(ALEX_POSTPAID, { payAsYouGo: false }, { as: TAYLOR, operator: "TMO" })).statusCode).toBe(
      404,
    );
    for (const body of [{ payAsYouGo: "no" }, { payAsYouGo: 0 }, {}, { payAsYouGo: null }]) {
      const res = await setOverage(ALEX_POSTPAID, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.path)).toContain("payAsYouGo");
    }
    const noReason = await setOverage(ALEX_POSTPAID, { payAsYouGo: false }, { as: AGENT });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<Problem>().errors?.[0]?.path).toBe("reason");
    const [line] = await backend.database.db
      .select({ payAsYouGo: lines.payAsYouGo })
      .from(lines)
      .where(eq(lines.id, lineId[ALEX_POSTPAID]!));
    expect(line!.payAsYouGo).toBe(true);
  });

  it("off: usage stops at the allowance although the plan has a rate (nothing charged); on again: charged again; audited with the staff reason", async () => {
    const off = await setOverage(ALEX_POSTPAID, { payAsYouGo: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ payAsYouGo: false });
    // Already past the allowance this cycle: barred at once.
    expect((await meters(ALEX_POSTPAID)).data!.capped).toBe(true);
    const charges = (await usageEntriesOf(ALEX_POSTPAID, "charge")).length;
    await ingest([record(ALEX_POSTPAID, "data", 50)]);
    expect(await usageEntriesOf(ALEX_POSTPAID, "charge")).toHaveLength(charges);

    const on = await setOverage(
      ALEX_POSTPAID,
      { payAsYouGo: true, reason: "Customer asked on the phone" },
      { as: AGENT },
    );
    expect(on.statusCode, on.body).toBe(200);
    expect((await meters(ALEX_POSTPAID)).data!.capped).toBe(false);
    await ingest([record(ALEX_POSTPAID, "data", 11)]);
    const after = await usageEntriesOf(ALEX_POSTPAID, "charge");
    expect(after).toHaveLength(charges + 1);
    expect(after.at(-1)!.amount).toBe(11);
    const audits = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.set-overage"), eq(auditEvents.targetId, lineId[ALEX_POSTPAID]!)));
    expect(audits.map((a) => [a.actorRole, a.reason])).toEqual(
      expect.arrayContaining([
        ["subscriber", null],
        ["agent", "Customer asked on the phone"],
      ]),
    );
  });
});

describe("meters: capped and charged", () => {
  it("401 without a token, 404 for another subscriber and another operator", async () => {
    const url = `/api/v1/lines/${lineId[SAM_LINE]}/meters`;
    expect((await backend.get(url)).statusCode).toBe(401);
    expect((await backend.get(url, { as: ALEX })).statusCode).toBe(404);
    expect((await backend.get(url, { as: TAYLOR, operator: "TMO" })).statusCode).toBe(404);
    const ok = await backend.get(url, { as: AGENT });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Meter[]>().every((m) => typeof m.capped === "boolean" && Number.isInteger(m.charged!.amount))).toBe(
      true,
    );
  });
});

describe("plans: overage rates in the catalog", () => {
  const planId = async (code: string) =>
    (
      await backend.database.db
        .select({ id: plans.id })
        .from(plans)
        .where(and(eq(plans.operatorCode, "ATT"), eq(plans.code, code)))
    )[0]!.id;

  it("the seed's plans carry their rates; subscribers read them", async () => {
    const res = await backend.get(`/api/v1/plans/${await planId("POST_10GB")}`, { as: ALEX });
    expect(res.statusCode).toBe(200);
    const plan = res.json<Plan>();
    expect(plan.overage?.data).toEqual({ unitMb: 1, price: { amount: 1, currency: "USD" } });
    expect(plan.overage?.roaming?.europe?.data).toEqual({ unitMb: 1, price: { amount: 5, currency: "USD" } });
    expect(
      (await backend.get(`/api/v1/plans/${await planId("PRE_15GB")}`, { as: ALEX })).json<Plan>().overage?.data,
    ).toBeNull();
  });

  it("admins edit them, with zone rates; a negative rate, a unit of 0 or another currency is 400 at the field; others may not", async () => {
    const id = await planId("PRE_5GB");
    const url = `/api/v1/plans/${id}`;
    const good = {
      data: { unitMb: 1024, price: { amount: 1000, currency: "USD" } },
      voice: null,
      sms: { price: { amount: 5, currency: "USD" } },
      roaming: { europe: { data: null, voice: { price: { amount: 99, currency: "USD" } }, sms: null } },
    };
    for (const [overage, path] of [
      [{ ...good, data: { unitMb: 0, price: { amount: 1, currency: "USD" } } }, "overage.data.unitMb"],
      [{ ...good, sms: { price: { amount: -1, currency: "USD" } } }, "overage.sms.price.amount"],
      [
        { ...good, roaming: { europe: { voice: { price: { amount: -5, currency: "USD" } } } } },
        "overage.roaming.europe.voice.price.amount",
      ],
      [{ ...good, roaming: { mars: {} } }, "overage.roaming"],
      [{ ...good, voice: { price: { amount: 10, currency: "EUR" } } }, "overage.voice.price.currency"],
    ] as const) {
      const res = await backend.send("PATCH", url, { as: ADMIN, body: { overage } });
      expect(res.statusCode, res.body).toBe(400);
      expect(
        res
          .json<Problem>()
          .errors?.map((e) => e.path)
          .join(" "),
      ).toContain(path);
    }
    expect((await backend.send("PATCH", url, { body: { overage: good } })).statusCode).toBe(401);
    expect((await backend.send("PATCH", url, { as: ALEX, body: { overage: good } })).statusCode).toBe(403);
    expect(
      (await backend.send("PATCH", url, { as: TMO_ADMIN, operator: "TMO", body: { overage: good } })).statusCode,
    ).toBe(404);
    expect((await backend.get(url, { as: ADMIN })).json<Plan>().overage?.data).toBeNull();

    const res = await backend.send("PATCH", url, { as: ADMIN, body: { overage: good } });
    expect(res.statusCode, res.body).toBe(200);
    const plan = (await backend.get(url, { as: ADMIN })).json<Plan>();
    expect(plan.overage).toEqual({ ...good, roaming: { europe: good.roaming.europe } });
    const capped = await backend.send("PATCH", url, { as: ADMIN, body: { overage: null } });
    expect(capped.statusCode).toBe(200);
    expect((await backend.get(url, { as: ADMIN })).json<Plan>().overage).toBeNull();
  });
});
