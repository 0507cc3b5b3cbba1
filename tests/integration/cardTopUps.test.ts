import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, ledgerEntries, notifications, operators, paymentWebhookEvents } from "../../server/db/schema";
import { startSandboxGateway, type SandboxEvent, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import { signWebhook, SIGNATURE_HEADER } from "../../server/payments/webhookSignature";
import type { Account } from "../../src/resources/accounts";
import { signOf } from "../../src/resources/ledgerEntries";
import type { TopUp } from "../../src/resources/topUps";
import type { PaymentMethod } from "../../src/resources/paymentMethods";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { freePort } from "../support/freePort";
import { waitFor } from "../support/waitFor";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { tokenizeCard } from "../support/sandboxCards";
import { expectProblem } from "../support/problems";
import { rowsOf } from "../../server/db/rowsOf";

// Card top-ups through the sandbox gateway (issue 9 items 4, 6, 7): the test operator's setting is
// "sandbox"; the sandbox runs on a free port and hands its signed webhooks to this backend.
const SECRET = "test-webhook-secret";
const API_KEY = "sk_sandbox_test";
const WEBHOOK_PATH = "/api/v1/payment-webhooks/sandbox";
let backend: TestBackend;
let sandbox: SandboxGateway;
const logs: string[] = [];
let alex: Account;
let sam: Account;
let taylor: Account;
const usd = (amount: number) => ({ amount, currency: "USD" });

const tokenize = (number: string) => tokenizeCard(sandbox.url, number, { origin: "http://127.0.0.1:5173" });

const topUp = (body: unknown, as?: string, options: { operator?: string; key?: string } = {}) =>
  backend.send("POST", "/api/v1/top-ups", {
    as,
    operator: options.operator,
    body,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
const showTopUp = async (id: string, as = ALEX) => (await backend.get(`/api/v1/top-ups/${id}`, { as })).json<TopUp>();
const balanceOf = async (account: Account, as = ALEX) =>
  (await backend.get(`/api/v1/accounts/${account.id}`, { as })).json<Account>().balance!.amount;
const creditsFor = async (topUpId: string) =>
  (
    await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "top-ups"), eq(ledgerEntries.referenceId, topUpId)))
  ).map((e) => ({ kind: e.kind, amount: e.amount }));
const eventsFor = (topUpId: string) => sandbox.events.filter((e) => e.data.reference === topUpId);
/** Waits until the sandbox's webhooks about a top-up were all handled by the backend. */
async function webhooksHandled(topUpId: string, atLeast = 1) {
  await waitFor(`webhooks of ${topUpId}`, async () => {
    const sent = eventsFor(topUpId);
    if (sent.length < atLeast) return false;
    const [row] = await backend.database.db
      .select({ n: count() })
      .from(paymentWebhookEvents)
      .where(
        sql`${paymentWebhookEvents.eventId} in (${sql.join(
          sent.map((e) => sql`${e.id}`),
          sql`, `,
        )})`,
      );
    return Number(row!.n) === sent.length || undefined;
  });
}
const postWebhook = (body: string, signature: string | undefined) =>
  backend.app.inject({
    method: "POST",
    url: WEBHOOK_PATH,
    headers: { "content-type": "application/json", ...(signature ? { [SIGNATURE_HEADER]: signature } : {}) },
    payload: body,
  });

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
  backend = await startTestBackend({
    paymentGateways: {
      sandbox: sandboxGateway({ url: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, chargeTimeoutMs: 3_000 }),
    },
    logLevel: "info",
    logStream: { write: (line: string) => void logs.push(line) },
  });
  // The test operator takes cards through the sandbox (ATT's real setting is empty); TMO stays without.
  const [att] = await backend.database.db
    .select({ settings: operators.settings })
    .from(operators)
    .where(eq(operators.code, "ATT"));
  await backend.database.db
    .update(operators)
    .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
    .where(eq(operators.code, "ATT"));
  // The agent reads the demo subscribers' records once each caller is verified (issue 27); after the
  // settings change, since the first request caches the operator's settings.
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

