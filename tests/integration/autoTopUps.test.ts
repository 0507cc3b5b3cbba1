import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autoTopUps, autoTopUpSettings, notifications, operators, topUps } from "../../server/db/schema";
import { startSandboxGateway, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import type { PaymentGateway } from "../../server/payments/gateway";
import { AUTO_TOP_UP_JOB, runQueuedAutoTopUps } from "../../server/domain/autoTopUps/run";
import { staticFeatureFlags } from "../../server/lib/featureFlags";
import { monthOf, queueAutoTopUpIfLow } from "../../server/domain/autoTopUps/queue";
import { domainJobs } from "../../server/domain/jobs";
import type { Account } from "../../src/resources/accounts";
import type { PaymentMethod } from "../../src/resources/paymentMethods";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { buildApp } from "../../server/app";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { waitFor } from "../support/waitFor";
import { freePort } from "../support/freePort";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { tokenizeCard } from "../support/sandboxCards";
import { expectProblem } from "../support/problems";

// Auto top-up (issue 9 item 5): a debit that leaves a prepaid balance below the threshold queues,
// in its own transaction, one top-up of the set amount from the default card; the job carries it
// out through the top-ups path. The test operator's gateway is the local sandbox; TMO has none.
const SECRET = "test-webhook-secret";
const API_KEY = "sk_sandbox_test";
const WEBHOOK_PATH = "/api/v1/payment-webhooks/sandbox";
let backend: TestBackend;
let sandbox: SandboxGateway;
let gateway: PaymentGateway;
let alex: Account;
let sam: Account;
let taylor: Account;
const usd = (amount: number) => ({ amount, currency: "USD" });

const tokenize = (number: string) => tokenizeCard(sandbox.url, number);

const setAuto = (account: Account, body: unknown, as?: string, operator?: string) =>
  backend.send("POST", `/api/v1/accounts/${account.id}/actions/set-auto-top-up`, { as, body, operator });
const charge = (account: Account, amount: number) =>
  backend.send("POST", `/api/v1/accounts/${account.id}/actions/charge`, {
    as: AGENT,
    body: { amount: usd(amount), reason: "test debit" },
  });
const balanceOf = async (account: Account) =>
  (await backend.get(`/api/v1/accounts/${account.id}`, { as: ADMIN })).json<Account>().balance!.amount;
const queueOf = (account: Account) =>
  backend.database.db.select().from(autoTopUps).where(eq(autoTopUps.accountId, account.id)).orderBy(autoTopUps.seq);
const noticesOf = async (uid: string, kind: "auto_top_up.attempted" | "auto_top_up.failed") =>
  (
    await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, uid), eq(notifications.kind, kind)))
  ).length;
const runJob = () => runQueuedAutoTopUps({ db: backend.database.db, payments: { sandbox: gateway } });
const settingCount = async () =>
  Number((await backend.database.db.select({ n: count() }).from(autoTopUpSettings))[0]!.n);

const setting = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  threshold: usd(100_000),
  amount: usd(2_000),
  maxPerMonth: 10,
  ...overrides,
});

