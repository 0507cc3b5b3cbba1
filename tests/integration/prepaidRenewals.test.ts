import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accounts,
  addOnPurchases,
  addOns,
  auditEvents,
  invoices,
  ledgerEntries,
  lines,
  notifications,
  operators,
  usageCounters,
} from "../../server/db/schema";
import { startSandboxGateway, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import type { PaymentGateway } from "../../server/payments/gateway";
import { runBillingDay } from "../../server/domain/billingRuns/run";
import { metersOf } from "../../server/domain/usage/meters";
import { cycleStartOf, nextCycleStart } from "../../server/domain/usage/cycles";
import type { Account } from "../../src/resources/accounts";
import type { Line } from "../../src/resources/lines";
import type { Home } from "../../src/resources/usage";
import type { BillingRunResult } from "../../src/resources/billingRuns";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { freePort } from "../support/freePort";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { tokenizeCard } from "../support/sandboxCards";
import { expectProblem } from "../support/problems";
import { anyNumber } from "../support/matchers";

// Prepaid renewal and the billing run (issue 24 items 4 and 7), on PGlite and PostgreSQL: a prepaid
// line renews from its balance on its cycle day (`renewal` entry keyed per line and cycle, allowances
// of the new cycle, auto-renew add-ons after it, auto top-up first); a short balance puts it in grace
// for 7 days (only top-ups; the home says what is missing and until when); a covering top-up renews at
// once; grace ending unpaid suspends it (non_payment) until a covering top-up restores and renews it;
// a reminder 3 days before when the balance will not cover it. POST /billing-runs runs the day as an
// admin, answering only what it changed (zeros on a rerun). Days are relative to today: each line's
// next cycle day from now (a line's first cycle is paid by its activation).
const SECRET = "test-webhook-secret";
const API_KEY = "sk_sandbox_test";
const WEBHOOK_PATH = "/api/v1/payment-webhooks/sandbox";
const usd = (amount: number) => ({ amount, currency: "USD" });
const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The first cycle day after today of a line whose cycle starts on `cycleDay`. */
const nextCycleDay = (cycleDay: number) => nextCycleStart(cycleStartOf(new Date(), cycleDay));

let backend: TestBackend;
let sandbox: SandboxGateway;
let gateway: PaymentGateway;
let alex: Account;
let sam: Account;
let alexLine: Line;
let samLine: Line;
let taylorLine: Line;

const run = (asOf: unknown, as: string | null = ADMIN, options: { operator?: string; key?: string } = {}) =>
  backend.send("POST", "/api/v1/billing-runs", {
    as: as ?? undefined,
    operator: options.operator,
    body: { asOf },
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
async function runOk(asOf: string, as = ADMIN, operator?: string): Promise<BillingRunResult> {
  const res = await run(asOf, as, { operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<BillingRunResult>();
}
const ZEROS: BillingRunResult = { renewed: 0, enteredGrace: 0, suspended: 0, billsIssued: 0, overdue: 0 };

const lineRow = async (id: string) => (await backend.database.db.select().from(lines).where(eq(lines.id, id)))[0]!;
const balanceOf = async (accountId: string) =>
  (await backend.database.db.select({ b: accounts.balanceAmount }).from(accounts).where(eq(accounts.id, accountId)))[0]!
    .b;
const entriesOf = (accountId: string) =>
  backend.database.db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountId, accountId))
    .orderBy(asc(ledgerEntries.createdAt));
const noticesOf = (uid: string, kind: string) =>
  backend.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.recipientUid, uid), eq(notifications.kind, kind as never)));