describe("card top-ups through the sandbox gateway", () => {
  it("tells the portal where to tokenize a card, and that TMO takes none", async () => {
    const bills = {
      billGateway: "sandbox",
      billTokenizeUrl: `${sandbox.url}/v1/tokens`,
      bankAccountTokenizeUrl: `${sandbox.url}/v1/bank-account-tokens`,
    };
    expect((await backend.get("/api/v1/payment-gateway", { as: ALEX })).json()).toEqual({
      gateway: "sandbox",
      tokenizeUrl: `${sandbox.url}/v1/tokens`,
      ...bills,
    });
    // TMO takes no card top-ups; its bills are still paid through the bill-payment gateway (issue 24).
    expect((await backend.get("/api/v1/payment-gateway", { as: TAYLOR, operator: "TMO" })).json()).toEqual({
      gateway: "",
      tokenizeUrl: null,
      ...bills,
    });
    expectProblem(await backend.get("/api/v1/payment-gateway"), 401);
  });

  it("4242 4242 4242 4242 succeeds: completed at once, credited once even when the webhook follows", async () => {
    const before = await balanceOf(alex);
    const res = await topUp(
      { accountId: alex.id, amount: usd(1500), cardToken: await tokenize(SANDBOX_CARDS.succeeds) },
      ALEX,
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<TopUp>();
    expect(created).toMatchObject({
      accountId: alex.id,
      amount: usd(1500),
      status: "completed",
      gatewayCaptured: true,
      refund: "none",
    });
    await webhooksHandled(created.id);
    expect(eventsFor(created.id).map((e) => e.type)).toEqual(["charge.succeeded"]);
    expect(await creditsFor(created.id)).toEqual([{ kind: "top_up", amount: 1500 }]);
    expect(await balanceOf(alex)).toBe(before + 1500);
    const list = (await backend.get(`/api/v1/top-ups?filter[accountId]=${alex.id}`, { as: ALEX })).json<{
      data: TopUp[];
    }>();
    expect(list.data.find((t) => t.id === created.id)).toMatchObject({ status: "completed" });
    const [notice] = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "top_up.completed")));
    expect(notice?.params).toMatchObject({ amount: 1500, currency: "USD" });
  });

  it("4000 0000 0000 0002 is declined: failed with the reason, nothing credited", async () => {
    const before = await balanceOf(alex);
    const res = await topUp(
      { accountId: alex.id, amount: usd(700), cardToken: await tokenize(SANDBOX_CARDS.declined) },
      ALEX,
    );
    expect(res.statusCode, res.body).toBe(201);
    const failed = res.json<TopUp>();
    expect(failed).toMatchObject({ status: "failed", failureReason: "card_declined", gatewayCaptured: false });
    await webhooksHandled(failed.id);
    expect(await showTopUp(failed.id)).toMatchObject({ status: "failed" });
    expect(await creditsFor(failed.id)).toEqual([]);
    expect(await balanceOf(alex)).toBe(before);
  });

  it("4000 0000 0000 0119 times out: stays created, then the late webhook completes it and credits once", async () => {
    const before = await balanceOf(alex);
    const res = await topUp(
      { accountId: alex.id, amount: usd(900), cardToken: await tokenize(SANDBOX_CARDS.timesOut) },
      ALEX,
    );
    expect(res.statusCode, res.body).toBe(201);
    const pending = res.json<TopUp>();
    expect(pending).toMatchObject({ status: "created", gatewayCaptured: false });
    expect(await balanceOf(alex)).toBe(before);
    await sandbox.releaseLate();
    await webhooksHandled(pending.id);
    const done = await showTopUp(pending.id);
    expect(done).toMatchObject({ status: "completed", gatewayCaptured: true });
    expect(Date.parse(done.updatedAt)).toBeGreaterThan(Date.parse(pending.updatedAt));
    expect(await creditsFor(pending.id)).toEqual([{ kind: "top_up", amount: 900 }]);
    expect(await balanceOf(alex)).toBe(before + 900);
  });

  it("an Idempotency-Key replays the first answer and never charges twice", async () => {
    const before = await balanceOf(alex);
    const body = { accountId: alex.id, amount: usd(1100), cardToken: await tokenize(SANDBOX_CARDS.succeeds) };
    const key = `top-up-${Date.now()}`;
    const first = await topUp(body, ALEX, { key });
    const again = await topUp(body, ALEX, { key });
    expect(first.statusCode, first.body).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    await webhooksHandled(first.json<TopUp>().id);
    expect(await balanceOf(alex)).toBe(before + 1100);
    expectProblem(await topUp({ ...body, amount: usd(1200) }, ALEX, { key }), 422, "idempotency-key");
  });
});