async function saveCard(number: string, as: string): Promise<PaymentMethod> {
  const res = await backend.send("POST", "/api/v1/payment-methods", {
    as,
    body: { cardToken: await tokenize(number) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PaymentMethod>();
}

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
  taylor = (await backend.get("/api/v1/accounts", { as: TAYLOR, operator: "TMO" })).json<{ data: Account[] }>()
    .data[0]!;
});

afterAll(async () => {
  await sandbox?.close();
  await backend?.close();
});

describe("POST /accounts/{id}/actions/set-auto-top-up", () => {
  it("ATT without a card gateway refuses it with 422 naming enabled; switching it off still works", async () => {
    expectProblem(await setAuto(alex, setting(), ALEX), 422, "enabled");
    expect(await settingCount()).toBe(0);
    // TMO takes no cards either.
    expectProblem(await setAuto(taylor, setting(), TAYLOR, "TMO"), 422, "enabled");
    const off = await setAuto(alex, setting({ enabled: false }), ALEX);
    expect(off.statusCode, off.body).toBe(200);
    // The test operator takes cards through the sandbox from here on.
    const [att] = await backend.database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, "ATT"));
    await backend.database.db
      .update(operators)
      .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
      .where(eq(operators.code, "ATT"));
  });

  it("refuses the unauthenticated, another subscriber, another operator, staff without a reason, and malformed input", async () => {
    const before = await backend.database.db.select().from(autoTopUpSettings);
    expectProblem(await setAuto(alex, setting()), 401);
    expectProblem(await setAuto(alex, setting(), SAM), 404);
    expectProblem(await setAuto(alex, { ...setting(), reason: "not theirs" }, TMO_ADMIN, "TMO"), 404);
    expectProblem(await setAuto(alex, setting(), AGENT), 400, "reason");
    expectProblem(await setAuto(alex, setting({ threshold: usd(-5) }), ALEX), 400, "threshold.amount");
    expectProblem(
      await setAuto(alex, setting({ amount: { amount: 1.5, currency: "USD" } }), ALEX),
      400,
      "amount.amount",
    );
    // Past what the integer columns hold: a 400 at the field, never the database's error as a 500.
    expectProblem(await setAuto(alex, setting({ threshold: usd(2 ** 31) }), ALEX), 400, "threshold.amount");
    expectProblem(await setAuto(alex, setting({ amount: usd(Number.MAX_SAFE_INTEGER) }), ALEX), 400, "amount.amount");
    expectProblem(await setAuto(alex, setting({ maxPerMonth: 0 }), ALEX), 400, "maxPerMonth");
    expectProblem(await setAuto(alex, setting({ enabled: "yes" }), ALEX), 400, "enabled");
    expectProblem(
      await setAuto(alex, setting({ amount: usd(500), threshold: { amount: 500, currency: "EUR" } }), ALEX),
      422,
      "threshold.currency",
    );
    // No default card: refused, naming enabled.
    expectProblem(await setAuto(sam, setting(), SAM), 422, "enabled");
    expect(await backend.database.db.select().from(autoTopUpSettings)).toEqual(before);
  });

  it("the holder sets it with a default card; an agent may, with a reason; the account shows it", async () => {
    await saveCard(SANDBOX_CARDS.succeeds, ALEX);
    const res = await setAuto(alex, setting({ enabled: false, maxPerMonth: 3 }), AGENT);
    expectProblem(res, 400, "reason");
    const byAgent = await setAuto(alex, { ...setting({ enabled: false }), reason: "asked on the phone" }, AGENT);
    expect(byAgent.statusCode, byAgent.body).toBe(200);
    const mine = await setAuto(alex, setting(), ALEX);
    expect(mine.statusCode, mine.body).toBe(200);
    const shown = (await backend.get(`/api/v1/accounts/${alex.id}`, { as: ALEX })).json<Account>();
    expect(shown.autoTopUp).toEqual({ enabled: true, threshold: usd(100_000), amount: usd(2_000), maxPerMonth: 10 });
  });
});