/** What the database says a run of an operator changed: the counters must equal these differences. */
async function snapshot(operator = "ATT") {
  const db = backend.database.db;
  const n = async (query: Promise<{ n: number }[]>) => Number((await query)[0]!.n);
  return {
    renewed: await n(
      db
        .select({ n: count() })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.operatorCode, operator), eq(ledgerEntries.kind, "renewal"))),
    ),
    enteredGrace: await n(
      db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.operatorCode, operator), eq(auditEvents.action, "lines.grace"))),
    ),
    suspended: await n(
      db
        .select({ n: count() })
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.operatorCode, operator),
            eq(auditEvents.action, "lines.suspend"),
            sql`${auditEvents.reason} like 'prepaid renewal unpaid%'`,
          ),
        ),
    ),
    billsIssued: await n(db.select({ n: count() }).from(invoices).where(eq(invoices.operatorCode, operator))),
    overdueBills: await n(
      db
        .select({ n: count() })
        .from(invoices)
        .where(and(eq(invoices.operatorCode, operator), eq(invoices.status, "overdue"))),
    ),
  };
}
/** Runs the day and checks every counter against what the database shows changed. */
async function runAndCheck(asOf: string, as = ADMIN, operator?: string): Promise<BillingRunResult> {
  const before = await snapshot(operator ?? "ATT");
  const result = await runOk(asOf, as, operator);
  const after = await snapshot(operator ?? "ATT");
  expect(result).toEqual({
    renewed: after.renewed - before.renewed,
    enteredGrace: after.enteredGrace - before.enteredGrace,
    suspended: after.suspended - before.suspended,
    billsIssued: after.billsIssued - before.billsIssued,
    overdue: after.overdueBills - before.overdueBills,
  });
  return result;
}

/**
 * While a block of tests runs, the lines another block is about keep still: their paid cycle is set
 * far ahead (as if paid years in advance), so runs of other days neither renew nor remind them; it is
 * put back after the block. Without it the order of the days (which depends on today's date) would
 * decide which block saw which line first.
 */
function holdStill(ids: () => string[]) {
  let saved: { id: string; renewedCycleStart: string | null }[] = [];
  beforeAll(async () => {
    const db = backend.database.db;
    saved = await db
      .select({ id: lines.id, renewedCycleStart: lines.renewedCycleStart })
      .from(lines)
      .where(inArray(lines.id, ids()));
    await db.update(lines).set({ renewedCycleStart: "2099-01-01" }).where(inArray(lines.id, ids()));
  });
  afterAll(async () => {
    for (const line of saved)
      await backend.database.db
        .update(lines)
        .set({ renewedCycleStart: line.renewedCycleStart })
        .where(eq(lines.id, line.id));
  });
}