describe("POST /payment-webhooks/sandbox", () => {
  it("refuses a missing, wrong or old signature and malformed events, changing nothing", async () => {
    const res = await topUp(
      { accountId: alex.id, amount: usd(300), cardToken: await tokenize(SANDBOX_CARDS.timesOut) },
      ALEX,
    );
    const pending = res.json<TopUp>();
    const event: SandboxEvent = {
      id: `evt_forged_${Date.now()}`,
      type: "charge.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: { chargeId: "ch_forged", reference: pending.id, amount: 300, currency: "USD" },
    };
    const body = JSON.stringify(event);
    expectProblem(await postWebhook(body, undefined), 401, SIGNATURE_HEADER);
    expectProblem(await postWebhook(body, signWebhook("not-the-secret", body)), 401, SIGNATURE_HEADER);
    expectProblem(
      await postWebhook(body, signWebhook(SECRET, body, Math.floor(Date.now() / 1000) - 3600)),
      401,
      SIGNATURE_HEADER,
    );
    expectProblem(await postWebhook(body, "t=abc,v1=zz"), 401, SIGNATURE_HEADER);
    // Signed over another body: the signature does not carry over.
    expectProblem(await postWebhook(body.replace("300", "30000"), signWebhook(SECRET, body)), 401);
    const malformed = JSON.stringify({ ...event, data: { ...event.data, reference: "not-a-uuid" } });
    expectProblem(await postWebhook(malformed, signWebhook(SECRET, malformed)), 400, "data.reference");
    expectProblem(
      await backend.app.inject({
        method: "POST",
        url: "/api/v1/payment-webhooks/acme",
        headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signWebhook(SECRET, body) },
        payload: body,
      }),
      404,
    );
    // Correctly signed, but for another amount than the top-up asked: acknowledged, changes nothing.
    const otherAmount = JSON.stringify({ ...event, id: `${event.id}_amount`, data: { ...event.data, amount: 30_000 } });
    expect((await postWebhook(otherAmount, signWebhook(SECRET, otherAmount))).statusCode).toBe(200);
    expect(await showTopUp(pending.id)).toMatchObject({ status: "created" });
    expect(await creditsFor(pending.id)).toEqual([]);
    await sandbox.releaseLate();
    await webhooksHandled(pending.id);
  });

  it("a replayed event is acknowledged and ignored; two events for one charge credit once", async () => {
    const before = await balanceOf(alex);
    const created = (
      await topUp({ accountId: alex.id, amount: usd(400), cardToken: await tokenize(SANDBOX_CARDS.timesOut) }, ALEX)
    ).json<TopUp>();
    await sandbox.releaseLate();
    await webhooksHandled(created.id);
    const [sent] = eventsFor(created.id);
    const replay = await postWebhook(JSON.stringify(sent), signWebhook(SECRET, JSON.stringify(sent)));
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    // The same charge told again under a new event id: handled, and still one credit.
    const second = JSON.stringify({ ...sent, id: `${sent!.id}_again` });
    const res = await postWebhook(second, signWebhook(SECRET, second));
    expect(res.json()).toEqual({ received: true, duplicate: false });
    expect(await creditsFor(created.id)).toEqual([{ kind: "top_up", amount: 400 }]);
    expect(await balanceOf(alex)).toBe(before + 400);
  });
});