describe("the auto top-up itself", () => {
  it("a charge below the threshold queues one top-up in its transaction; the job completes it and the balance goes up", async () => {
    expect(domainJobs({} as never).find((j) => j.name === AUTO_TOP_UP_JOB)?.cron).toBe("* * * * *");
    const start = await balanceOf(alex);
    expect((await charge(alex, 100)).statusCode).toBe(200);
    const queued = await queueOf(alex);
    expect(queued.map((q) => q.status)).toEqual(["queued"]);
    expect(await runJob()).toBe(1);
    const [done] = await queueOf(alex);
    expect(done).toMatchObject({ status: "submitted", seq: 1 });
    const [topUp] = await backend.database.db.select().from(topUps).where(eq(topUps.id, done!.topUpId!));
    expect(topUp).toMatchObject({ status: "completed", amount: 2_000, accountId: alex.id });
    expect(await balanceOf(alex)).toBe(start - 100 + 2_000);
    expect(await noticesOf("demo-alex", "auto_top_up.attempted")).toBe(1);
    expect(await noticesOf("demo-alex", "auto_top_up.failed")).toBe(0);
    // Running the job again does nothing more.
    expect(await runJob()).toBe(0);
    expect(await balanceOf(alex)).toBe(start - 100 + 2_000);
  });

  it("a declined default card: the top-up fails, nothing is credited, the holder is told", async () => {
    const declined = await saveCard(SANDBOX_CARDS.declined, ALEX);
    expect(
      (await backend.send("POST", `/api/v1/payment-methods/${declined.id}/actions/set-default`, { as: ALEX }))
        .statusCode,
    ).toBe(200);
    const start = await balanceOf(alex);
    expect((await charge(alex, 100)).statusCode).toBe(200);
    await runJob();
    const last = (await queueOf(alex)).at(-1)!;
    expect(last).toMatchObject({ status: "submitted", seq: 2 });
    const [topUp] = await backend.database.db.select().from(topUps).where(eq(topUps.id, last.topUpId!));
    expect(topUp).toMatchObject({ status: "failed" });
    expect(await balanceOf(alex)).toBe(start - 100);
    expect(await noticesOf("demo-alex", "auto_top_up.attempted")).toBe(2);
    expect(await noticesOf("demo-alex", "auto_top_up.failed")).toBe(1);
  });

  it("two concurrent debits queue one auto top-up", async () => {
    const [first] = await backend.database.db
      .select()
      .from(topUps)
      .where(and(eq(topUps.accountId, alex.id), eq(topUps.status, "completed")));
    expect(
      (
        await backend.send("POST", `/api/v1/payment-methods/${first!.paymentMethodId}/actions/set-default`, {
          as: ALEX,
        })
      ).statusCode,
    ).toBe(200);
    const before = (await queueOf(alex)).length;
    const answers = await Promise.all([charge(alex, 100), charge(alex, 100)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect((await queueOf(alex)).length).toBe(before + 1);
    expect(await runJob()).toBe(1);
    expect((await queueOf(alex)).at(-1)).toMatchObject({ status: "submitted", seq: 3 });
  });

  it("at most maxPerMonth a calendar month, counted in the database", async () => {
    expect((await setAuto(alex, setting({ maxPerMonth: 4 }), ALEX)).statusCode).toBe(200);
    await charge(alex, 100);
    await runJob();
    expect((await queueOf(alex)).map((q) => q.seq)).toEqual([1, 2, 3, 4]);
    const start = await balanceOf(alex);
    expect((await charge(alex, 100)).statusCode).toBe(200);
    expect((await queueOf(alex)).length).toBe(4);
    expect(await runJob()).toBe(0);
    expect(await balanceOf(alex)).toBe(start - 100);
    // The database refuses a fifth of a cap of four even if code forgot to count.
    const month = (await queueOf(alex))[0]!.month;
    await expect(
      backend.database.db.insert(autoTopUps).values({
        operatorCode: "ATT",
        accountId: alex.id,
        month,
        seq: 5,
        maxPerMonth: 4,
        amount: 2_000,
        currency: "USD",
      }),
    ).rejects.toThrow();
  });

  it("switched off: debits queue nothing", async () => {
    expect((await setAuto(alex, setting({ enabled: false, maxPerMonth: 31 }), ALEX)).statusCode).toBe(200);
    const before = (await queueOf(alex)).length;
    await charge(alex, 100);
    expect((await queueOf(alex)).length).toBe(before);
  });

  it("the default card removed after it was set: the attempt is skipped and the holder told", async () => {
    expect((await setAuto(alex, setting({ maxPerMonth: 31 }), ALEX)).statusCode).toBe(200);
    const cards = (await backend.get("/api/v1/payment-methods", { as: ALEX })).json<{ data: PaymentMethod[] }>();
    for (const card of cards.data)
      expect(
        (await backend.send("DELETE", `/api/v1/payment-methods/${card.id}`, { as: ALEX })).statusCode,
      ).toBeLessThan(300);
    const failed = await noticesOf("demo-alex", "auto_top_up.failed");
    const start = await balanceOf(alex);
    await charge(alex, 100);
    expect(await runJob()).toBe(1);
    expect((await queueOf(alex)).at(-1)).toMatchObject({
      status: "skipped",
      skipReason: "no_default_payment_method",
      topUpId: null,
    });
    expect(await noticesOf("demo-alex", "auto_top_up.failed")).toBe(failed + 1);
    expect(await balanceOf(alex)).toBe(start - 100);
  });

  it("card top-ups turned off in Remote Config (card_top_up_enabled): the attempt is skipped and the holder told; nothing is charged", async () => {
    await saveCard(SANDBOX_CARDS.succeeds, ALEX);
    const failed = await noticesOf("demo-alex", "auto_top_up.failed");
    const charges = sandbox.charges.length;
    const start = await balanceOf(alex);
    await charge(alex, 100);
    expect(
      await runQueuedAutoTopUps({
        db: backend.database.db,
        payments: { sandbox: gateway },
        featureFlags: staticFeatureFlags({ card_top_up_enabled: false }),
      }),
    ).toBe(1);
    expect((await queueOf(alex)).at(-1)).toMatchObject({
      status: "skipped",
      skipReason: "card_top_up_turned_off",
      topUpId: null,
    });
    expect(await noticesOf("demo-alex", "auto_top_up.failed")).toBe(failed + 1);
    expect(sandbox.charges.length).toBe(charges);
    expect(await balanceOf(alex)).toBe(start - 100);
  });
});

describe("on a backend that runs the job queue", () => {
  it("the debit's commit prompts the job: the auto top-up completes without anyone calling it", async () => {
    const withJobs = await buildApp({
      database: backend.database,
      verifier: createTokenVerifier(backend.auth),
      auth: backend.auth,
      operator: "ATT",
      logLevel: "silent",
      jobs: true,
      paymentGateways: { sandbox: gateway },
    });
    try {
      await saveCard(SANDBOX_CARDS.succeeds, ALEX);
      const start = await balanceOf(alex);
      const before = (await queueOf(alex)).length;
      expect((await charge(alex, 100)).statusCode).toBe(200);
      const { value: row } = await waitFor(
        "the auto top-up to be submitted",
        async () => {
          const rows = await queueOf(alex);
          return rows.length === before + 1 && rows.at(-1)!.status === "submitted" ? rows.at(-1)! : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      await waitFor(
        "the top-up to complete",
        async () =>
          (await backend.database.db.select().from(topUps).where(eq(topUps.id, row.topUpId!)))[0]?.status ===
          "completed",
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(await balanceOf(alex)).toBe(start - 100 + 2_000);
    } finally {
      await withJobs.close();
    }
  }, 90_000);
});

describe("a late decline by webhook", () => {
  it("gets the same auto_top_up.failed notice as a declined answer, once", async () => {
    // The default card does not answer in time: the top-up stays created for the webhook.
    const late = await saveCard(SANDBOX_CARDS.timesOut, ALEX);
    expect(
      (await backend.send("POST", `/api/v1/payment-methods/${late.id}/actions/set-default`, { as: ALEX })).statusCode,
    ).toBe(200);
    const failedBefore = await noticesOf("demo-alex", "auto_top_up.failed");
    const start = await balanceOf(alex);
    expect((await charge(alex, 100)).statusCode).toBe(200);
    expect(await runJob()).toBe(1);
    const row = (await queueOf(alex)).at(-1)!;
    expect(row.status).toBe("submitted");
    const [pending] = await backend.database.db.select().from(topUps).where(eq(topUps.id, row.topUpId!));
    expect(pending!.status).toBe("created");
    expect(await noticesOf("demo-alex", "auto_top_up.failed")).toBe(failedBefore);

    // The gateway's signed webhook says the charge failed.
    const held = sandbox.charges.find((c) => c.reference === row.topUpId)!;
    const event = {
      id: `evt_late_decline_${row.id}`,
      type: "charge.failed" as const,
      created: Math.floor(Date.now() / 1000),
      data: {
        chargeId: held.id,
        reference: held.reference,
        amount: held.amount,
        currency: held.currency,
        failureCode: "card_declined",
      },
    };
    expect(await sandbox.send(event)).toBe(200);
    const [settled] = await backend.database.db.select().from(topUps).where(eq(topUps.id, row.topUpId!));
    expect(settled).toMatchObject({ status: "failed", failureReason: "card_declined" });
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "auto_top_up.failed")));
    expect(notices).toHaveLength(failedBefore + 1);
    expect(notices.map((n) => n.params)).toContainEqual({
      amount: 2_000,
      currency: "USD",
      failureReason: "card_declined",
    });
    expect(await balanceOf(alex)).toBe(start - 100);

    // A replay, or another event for the settled top-up, tells the holder nothing more.
    expect(await sandbox.send(event)).toBe(200);
    expect(await sandbox.send({ ...event, id: `${event.id}_again` })).toBe(200);
    expect(await noticesOf("demo-alex", "auto_top_up.failed")).toBe(failedBefore + 1);
  });
});

describe("the monthly cap counts the operator's months", () => {
  it("an attempt late on the last evening of a month counts toward that month where the operator is, not UTC's next one", async () => {
    const [att] = await backend.database.db
      .select({ timezone: operators.timezone })
      .from(operators)
      .where(eq(operators.code, "ATT"));
    expect(att!.timezone).toBe("America/New_York");
    // Ahead of UTC too: 15:30 UTC on 30 November is already 1 December in Tokyo.
    expect(monthOf(new Date("2030-11-30T15:30:00Z"), "Asia/Tokyo")).toBe("2030-12");
    await backend.database.db
      .update(autoTopUpSettings)
      .set({ enabled: true, maxPerMonth: 2, thresholdAmount: 100_000 })
      .where(eq(autoTopUpSettings.accountId, alex.id));
    // Each attempt as the debit would queue it at that instant; marked skipped so the next is not held back by it.
    const attemptAt = async (iso: string) => {
      const id = await backend.database.db.transaction((tx) =>
        queueAutoTopUpIfLow(
          tx,
          { operatorCode: "ATT", accountId: alex.id, currency: "USD", balanceAfter: 50 },
          new Date(iso),
        ),
      );
      if (!id) return null;
      const [row] = await backend.database.db
        .update(autoTopUps)
        .set({ status: "skipped", skipReason: "test" })
        .where(eq(autoTopUps.id, id))
        .returning();
      return { month: row!.month, seq: row!.seq };
    };
    // 23:30 on 31 October in New York (EDT, UTC-4), already November in UTC.
    expect(await attemptAt("2030-11-01T03:30:00Z")).toEqual({ month: "2030-10", seq: 1 });
    // 30 November in New York (EST, UTC-5) while UTC is in December: November's two, then the cap.
    expect(await attemptAt("2030-12-01T03:00:00Z")).toEqual({ month: "2030-11", seq: 1 });
    expect(await attemptAt("2030-12-01T04:30:00Z")).toEqual({ month: "2030-11", seq: 2 });
    expect(await attemptAt("2030-12-01T04:59:59Z")).toBeNull();
    // Midnight in New York: December starts, the count with it.
    expect(await attemptAt("2030-12-01T05:00:00Z")).toEqual({ month: "2030-12", seq: 1 });
  });
});