async function voucher(amount: number): Promise<string> {
  const res = await backend.send("POST", "/api/v1/voucher-batches", {
    as: ADMIN,
    body: { count: 1, value: usd(amount), expiresOn: addDays(new Date().toISOString().slice(0, 10), 365) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ codes: string[] }>().codes[0]!;
}
const redeem = (account: Account, code: string, as: string) =>
  backend.send("POST", `/api/v1/accounts/${account.id}/actions/redeem-voucher`, { as, body: { code } });

beforeAll(async () => {
  const port = await freePort();
  sandbox = await startSandboxGateway({
    port,
    apiKey: API_KEY,
    webhookSecret: SECRET,
    lateSuccessMs: null,
    webhook: async (body, headers) =>
      (await backend.app.inject({ method: "POST", url: WEBHOOK_PATH, headers, payload: body })).statusCode,
  });
  gateway = sandboxGateway({ url: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, chargeTimeoutMs: 3_000 });
  backend = await startTestBackend({ paymentGateways: { sandbox: gateway }, operatorSettingsTtlMs: 0 });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  alex = (await backend.get("/api/v1/accounts", { as: ALEX }))
    .json<{ data: Account[] }>()
    .data.find((a) => a.type === "prepaid")!;
  sam = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data[0]!;
  const linesOf = async (as: string, operator?: string) =>
    (await backend.get("/api/v1/lines", { as, operator })).json<{ data: Line[] }>().data;
  alexLine = (await linesOf(ALEX)).find((l) => l.msisdn === "+12025550101")!;
  samLine = (await linesOf(SAM)).find((l) => l.msisdn === "+12025550103")!;
  taylorLine = (await linesOf(TAYLOR, "TMO"))[0]!;
  expect([alexLine.cycleDay, samLine.cycleDay, alexLine.accountType, samLine.accountType]).toEqual([
    5,
    20,
    "prepaid",
    "prepaid",
  ]);
});

afterAll(async () => {
  await sandbox?.close();
  await backend?.close();
});

describe("POST /billing-runs: who may run it, and bad input", () => {
  holdStill(() => [alexLine.id, samLine.id]);
  it("refuses the unauthenticated (401), agents and subscribers (403), and an asOf that is not a date (400 at asOf), changing nothing", async () => {
    const before = await snapshot();
    const today = new Date().toISOString().slice(0, 10);
    expectProblem(await run(today, null), 401);
    expectProblem(await run(today, AGENT), 403);
    expectProblem(await run(today, ALEX), 403);
    expectProblem(await run(today, SAM), 403);
    for (const bad of ["2026-13-45", "tomorrow", "2026-02-30", "", 20261205, null, "2026-12-05T00:00:00Z"])
      expectProblem(await run(bad), 400, "asOf");
    expectProblem(await backend.send("POST", "/api/v1/billing-runs", { as: ADMIN, body: {} }), 400, "asOf");
    expectProblem(
      await backend.send("POST", "/api/v1/billing-runs", { as: ADMIN, body: { asOf: today, operator: "TMO" } }),
      400,
    );
    // A real day far from today is a business rule: 422 at asOf.
    expectProblem(await run("1999-01-05"), 422, "asOf");
    expectProblem(await run(addDays(today, 400)), 422, "asOf");
    expect(await snapshot()).toEqual(before);
    // A wrong operator header for the token: refused, not run elsewhere.
    expectProblem(await run(today, ADMIN, { operator: "TMO" }), 403);
  });

  it("another operator's admin runs their own operator only: ATT's lines are untouched, and the other way round", async () => {
    const attBefore = await snapshot("ATT");
    const d3 = nextCycleDay(taylorLine.cycleDay);
    const tmo = await runAndCheck(d3, TMO_ADMIN, "TMO");
    // Taylor's prepaid balance is 0: their line enters grace.
    expect(tmo).toMatchObject({ renewed: 0, enteredGrace: 1, suspended: 0 });
    expect(await snapshot("ATT")).toEqual(attBefore);
    expect((await lineRow(taylorLine.id)).status).toBe("grace");
    // TMO's run never touched an ATT line, and ATT's admin sees nothing of TMO.
    expect((await lineRow(alexLine.id)).status).toBe("active");
    expectProblem(await backend.get(`/api/v1/lines/${taylorLine.id}`, { as: ADMIN }), 404);
    const att = await runAndCheck(d3);
    expect((await lineRow(taylorLine.id)).graceEndsOn).toBe(addDays(d3, 7));
    void att;
  });
});

describe("a prepaid plan renews from the balance on its cycle day", () => {
  holdStill(() => [samLine.id]);

  it("3 days before, a holder whose balance covers the renewal is not reminded", async () => {
    const d5 = nextCycleDay(5);
    // Alex's balance ($40.00) covers his $35.00 plan: no reminder, and nothing renews before the day.
    await runAndCheck(addDays(d5, -3));
    expect(await noticesOf("demo-alex", "line.renewal_due_soon")).toHaveLength(0);
    expect(await lineRow(alexLine.id)).toMatchObject({ status: "active", renewedCycleStart: null });
  });

  it("on alex's cycle day: one renewal entry for the plan's price, the new cycle's allowances, his auto-renew add-on after it; a rerun and a concurrent run charge nothing more", async () => {
    const d5 = nextCycleDay(5);
    // An add-on bought with auto-renew whose validity ends on the cycle day, and money for both.
    const adjust = await backend.send("POST", `/api/v1/accounts/${alex.id}/actions/adjust`, {
      as: ADMIN,
      body: { amount: usd(2000), reason: "goodwill credit" },
    });
    expect(adjust.statusCode, adjust.body).toBe(200);
    const [pass] = await backend.database.db.select().from(addOns).where(eq(addOns.code, "DATA_1GB"));
    const bought = await backend.send("POST", `/api/v1/lines/${alexLine.id}/actions/buy-add-on`, {
      as: ALEX,
      body: { addOnId: pass!.id, autoRenew: true },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    await backend.database.db
      .update(addOnPurchases)
      .set({ expiresAt: new Date(`${d5}T06:00:00Z`) })
      .where(eq(addOnPurchases.lineId, alexLine.id));
    // Usage in the cycle before: the meter of the new cycle starts again from zero.
    const before = cycleStartOf(new Date(), 5);
    await backend.database.db
      .insert(usageCounters)
      .values({ lineId: alexLine.id, cycleStart: before, type: "data", used: 3000, lastRecordAt: new Date() });
    expect(await balanceOf(alex.id)).toBe(4000 + 2000 - 1000);

    // Two runs at once for the day, then a third: one renewal between them.
    const [first, second] = await Promise.all([runOk(d5), runOk(d5)]);
    expect(first.renewed + second.renewed).toBeGreaterThanOrEqual(1);
    expect(await runAndCheck(d5)).toEqual(ZEROS);
    // The daily job's own call of the same day changes nothing either.
    expect(await runBillingDay({ db: backend.database.db }, { operatorCode: "ATT", asOf: d5 })).toEqual(ZEROS);

    const renewals = (await entriesOf(alex.id)).filter((e) => e.kind === "renewal");
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({
      amount: 3500,
      currency: "USD",
      idempotencyKey: `renewal:${alexLine.id}:${d5}`,
      referenceType: "line",
      referenceId: alexLine.id,
      actorRole: "system",
    });
    // The add-on renewed after the plan, from what the plan left.
    const entries = await entriesOf(alex.id);
    const renewalAt = entries.findIndex((e) => e.kind === "renewal");
    const addOnAt = entries.findIndex((e) => e.idempotencyKey?.startsWith("add-on-renewal:"));
    expect(addOnAt).toBeGreaterThan(renewalAt);
    expect(await balanceOf(alex.id)).toBe(5000 - 3500 - 1000);
    const [purchase] = await backend.database.db
      .select()
      .from(addOnPurchases)
      .where(eq(addOnPurchases.lineId, alexLine.id));
    expect(purchase).toMatchObject({ status: "active", renewals: 1 });

    const line = await lineRow(alexLine.id);
    expect(line).toMatchObject({ status: "active", renewedCycleStart: d5, graceEndsOn: null });
    expect(await noticesOf("demo-alex", "line.renewed")).toHaveLength(1);
    // Allowances reset: on the cycle day the meter counts the new cycle from zero; the day before, the old one's 3,000 MB.
    const meterOn = async (at: string) =>
      (await metersOf(backend.database.db, [alexLine.id], new Date(at)))
        .get(alexLine.id)!
        .find((m) => m.type === "data")!;
    expect(await meterOn(`${addDays(d5, -1)}T12:00:00Z`)).toMatchObject({ used: 3000, cycleStart: before });
    expect(await meterOn(`${d5}T12:00:00Z`)).toMatchObject({ used: 0, cycleStart: d5, allowance: anyNumber() });
  });

  it("a renewal that would take the balance below zero never happens: the ledger refuses it with 422, the database refuses it too", async () => {
    const balance = await balanceOf(alex.id);
    const { postLedgerEntry } = await import("../../server/domain/money/ledger");
    await expect(
      backend.database.db.transaction((tx) =>
        postLedgerEntry(tx, {
          operatorCode: "ATT",
          accountId: alex.id,
          kind: "renewal",
          amount: balance + 1,
          currency: "USD",
          reason: "too much",
          actorUid: null,
          actorRole: "system",
        }),
      ),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      backend.database.db.insert(ledgerEntries).values({
        operatorCode: "ATT",
        accountId: alex.id,
        kind: "renewal",
        amount: balance + 1,
        currency: "USD",
        reason: "straight to the table",
        actorUid: null,
        actorRole: "system",
      }),
    ).rejects.toThrow();
    expect(await balanceOf(alex.id)).toBe(balance);
  });
});

describe("a balance short of the price: grace, a covering top-up, the end of grace", () => {
  holdStill(() => [alexLine.id]);

  it("3 days before, a holder whose balance will not cover the renewal is told once, and nothing is charged", async () => {
    const d20 = nextCycleDay(20);
    await runAndCheck(addDays(d20, -3));
    await runAndCheck(addDays(d20, -2));
    const reminders = await noticesOf("demo-sam", "line.renewal_due_soon");
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.params).toMatchObject({
      msisdn: "+12025550103",
      amount: 2500,
      balance: 0,
      missing: 2500,
      currency: "USD",
      date: d20,
    });
    expect(await lineRow(samLine.id)).toMatchObject({ status: "active", renewalRemindedFor: d20 });
  });

  it("sam's line enters grace for 7 days on his cycle day: told how much is missing and until when, no allowance, no add-ons or plan changes", async () => {
    const d20 = nextCycleDay(20);
    const result = await runAndCheck(d20);
    expect(result.enteredGrace).toBeGreaterThanOrEqual(1);
    expect(await runAndCheck(d20)).toEqual(ZEROS);
    const line = await lineRow(samLine.id);
    expect(line).toMatchObject({ status: "grace", graceEndsOn: addDays(d20, 7), suspendReason: null });
    expect((await entriesOf(sam.id)).filter((e) => e.kind === "renewal")).toHaveLength(0);
    const [notice] = await noticesOf("demo-sam", "line.grace_entered");
    expect(notice!.params).toMatchObject({
      msisdn: "+12025550103",
      amount: 2500,
      missing: 2500,
      date: addDays(d20, 7),
    });

    // The API and the home say so.
    const shown = (await backend.get(`/api/v1/lines/${samLine.id}`, { as: SAM })).json<Line>();
    expect(shown).toMatchObject({ status: "grace", graceEndsOn: addDays(d20, 7) });
    const home = (await backend.get("/api/v1/home", { as: SAM })).json<Home>();
    expect(home.lines[0]).toMatchObject({ status: "grace", grace: { endsOn: addDays(d20, 7), price: usd(2500) } });
    expect(home.accounts[0]!.balance).toEqual(usd(0));
    const meters = (await backend.get(`/api/v1/lines/${samLine.id}/meters`, { as: SAM })).json<
      {
        type: string;
        allowance: number | null;
      }[]
    >();
    expect(meters.map((m) => m.allowance)).toEqual([0, 0, 0]);

    // Only top-ups: buying an add-on or changing the plan is refused (409 at status).
    const [pass] = await backend.database.db.select().from(addOns).where(eq(addOns.code, "DATA_1GB"));
    expectProblem(
      await backend.send("POST", `/api/v1/lines/${samLine.id}/actions/buy-add-on`, {
        as: SAM,
        body: { addOnId: pass!.id },
      }),
      409,
      "status",
    );
    const [plan] = await backend.database.db
      .execute<{ id: string }>(sql`select id from plans where code = 'PRE_15GB'`)
      .then((r) => (r as { rows: { id: string }[] }).rows);
    expectProblem(
      await backend.send("POST", `/api/v1/lines/${samLine.id}/actions/change-plan`, {
        as: SAM,
        body: { planId: plan!.id },
      }),
      409,
      "status",
    );
    // Another subscriber sees none of it.
    expectProblem(await backend.get(`/api/v1/lines/${samLine.id}`, { as: ALEX }), 404);
  });

  it("a top-up short of the price leaves it in grace; one that covers the price renews at once", async () => {
    const d20 = nextCycleDay(20);
    const small = await redeem(sam, await voucher(1000), SAM);
    expect(small.statusCode, small.body).toBe(200);
    expect((await lineRow(samLine.id)).status).toBe("grace");
    const home = (await backend.get("/api/v1/home", { as: SAM })).json<Home>();
    expect(home.accounts[0]!.balance).toEqual(usd(1000));

    const covering = await redeem(sam, await voucher(3000), SAM);
    expect(covering.statusCode, covering.body).toBe(200);
    expect(await lineRow(samLine.id)).toMatchObject({ status: "active", graceEndsOn: null, renewedCycleStart: d20 });
    expect(await balanceOf(sam.id)).toBe(4000 - 2500);
    const renewal = (await entriesOf(sam.id)).filter((e) => e.kind === "renewal");
    expect(renewal).toHaveLength(1);
    expect(renewal[0]).toMatchObject({ amount: 2500, idempotencyKey: `renewal:${samLine.id}:${d20}` });
    expect(await noticesOf("demo-sam", "line.renewed")).toHaveLength(1);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, samLine.id), eq(auditEvents.action, "lines.renew")));
    expect(audit).toHaveLength(1);
    // The run of the day after changes nothing for sam: his cycle is paid.
    await runAndCheck(addDays(d20, 1));
    expect((await entriesOf(sam.id)).filter((e) => e.kind === "renewal")).toHaveLength(1);
  });

  it("grace that ends unpaid suspends the line (non_payment); its auto-renew add-on expires; the subscriber cannot restore it by hand; a covering top-up restores and renews it", async () => {
    const next = nextCycleStart(nextCycleDay(20));
    // An auto-renew pass bought while active ($10.00 of the $15.00), whose validity ends in the grace to come.
    const [pass] = await backend.database.db.select().from(addOns).where(eq(addOns.code, "DATA_1GB"));
    const bought = await backend.send("POST", `/api/v1/lines/${samLine.id}/actions/buy-add-on`, {
      as: SAM,
      body: { addOnId: pass!.id, autoRenew: true },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    await backend.database.db
      .update(addOnPurchases)
      .set({ expiresAt: new Date(`${addDays(next, 3)}T06:00:00Z`) })
      .where(eq(addOnPurchases.lineId, samLine.id));
    // Sam's $5.00 does not cover the next cycle's $25.00.
    expect((await runAndCheck(next)).enteredGrace).toBeGreaterThanOrEqual(1);
    expect(await lineRow(samLine.id)).toMatchObject({ status: "grace", graceEndsOn: addDays(next, 7) });
    // $7.00 more: the pass could be paid ($12.00), the plan still not ($25.00).
    const credit = await backend.send("POST", `/api/v1/accounts/${sam.id}/actions/adjust`, {
      as: ADMIN,
      body: { amount: usd(700), reason: "goodwill credit" },
    });
    expect(credit.statusCode, credit.body).toBe(200);
    expect((await lineRow(samLine.id)).status).toBe("grace");
    expect((await runAndCheck(addDays(next, 6))).suspended).toBe(0);
    expect((await lineRow(samLine.id)).status).toBe("grace");
    // A line whose plan did not renew renews no add-on: it expired, nothing was charged for it.
    const [purchase] = await backend.database.db
      .select()
      .from(addOnPurchases)
      .where(eq(addOnPurchases.lineId, samLine.id));
    expect(purchase).toMatchObject({ status: "expired", renewals: 0 });
    expect((await entriesOf(sam.id)).filter((e) => e.idempotencyKey?.startsWith("add-on-renewal:"))).toHaveLength(0);
    expect(await balanceOf(sam.id)).toBe(1200);
    const ending = await runAndCheck(addDays(next, 7));
    expect(ending.suspended).toBeGreaterThanOrEqual(1);
    expect(await runAndCheck(addDays(next, 7))).toEqual(ZEROS);
    expect(await lineRow(samLine.id)).toMatchObject({
      status: "suspended",
      suspendReason: "non_payment",
      graceEndsOn: null,
    });
    const [notice] = await noticesOf("demo-sam", "line.suspended_grace_ended");
    expect(notice!.params).toMatchObject({ missing: 2500 - 1200 });
    expectProblem(
      await backend.send("POST", `/api/v1/lines/${samLine.id}/actions/restore`, { as: SAM, body: {} }),
      422,
      "suspendReason",
    );

    const covering = await redeem(sam, await voucher(2500), SAM);
    expect(covering.statusCode, covering.body).toBe(200);
    expect(await lineRow(samLine.id)).toMatchObject({ status: "active", suspendReason: null, renewedCycleStart: next });
    expect(await balanceOf(sam.id)).toBe(1200 + 2500 - 2500);
    const restored = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, samLine.id), eq(auditEvents.action, "lines.restore")));
    expect(restored).toHaveLength(1);
  });
});