describe("refund claims", () => {
  it("a top-up cancelled while the gateway captured it is claimed in one tap and approved by an agent into one reversal entry", async () => {
    const before = await balanceOf(alex);
    const created = (
      await topUp({ accountId: alex.id, amount: usd(1300), cardToken: await tokenize(SANDBOX_CARDS.timesOut) }, ALEX)
    ).json<TopUp>();
    const act = (action: string, as?: string, body?: unknown, operator?: string) =>
      backend.send("POST", `/api/v1/top-ups/${created.id}/actions/${action}`, { as, body, operator });
    expectProblem(await act("claim-refund", ALEX), 409, "status");
    expectProblem(await act("cancel", SAM), 404);
    const cancelled = await act("cancel", ALEX);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: "cancelled", gatewayCaptured: false });
    expectProblem(await act("claim-refund", ALEX), 409, "gatewayCaptured");
    // The gateway captured it after all: recorded, not credited.
    await sandbox.releaseLate();
    await webhooksHandled(created.id);
    expect(await showTopUp(created.id)).toMatchObject({ status: "cancelled", gatewayCaptured: true, refund: "none" });
    expect(await creditsFor(created.id)).toEqual([]);

    expectProblem(await act("claim-refund"), 401);
    expectProblem(await act("claim-refund", SAM), 404);
    expectProblem(await act("claim-refund", TAYLOR, undefined, "TMO"), 404);
    expectProblem(await act("claim-refund", ALEX, { reason: 12 }), 400, "reason");
    const claimed = await act("claim-refund", ALEX);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ refund: "claimed" });

    expectProblem(await act("approve-refund", ALEX, { reason: "I want it" }), 403);
    expectProblem(await act("approve-refund", AGENT), 400, "reason");
    expectProblem(await act("approve-refund", TMO_ADMIN, { reason: "other operator" }, "TMO"), 404);
    expect(await balanceOf(alex)).toBe(before);
    const approved = await act("approve-refund", AGENT, { reason: "gateway captured a cancelled top-up" });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ refund: "approved" });
    expectProblem(await act("approve-refund", ADMIN, { reason: "again" }), 409, "refund");
    // One reversal entry: it undoes the top-up's failure by crediting what the card paid.
    expect(await creditsFor(created.id)).toEqual([{ kind: "reversal", amount: 1300 }]);
    expect(await balanceOf(alex)).toBe(before + 1300);
    const [reversal] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "top-ups"), eq(ledgerEntries.referenceId, created.id)));
    expect(reversal).toMatchObject({
      actorUid: "demo-agent",
      actorRole: "agent",
      idempotencyKey: `top-up-refund:${created.id}`,
      balanceAfter: before + 1300,
    });
    expect(reversal!.reason).toContain("gateway captured a cancelled top-up");
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, created.id), eq(auditEvents.action, "top-ups.approve-refund")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.reason).toBe("gateway captured a cancelled top-up");
    const kinds = (
      await backend.database.db
        .select({ kind: notifications.kind })
        .from(notifications)
        .where(eq(notifications.recipientUid, "demo-alex"))
    ).map((n) => n.kind);
    expect(kinds).toEqual(expect.arrayContaining(["top_up.refund_claimed", "top_up.refunded"]));
  });

  it("a top-up that failed while the payment went through is claimed and approved into a reversal entry that credits the balance once", async () => {
    const before = await balanceOf(alex);
    const declined = (
      await topUp({ accountId: alex.id, amount: usd(700), cardToken: await tokenize(SANDBOX_CARDS.declined) }, ALEX)
    ).json<TopUp>();
    expect(declined).toMatchObject({ status: "failed", gatewayCaptured: false });
    expectProblem(
      await backend.send("POST", `/api/v1/top-ups/${declined.id}/actions/claim-refund`, { as: ALEX }),
      409,
      "gatewayCaptured",
    );
    // The gateway reports a capture for it after all (the bank took the money): recorded, nothing credited.
    const event: SandboxEvent = {
      id: `evt_late_capture_${declined.id}`,
      type: "charge.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: { chargeId: `ch_late_${declined.id}`, reference: declined.id, amount: 700, currency: "USD" },
    };
    const body = JSON.stringify(event);
    const res = await postWebhook(body, signWebhook(SECRET, body));
    expect(res.statusCode, res.body).toBe(200);
    expect(await showTopUp(declined.id)).toMatchObject({ status: "failed", gatewayCaptured: true, refund: "none" });
    expect(await creditsFor(declined.id)).toEqual([]);
    expect(await balanceOf(alex)).toBe(before);

    const claimed = await backend.send("POST", `/api/v1/top-ups/${declined.id}/actions/claim-refund`, { as: ALEX });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const approve = () =>
      backend.send("POST", `/api/v1/top-ups/${declined.id}/actions/approve-refund`, {
        as: ADMIN,
        body: { reason: "bank confirms the capture" },
      });
    const approved = await approve();
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: "failed", refund: "approved" });
    expectProblem(await approve(), 409, "refund");
    expect(await creditsFor(declined.id)).toEqual([{ kind: "reversal", amount: 700 }]);
    expect(await balanceOf(alex)).toBe(before + 700);
    // The ledger still adds up: the balance is the sum of the account's entries, reversals counted as credits.
    const entries = await backend.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, alex.id));
    expect(entries.reduce((sum, e) => sum + signOf(e.kind) * e.amount, 0)).toBe(before + 700);
  });

  it("a completed top-up cannot be claimed", async () => {
    const done = (
      await topUp({ accountId: alex.id, amount: usd(200), cardToken: await tokenize(SANDBOX_CARDS.succeeds) }, ALEX)
    ).json<TopUp>();
    await webhooksHandled(done.id);
    expectProblem(
      await backend.send("POST", `/api/v1/top-ups/${done.id}/actions/claim-refund`, { as: ALEX }),
      409,
      "status",
    );
  });
});