describe("auto top-up runs before the renewal when it is on", () => {
  holdStill(() => [samLine.id]);
  it("a balance that would fall under the threshold is topped up from the default card first, then the plan renews", async () => {
    const [att] = await backend.database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, "ATT"));
    await backend.database.db
      .update(operators)
      .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
      .where(eq(operators.code, "ATT"));
    const card = await backend.send("POST", "/api/v1/payment-methods", {
      as: ALEX,
      body: { cardToken: await tokenizeCard(sandbox.url, SANDBOX_CARDS.succeeds) },
    });
    expect(card.statusCode, card.body).toBe(201);
    const set = await backend.send("POST", `/api/v1/accounts/${alex.id}/actions/set-auto-top-up`, {
      as: ALEX,
      body: { enabled: true, threshold: usd(1000), amount: usd(5000), maxPerMonth: 5 },
    });
    expect(set.statusCode, set.body).toBe(200);
    // Alex's add-on stops renewing, so this cycle's money is the plan's alone.
    await backend.database.db
      .update(addOnPurchases)
      .set({ autoRenew: false })
      .where(eq(addOnPurchases.lineId, alexLine.id));
    const balance = await balanceOf(alex.id);
    expect(balance).toBeLessThan(3500);

    const next = nextCycleStart(nextCycleDay(5));
    const result = await runAndCheck(next);
    expect(result.renewed).toBeGreaterThanOrEqual(1);
    expect(await lineRow(alexLine.id)).toMatchObject({ status: "active", renewedCycleStart: next });
    const entries = await entriesOf(alex.id);
    const topUpAt = entries.findIndex(
      (e) => e.kind === "top_up" && e.idempotencyKey?.startsWith("top-up:") && e.amount === 5000,
    );
    const renewalAt = entries.findIndex((e) => e.idempotencyKey === `renewal:${alexLine.id}:${next}`);
    expect(topUpAt).toBeGreaterThanOrEqual(0);
    expect(renewalAt).toBeGreaterThan(topUpAt);
    expect(await balanceOf(alex.id)).toBe(balance + 5000 - 3500);
    expect(await runAndCheck(next)).toEqual(ZEROS);
  });
});

describe("postpaid cycle close and overdue marking are part of the day", () => {
  holdStill(() => [alexLine.id, samLine.id]);

  it("alex's postpaid account is billed on its cycle day; an Idempotency-Key replays the first answer", async () => {
    const postpaid = (await backend.get("/api/v1/accounts", { as: ALEX }))
      .json<{ data: Account[] }>()
      .data.find((a) => a.type === "postpaid")!;
    // Three cycles ahead: later than every day the tests above ran.
    const d12 = nextCycleStart(nextCycleStart(nextCycleStart(nextCycleDay(12))));
    const billsBefore = await backend.database.db.select().from(invoices).where(eq(invoices.accountId, postpaid.id));
    const first = await run(d12, ADMIN, { key: "billing-run-key-1" });
    expect(first.statusCode, first.body).toBe(200);
    const result = first.json<BillingRunResult>();
    expect(result.billsIssued).toBeGreaterThanOrEqual(1);
    const billsAfter = await backend.database.db.select().from(invoices).where(eq(invoices.accountId, postpaid.id));
    expect(billsAfter.length).toBe(billsBefore.length + 1);
    const replay = await run(d12, ADMIN, { key: "billing-run-key-1" });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(result);
    expect(await runAndCheck(d12)).toEqual(ZEROS);
    // Past the bill's due date it is overdue, counted once.
    const bill = billsAfter.find((b) => !billsBefore.some((o) => o.id === b.id))!;
    const late = await runAndCheck(addDays(bill.dueOn, 1));
    expect(late.overdue).toBeGreaterThanOrEqual(1);
    expect(
      (await backend.database.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, bill.id)))[0]!
        .status,
    ).toBe("overdue");
    // Every run was audited with what it did.
    const audits = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "billing-runs.run"), inArray(auditEvents.actorRole, ["admin"])));
    expect(audits.length).toBeGreaterThan(5);
    // Rows come back in no particular order (PostgreSQL promises none without ORDER BY): find the late run's.
    expect(audits.map((a) => a.after)).toContainEqual(
      expect.objectContaining({ asOf: addDays(bill.dueOn, 1), overdue: late.overdue }),
    );
  });
});