describe("top-ups: who may see and create them", () => {
  it("owners and staff read them; others get 401 or 404; bad input is named and writes nothing", async () => {
    const created = (
      await topUp({ accountId: alex.id, amount: usd(250), cardToken: await tokenize(SANDBOX_CARDS.declined) }, ALEX)
    ).json<TopUp>();
    await webhooksHandled(created.id);
    expectProblem(await backend.get(`/api/v1/top-ups/${created.id}`), 401);
    expectProblem(await backend.get(`/api/v1/top-ups/${created.id}`, { as: SAM }), 404);
    expectProblem(await backend.get(`/api/v1/top-ups/${created.id}`, { as: TMO_ADMIN, operator: "TMO" }), 404);
    expect((await backend.get(`/api/v1/top-ups/${created.id}`, { as: AGENT })).statusCode).toBe(200);
    const samList = (await backend.get("/api/v1/top-ups", { as: SAM })).json<{ data: TopUp[] }>();
    expect(samList.data.map((t) => t.accountId)).not.toContain(alex.id);
    expect(
      (await backend.get("/api/v1/top-ups", { as: TMO_ADMIN, operator: "TMO" })).json<{ total: number }>().total,
    ).toBe(0);

    const entries = async () => Number((await backend.database.db.select({ n: count() }).from(ledgerEntries))[0]!.n);
    const before = await entries();
    const token = await tokenize(SANDBOX_CARDS.succeeds);
    const good = { accountId: alex.id, amount: usd(1000), cardToken: token };
    expectProblem(await topUp(good), 401);
    expectProblem(await topUp({ ...good, accountId: sam.id }, ALEX), 404);
    expectProblem(await topUp(good, SAM), 404);
    expectProblem(await topUp(good, TAYLOR, { operator: "TMO" }), 404);
    expectProblem(await topUp({ ...good, accountId: taylor.id }, ALEX), 404);
    expectProblem(await topUp({ ...good, amount: usd(10.5) }, ALEX), 400, "amount.amount");
    expectProblem(
      await topUp({ ...good, cardToken: SANDBOX_CARDS.succeeds.replace(/(\d{4})/g, "$1 ").trim() }, ALEX),
      400,
      "cardToken",
    );
    expectProblem(await topUp({ ...good, cardNumber: SANDBOX_CARDS.succeeds }, ALEX), 400);
    expectProblem(await topUp({ accountId: alex.id, amount: usd(1000) }, ALEX), 400, "paymentMethodId");
    // TMO takes no cards: its own subscriber is told to use a voucher.
    expect(
      expectProblem(await topUp({ ...good, accountId: taylor.id }, TAYLOR, { operator: "TMO" }), 422, "paymentMethodId")
        .detail,
    ).toMatch(/voucher/i);
    // A token the gateway does not know: the top-up is written as failed, nothing is credited.
    const unknown = await topUp({ ...good, cardToken: "tok_unknown_0000000" }, ALEX);
    expect(unknown.statusCode, unknown.body).toBe(201);
    expect(unknown.json()).toMatchObject({ status: "failed", failureReason: "invalid_source" });
    expect(await entries()).toBe(before);
    // Staff may top up for the subscriber.
    const byAgent = await topUp(good, AGENT);
    expect(byAgent.statusCode, byAgent.body).toBe(201);
    expect(byAgent.json()).toMatchObject({ status: "completed" });
    await webhooksHandled(byAgent.json<TopUp>().id);
  });
});

describe("payment methods", () => {
  it("a subscriber saves cards through the gateway, sets a default, tops up with one and removes them; others cannot", async () => {
    const add = (body: unknown, as?: string, operator?: string) =>
      backend.send("POST", "/api/v1/payment-methods", { as, body, operator });
    expectProblem(await add({ cardToken: await tokenize(SANDBOX_CARDS.succeeds) }), 401);
    expectProblem(await add({ cardToken: SANDBOX_CARDS.succeeds }, ALEX), 400, "cardToken");
    expectProblem(await add({ cardToken: "4242 4242 4242 4242" }, ALEX), 400, "cardToken");
    expectProblem(await add({}, ALEX), 400, "cardToken");
    expectProblem(await add({ cardToken: "tok_never_issued_000" }, ALEX), 422, "cardToken");
    expectProblem(await add({ cardToken: await tokenize(SANDBOX_CARDS.succeeds) }, AGENT), 403);
    // Without card top-ups a card is still saved, at the bill-payment gateway: it pays bills (issue 24).
    const forBills = await add({ cardToken: await tokenize(SANDBOX_CARDS.succeeds) }, TAYLOR, "TMO");
    expect(forBills.statusCode, forBills.body).toBe(201);
    expect(
      (
        await backend.send("DELETE", `/api/v1/payment-methods/${forBills.json<PaymentMethod>().id}`, {
          as: TAYLOR,
          operator: "TMO",
        })
      ).statusCode,
    ).toBe(200);

    const first = await add({ cardToken: await tokenize(SANDBOX_CARDS.succeeds) }, ALEX);
    expect(first.statusCode, first.body).toBe(201);
    const visa = first.json<PaymentMethod>();
    expect(visa).toMatchObject({ brand: "visa", last4: "4242", expMonth: 12, isDefault: true });
    const second = (await add({ cardToken: await tokenize(SANDBOX_CARDS.declined) }, ALEX)).json<PaymentMethod>();
    expect(second).toMatchObject({ last4: "0002", isDefault: false });

    const method = (id: string, as: string, operator?: string) =>
      backend.get(`/api/v1/payment-methods/${id}`, { as, operator });
    expectProblem(await method(visa.id, SAM), 404);
    expectProblem(await method(visa.id, TMO_ADMIN, "TMO"), 404);
    expect((await method(visa.id, AGENT)).statusCode).toBe(200);
    expect((await backend.get("/api/v1/payment-methods", { as: SAM })).json<{ total: number }>().total).toBe(0);

    const setDefault = (id: string, as?: string, operator?: string) =>
      backend.send("POST", `/api/v1/payment-methods/${id}/actions/set-default`, { as, operator });
    expectProblem(await setDefault(second.id), 401);
    expectProblem(await setDefault(second.id, SAM), 404);
    expectProblem(await setDefault(second.id, AGENT), 403);
    expectProblem(await setDefault(second.id, TAYLOR, "TMO"), 404);
    expect((await setDefault(second.id, ALEX)).json()).toMatchObject({ isDefault: true });
    expectProblem(await setDefault(second.id, ALEX), 409, "isDefault");
    const mine = (await backend.get("/api/v1/payment-methods", { as: ALEX })).json<{ data: PaymentMethod[] }>();
    expect(mine.data.filter((m) => m.isDefault).map((m) => m.id)).toEqual([second.id]);

    // Top up with a saved card; another subscriber cannot use it.
    const before = await balanceOf(alex);
    const paid = await topUp({ accountId: alex.id, amount: usd(600), paymentMethodId: visa.id }, ALEX);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({ status: "completed", paymentMethodId: visa.id });
    await webhooksHandled(paid.json<TopUp>().id);
    expect(await balanceOf(alex)).toBe(before + 600);
    expectProblem(
      await topUp({ accountId: sam.id, amount: usd(600), paymentMethodId: visa.id }, SAM),
      422,
      "paymentMethodId",
    );

    const remove = (id: string, as?: string, operator?: string) =>
      backend.send("DELETE", `/api/v1/payment-methods/${id}`, { as, operator });
    expectProblem(await remove(second.id), 401);
    expectProblem(await remove(second.id, SAM), 404);
    expectProblem(await remove(second.id, AGENT), 403);
    expectProblem(await remove(second.id, TAYLOR, "TMO"), 404);
    expect((await remove(second.id, ALEX)).statusCode).toBe(200);
    // The remaining card becomes the default.
    expect((await method(visa.id, ALEX)).json<PaymentMethod>().isDefault).toBe(true);
    expect((await remove(visa.id, ALEX)).statusCode).toBe(200);
    expect((await backend.get("/api/v1/payment-methods", { as: ALEX })).json<{ total: number }>().total).toBe(0);
  });
});

describe("card numbers never reach the backend", () => {
  it("no text column of any table and no log line holds a test card number", async () => {
    const numbers = Object.values(SANDBOX_CARDS).flatMap((n) => [n, n.replace(/(\d{4})(?=\d)/g, "$1 ")]);
    const rows = rowsOf<{ table_name: string; column_name: string }>(
      await backend.database.db.execute(
        sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')`,
      ),
    );
    expect(rows.length).toBeGreaterThan(20);
    let hits = 0;
    for (const { table_name, column_name } of rows) {
      const conditions = sql.join(
        numbers.map((n) => sql`${sql.identifier(column_name)}::text like ${`%${n}%`}`),
        sql` or `,
      );
      const found = rowsOf<{ n: number }>(
        await backend.database.db.execute(
          sql`select count(*)::int as n from ${sql.identifier(table_name)} where ${conditions}`,
        ),
      );
      hits += Number(found[0]!.n);
    }
    expect(hits).toBe(0);
    expect(logs.length).toBeGreaterThan(10);
    const joined = logs.join("\n");
    for (const n of numbers) expect(joined.includes(n), n).toBe(false);
  });
});

describe("refusals in the request's language (issue 25)", () => {
  const inSpanish = { "accept-language": "es" };
  it("a top-up the operator or the account does not take: in Spanish for es, unchanged in English", async () => {
    const good = { accountId: alex.id, amount: usd(1000), cardToken: await tokenize(SANDBOX_CARDS.succeeds) };
    /** The same request asked in Spanish, then without a language. */
    const both = async (body: unknown, as: string, operator?: string) => {
      const send = (headers: Record<string, string>) =>
        backend.send("POST", "/api/v1/top-ups", { as, operator, body, headers });
      return [await send(inSpanish), await send({})] as const;
    };

    const [esTmo, enTmo] = await both({ ...good, accountId: taylor.id }, TAYLOR, "TMO");
    expect(expectProblem(esTmo, 422, "paymentMethodId")).toMatchObject({
      title: "No se puede procesar",
      detail:
        "La recarga con tarjeta no está disponible para este operador: añade saldo con un cupón (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
      errors: [{ path: "paymentMethodId", message: "la recarga con tarjeta no está disponible; usa un cupón" }],
    });
    expect(expectProblem(enTmo, 422, "paymentMethodId")).toMatchObject({
      title: "Unprocessable Content",
      detail:
        "Card top-up is unavailable for this operator: add credit with a voucher instead (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
      errors: [{ path: "paymentMethodId", message: "card top-up is unavailable; use a voucher" }],
    });

    const [esEuro, enEuro] = await both({ ...good, amount: { amount: 1000, currency: "EUR" } }, ALEX);
    expect(expectProblem(esEuro, 422, "amount.currency")).toMatchObject({
      detail: "Esta cuenta está en USD.",
      errors: [{ path: "amount.currency", message: "debe ser USD" }],
    });
    expect(expectProblem(enEuro, 422, "amount.currency")).toMatchObject({
      detail: "This account is kept in USD.",
      errors: [{ path: "amount.currency", message: "must be USD" }],
    });

    const postpaid = (await backend.get("/api/v1/accounts", { as: ALEX }))
      .json<{ data: Account[] }>()
      .data.find((a) => a.type === "postpaid")!;
    const [esPostpaid, enPostpaid] = await both({ ...good, accountId: postpaid.id }, ALEX);
    expect(expectProblem(esPostpaid, 422, "accountId")).toMatchObject({
      detail: "Solo se recargan las cuentas prepago; las cuentas pospago pagan sus facturas.",
      errors: [{ path: "accountId", message: "debe ser una cuenta prepago" }],
    });
    expect(expectProblem(enPostpaid, 422, "accountId").detail).toBe(
      "Only prepaid accounts are topped up; postpaid accounts pay their bills.",
    );
  });

  it("a webhook's refusals too, zod's own sentences included", async () => {
    const event = {
      id: `evt_words_${Date.now()}`,
      type: "charge.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: { chargeId: "ch_words", reference: "not-a-uuid", amount: 300, currency: "USD" },
    };
    const body = JSON.stringify(event);
    const send = (signature: string, language?: string) =>
      backend.app.inject({
        method: "POST",
        url: WEBHOOK_PATH,
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signature,
          ...(language && { "accept-language": language }),
        },
        payload: body,
      });
    const forged = signWebhook("not-the-secret", body);
    expect(expectProblem(await send(forged, "es"), 401, SIGNATURE_HEADER)).toMatchObject({
      title: "No autenticado",
      detail: "El webhook tiene una firma que no coincide.",
      errors: [{ path: SIGNATURE_HEADER, message: "una firma que no coincide" }],
    });
    expect(expectProblem(await send(forged), 401, SIGNATURE_HEADER)).toMatchObject({
      detail: "The webhook has a signature that does not match.",
      errors: [{ path: SIGNATURE_HEADER, message: "a signature that does not match" }],
    });
    const signed = signWebhook(SECRET, body);
    const spanish = expectProblem(await send(signed, "es"), 400, "data.reference");
    const english = expectProblem(await send(signed), 400, "data.reference");
    expect(spanish.detail).toMatch(/^El cuerpo del webhook no es un evento de cobro: data\.reference: /);
    expect(english.detail).toBe(
      `The webhook body is not a charge event: data.reference: ${english.errors![0]!.message}`,
    );
    expect(spanish.errors![0]!.message).not.toBe(english.errors![0]!.message);
    // The path's own check (a gateway's name) is a key of the server's words.
    const badName = (language?: string) =>
      backend.app.inject({
        method: "POST",
        url: "/api/v1/payment-webhooks/NOT_A_NAME",
        headers: { "content-type": "application/json", ...(language && { "accept-language": language }) },
        payload: body,
      });
    expect(expectProblem(await badName("es"), 400, "gateway").errors).toEqual([
      { path: "gateway", message: "un nombre de pasarela" },
    ]);
    expect(expectProblem(await badName(), 400, "gateway").errors).toEqual([
      { path: "gateway", message: "a gateway name" },
    ]);
  });
});
