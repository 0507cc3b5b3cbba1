import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  accountCredits,
  auditEvents,
  invoicePayments,
  invoices,
  ledgerEntries,
  lines,
  notifications,
  operators,
  paymentWebhookEvents,
} from "../../server/db/schema";
import { startSandboxGateway, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import type { Account } from "../../src/resources/accounts";
import type { Invoice } from "../../src/resources/invoices";
import type { PaymentMethod } from "../../src/resources/paymentMethods";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { freePort } from "../support/freePort";
import { waitFor } from "../support/waitFor";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import type { PaymentGateways } from "../../server/payments/gateway";
import { closeCycles } from "../../server/domain/money/cycleClose";
import { runAutopay } from "../../server/domain/invoicePayments/autopay";
import { suspendForNonPayment } from "../../server/domain/invoicePayments/nonPayment";
import { tokenizeCard } from "../support/sandboxCards";
import { expectProblem } from "../support/problems";

// Paying postpaid bills with a saved card through the sandbox gateway (issue 9 item 9).
const SECRET = "test-webhook-secret";
const API_KEY = "sk_sandbox_test";
const WEBHOOK_PATH = "/api/v1/payment-webhooks/sandbox";
let backend: TestBackend;
let sandbox: SandboxGateway;
let alex: Account;
let sam: Account;
const cards: Record<"ok" | "declined" | "late", PaymentMethod> = {} as never;
let billSeq = 0;
let gateways: PaymentGateways;

const tokenize = (number: string) => tokenizeCard(sandbox.url, number);

async function saveCard(number: string, as = ALEX): Promise<PaymentMethod> {
  const res = await backend.send("POST", "/api/v1/payment-methods", {
    as,
    body: { cardToken: await tokenize(number) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PaymentMethod>();
}

/** A fresh open bill of the account (a period of its own), written as the billing cycle would. */
async function newBill(
  account: Account,
  total: number,
  options: { status?: "issued" | "overdue"; dueOn?: string } = {},
): Promise<string> {
  billSeq++;
  const year = 1900 + billSeq;
  const [row] = await backend.database.db
    .insert(invoices)
    .values({
      operatorCode: "ATT",
      accountId: account.id,
      number: `TEST-PAY-${Date.now()}-${billSeq}`,
      periodStart: `${year}-01-01`,
      periodEnd: `${year}-01-31`,
      currency: "USD",
      subtotalAmount: total,
      taxAmount: 0,
      totalAmount: total,
      taxRateBps: 0,
      status: options.status ?? "issued",
      dueOn: options.dueOn ?? "2099-01-01",
    })
    .returning({ id: invoices.id });
  return row!.id;
}

const pay = (invoiceId: string, body: unknown, as?: string, options: { operator?: string; key?: string } = {}) =>
  backend.send("POST", `/api/v1/invoices/${invoiceId}/actions/pay`, {
    as,
    operator: options.operator,
    body,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
const showBill = async (id: string, as = ALEX) => (await backend.get(`/api/v1/invoices/${id}`, { as })).json<Invoice>();
const paymentsOf = async (invoiceId: string) =>
  (
    await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "invoices"), eq(ledgerEntries.referenceId, invoiceId)))
  ).map((e) => ({ kind: e.kind, amount: e.amount }));
async function webhooksHandled(paymentId: string) {
  await waitFor(`webhooks of ${paymentId}`, async () => {
    const sent = sandbox.events.filter((e) => e.data.reference === paymentId);
    if (sent.length < 1) return false;
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
const lastPayment = async (invoiceId: string) =>
  (
    await backend.database.db
      .select()
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, invoiceId))
      .orderBy(sql`${invoicePayments.createdAt} desc`)
      .limit(1)
  )[0]!;

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
  gateways = {
    sandbox: sandboxGateway({ url: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, chargeTimeoutMs: 1_000 }),
  };
  backend = await startTestBackend({ paymentGateways: gateways });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const [att] = await backend.database.db
    .select({ settings: operators.settings })
    .from(operators)
    .where(eq(operators.code, "ATT"));
  await backend.database.db
    .update(operators)
    .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
    .where(eq(operators.code, "ATT"));
  alex = (await backend.get("/api/v1/accounts", { as: ALEX }))
    .json<{ data: Account[] }>()
    .data.find((a) => a.type === "postpaid")!;
  sam = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data[0]!;
  cards.ok = await saveCard(SANDBOX_CARDS.succeeds);
  cards.declined = await saveCard(SANDBOX_CARDS.declined);
  cards.late = await saveCard(SANDBOX_CARDS.timesOut);
});

afterAll(async () => {
  await sandbox?.close();
  await backend?.close();
});

describe("POST /invoices/{id}/actions/pay", () => {
  it("pays with a saved card: the bill is paid with one payment entry, even when the webhook follows", async () => {
    const id = await newBill(alex, 4321);
    const res = await pay(id, { paymentMethodId: cards.ok.id }, ALEX);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: "paid", payment: { status: "succeeded" } });
    await webhooksHandled(res.json<{ payment: { id: string } }>().payment.id);
    expect(await paymentsOf(id)).toEqual([{ kind: "payment", amount: 4321 }]);
    const bill = await showBill(id);
    expect(bill.status).toBe("paid");
    expect(bill.paidAt).not.toBeNull();
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "bill.paid")));
    expect(notices.some((n) => n.link === `/invoices/show/${id}`)).toBe(true);
    // A paid bill is not paid again.
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id }, ALEX), 409, "status");
  });

  it("a declined card answers 422 naming the card, and the bill is unchanged", async () => {
    const id = await newBill(alex, 1200);
    const problem = expectProblem(await pay(id, { paymentMethodId: cards.declined.id }, ALEX), 422, "paymentMethodId");
    expect(problem.detail).toContain(`ending ${cards.declined.last4}`);
    expect(problem.detail).toContain("declined");
    await webhooksHandled((await lastPayment(id)).id);
    expect((await showBill(id)).status).toBe("issued");
    expect(await paymentsOf(id)).toEqual([]);
    const [failed] = await backend.database.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.recipientUid, "demo-alex"),
          eq(notifications.kind, "bill.payment_failed"),
          eq(notifications.link, `/invoices/show/${id}`),
        ),
      );
    expect(failed?.params).toMatchObject({ last4: cards.declined.last4, failureReason: "card_declined" });
  });

  it("a charge that times out is accepted (202) and paid once when the webhook arrives", async () => {
    const id = await newBill(alex, 900);
    const res = await pay(id, { paymentMethodId: cards.late.id }, ALEX);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ status: "issued", payment: { status: "created" } });
    // While it waits, a second payment of the same bill is refused.
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id }, ALEX), 409);
    await sandbox.releaseLate();
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    await webhooksHandled(paymentId);
    expect((await showBill(id)).status).toBe("paid");
    // The same event again changes nothing.
    const event = sandbox.events.find((e) => e.data.reference === paymentId)!;
    expect(await sandbox.send(event)).toBe(200);
    expect(await paymentsOf(id)).toEqual([{ kind: "payment", amount: 900 }]);
  });

  it("a bill is not voided while its card payment waits for the gateway (409): the capture then pays it", async () => {
    const id = await newBill(alex, 950);
    const res = await pay(id, { paymentMethodId: cards.late.id }, ALEX);
    expect(res.statusCode, res.body).toBe(202);
    const voidIt = () =>
      backend.send("POST", `/api/v1/invoices/${id}/actions/void`, { as: ADMIN, body: { reason: "billed in error" } });
    expectProblem(await voidIt(), 409, "status");
    expect((await showBill(id)).status).toBe("issued");
    await sandbox.releaseLate();
    await webhooksHandled(res.json<{ payment: { id: string } }>().payment.id);
    expect((await showBill(id)).status).toBe("paid");
    // Paid now: the action's own rule refuses it (only an open bill is voided), still 409 at status.
    expectProblem(await voidIt(), 409, "status");
    expect(await paymentsOf(id)).toEqual([{ kind: "payment", amount: 950 }]);
  });

  it("a capture for a bill closed outside the API is written down once, as a credit for the next bill, never dropped", async () => {
    const id = await newBill(alex, 975);
    const res = await pay(id, { paymentMethodId: cards.late.id }, ALEX);
    expect(res.statusCode, res.body).toBe(202);
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    // A fix made straight in the database while the charge was out: the API would have refused it.
    await backend.database.db
      .update(invoices)
      .set({ status: "void", voidReason: "written off by hand" })
      .where(eq(invoices.id, id));
    await sandbox.releaseLate();
    await webhooksHandled(paymentId);
    const event = sandbox.events.find((e) => e.data.reference === paymentId)!;
    expect(await sandbox.send(event)).toBe(200);
    expect((await showBill(id)).status).toBe("void");
    expect((await lastPayment(id)).status).toBe("succeeded");
    expect(await paymentsOf(id)).toEqual([{ kind: "payment", amount: 975 }]);
    const [entry] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, `invoice-payment-settled:${paymentId}`));
    expect(entry!.reason).toMatch(/975 kept as a credit for the next bill/);
    const credits = await backend.database.db
      .select()
      .from(accountCredits)
      .where(eq(accountCredits.sourcePaymentId, paymentId));
    expect(credits.map((c) => ({ amount: c.amount, applied: c.appliedInvoiceId }))).toEqual([
      { amount: 975, applied: null },
    ]);
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, "invoices.overpayment-credited")));
    expect(audit!.after).toMatchObject({ paymentId, amount: 975 });
    // Nobody spends it twice: it is kept for the next bill (billPartial.test.ts shows the bill deducting it).
    await backend.database.db
      .update(accountCredits)
      .set({ cancelledAt: new Date() })
      .where(eq(accountCredits.sourcePaymentId, paymentId));
  });

  it("the same Idempotency-Key replays the first answer: one charge, one entry", async () => {
    const id = await newBill(alex, 777);
    const key = `pay-bill-${Date.now()}`;
    const first = await pay(id, { paymentMethodId: cards.ok.id }, ALEX, { key });
    const again = await pay(id, { paymentMethodId: cards.ok.id }, ALEX, { key });
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await paymentsOf(id)).toEqual([{ kind: "payment", amount: 777 }]);
    const [n] = await backend.database.db
      .select({ n: count() })
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, id));
    expect(Number(n!.n)).toBe(1);
  });

  it("staff pay on the holder's behalf with a reason, and must give one", async () => {
    const id = await newBill(alex, 555);
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id }, AGENT), 400, "reason");
    expect((await showBill(id)).status).toBe("issued");
    const res = await pay(id, { paymentMethodId: cards.ok.id, reason: "Customer called to pay by phone" }, AGENT);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "paid" });
  });

  it("refuses strangers, other operators, anonymous callers and malformed bodies, changing nothing", async () => {
    const id = await newBill(alex, 333);
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id }), 401);
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id }, SAM), 404);
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id }, TAYLOR, { operator: "TMO" }), 404);
    expectProblem(await pay(id, { paymentMethodId: "not-a-uuid" }, ALEX), 400, "paymentMethodId");
    expectProblem(await pay(id, {}, ALEX), 400, "paymentMethodId");
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id, amount: 0 }, ALEX), 400, "amount");
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id, amount: 1.5 }, ALEX), 400, "amount");
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id, amount: "3.33" }, ALEX), 400, "amount");
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id, amount: 334 }, ALEX), 400, "amount");
    expectProblem(await pay(id, { paymentMethodId: cards.ok.id, card: "4242424242424242" }, ALEX), 400);
    // Someone else's saved card is not usable on this bill.
    const samCard = await saveCard(SANDBOX_CARDS.succeeds, SAM);
    expectProblem(await pay(id, { paymentMethodId: samCard.id }, ALEX), 422, "paymentMethodId");
    expect((await showBill(id)).status).toBe("issued");
    expect(await paymentsOf(id)).toEqual([]);
    const [n] = await backend.database.db
      .select({ n: count() })
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, id));
    expect(Number(n!.n)).toBe(0);
    void sam;
  });

  it("bills are paid through the bill-payment gateway even when the operator takes no card top-ups (ATT's empty setting); none configured answers 422", async () => {
    const id = await newBill(alex, 222);
    const [att] = await backend.database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, "ATT"));
    await backend.database.db
      .update(operators)
      .set({ settings: { ...att!.settings, topUpPayment: "" } })
      .where(eq(operators.code, "ATT"));
    try {
      await waitFor(
        "the empty setting is seen",
        async () =>
          (await backend.get("/api/v1/payment-gateway", { as: ALEX })).json<{ gateway: string }>().gateway === "" ||
          undefined,
      );
      const told = (await backend.get("/api/v1/payment-gateway", { as: ALEX })).json<{
        gateway: string;
        tokenizeUrl: string | null;
        billGateway: string;
        billTokenizeUrl: string;
        bankAccountTokenizeUrl: string;
      }>();
      expect(told).toEqual({
        gateway: "",
        tokenizeUrl: null,
        billGateway: "sandbox",
        billTokenizeUrl: `${sandbox.url}/v1/tokens`,
        bankAccountTokenizeUrl: `${sandbox.url}/v1/bank-account-tokens`,
      });
      // A card top-up is still refused (vouchers), while the bill is paid.
      const prepaid = (await backend.get("/api/v1/accounts", { as: ALEX }))
        .json<{ data: Account[] }>()
        .data.find((a) => a.type === "prepaid")!;
      const topUp = expectProblem(
        await backend.send("POST", "/api/v1/top-ups", {
          as: ALEX,
          body: { accountId: prepaid.id, amount: { amount: 1000, currency: "USD" }, paymentMethodId: cards.ok.id },
        }),
        422,
        "paymentMethodId",
      );
      expect(topUp.detail).toMatch(/voucher/i);
      // A card saved now goes to the bill-payment gateway (no top-up gateway to save it at).
      const saved = await saveCard(SANDBOX_CARDS.succeeds);
      const res = await pay(id, { paymentMethodId: saved.id }, ALEX);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: "paid", amountDue: { amount: 0 } });
      await backend.send("DELETE", `/api/v1/payment-methods/${saved.id}`, { as: ALEX });
      // A server with no bill-payment gateway: 422 at the method, the bill unchanged.
      const other = await backend.startAnotherInstance({ paymentGateways: gateways, billPaymentGateway: "" });
      const open = await newBill(alex, 223);
      const problem = expectProblem(
        await other.send("POST", `/api/v1/invoices/${open}/actions/pay`, {
          as: ALEX,
          body: { paymentMethodId: cards.ok.id },
        }),
        422,
        "paymentMethodId",
      );
      expect(problem.detail).toMatch(/online bill payment is unavailable/i);
      expect((await showBill(open)).status).toBe("issued");
      // One wired to a gateway it does not have: 503.
      const unwired = await backend.startAnotherInstance({
        paymentGateways: gateways,
        billPaymentGateway: "elsewhere",
      });
      expectProblem(
        await unwired.send("POST", `/api/v1/invoices/${open}/actions/pay`, {
          as: ALEX,
          body: { paymentMethodId: cards.ok.id },
        }),
        503,
      );
      expect(await paymentsOf(open)).toEqual([]);
    } finally {
      await backend.database.db
        .update(operators)
        .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
        .where(eq(operators.code, "ATT"));
      await waitFor(
        "the sandbox setting is seen",
        async () =>
          (await backend.get("/api/v1/payment-gateway", { as: ALEX })).json<{ gateway: string }>().gateway ===
            "sandbox" || undefined,
      );
    }
  });
});

describe("autopay", () => {
  it("is switched on per postpaid account with a saved card; others cannot, bad input is named", async () => {
    const setAutopay = (body: unknown, as?: string, operator?: string) =>
      backend.send("POST", `/api/v1/accounts/${alex.id}/actions/set-autopay`, { as, operator, body });
    expectProblem(await setAutopay({ enabled: true, paymentMethodId: cards.ok.id }), 401);
    expectProblem(await setAutopay({ enabled: true, paymentMethodId: cards.ok.id }, SAM), 404);
    expectProblem(await setAutopay({ enabled: true, paymentMethodId: cards.ok.id }, TAYLOR, "TMO"), 404);
    expectProblem(await setAutopay({ enabled: "yes" }, ALEX), 400, "enabled");
    const samCard = await saveCard(SANDBOX_CARDS.succeeds, SAM);
    expectProblem(await setAutopay({ enabled: true, paymentMethodId: samCard.id }, ALEX), 422, "paymentMethodId");
    expect(
      (await backend.get(`/api/v1/accounts/${alex.id}`, { as: ALEX })).json<Account>().autopayPaymentMethodId,
    ).toBeNull();
    const on = await setAutopay({ enabled: true, paymentMethodId: cards.declined.id }, ALEX);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<Account>().autopayPaymentMethodId).toBe(cards.declined.id);
  });

  it("staff acting for the holder are offered only the holder's cards, and another account's card is refused at the field", async () => {
    const samCard = await saveCard(SANDBOX_CARDS.succeeds, SAM);
    const shown = (await backend.get(`/api/v1/accounts/${alex.id}`, { as: AGENT })).json<Account>();
    expect(shown.ownerUid).toBe("demo-alex");
    // Staff read every card of the operator; the card select asks only for the holder's (the declaration's `matching`).
    const every = (await backend.get("/api/v1/payment-methods?pageSize=100", { as: AGENT })).json<{
      data: PaymentMethod[];
    }>();
    expect(every.data.map((c) => c.id)).toContain(samCard.id);
    const offered = (
      await backend.get(
        `/api/v1/payment-methods?pageSize=100&filter[ownerUid]=${encodeURIComponent(shown.ownerUid!)}`,
        { as: AGENT },
      )
    ).json<{ data: PaymentMethod[] }>();
    expect(offered.data.map((c) => c.id)).toEqual(
      expect.arrayContaining([cards.ok.id, cards.declined.id, cards.late.id]),
    );
    expect(offered.data.every((c) => c.ownerUid === "demo-alex")).toBe(true);

    // The server refuses another account's card from staff too, at the field, changing nothing.
    const setAutopay = (paymentMethodId: string) =>
      backend.send("POST", `/api/v1/accounts/${alex.id}/actions/set-autopay`, {
        as: AGENT,
        body: { enabled: true, paymentMethodId, reason: "Customer asked on the phone" },
      });
    expectProblem(await setAutopay(samCard.id), 422, "paymentMethodId");
    expect(
      (await backend.get(`/api/v1/accounts/${alex.id}`, { as: ALEX })).json<Account>().autopayPaymentMethodId,
    ).toBe(cards.declined.id);
    const id = await newBill(alex, 444);
    const charged = sandbox.charges.length;
    expectProblem(
      await pay(id, { paymentMethodId: samCard.id, reason: "Customer called to pay by phone" }, AGENT),
      422,
      "paymentMethodId",
    );
    expect(sandbox.charges.length).toBe(charged);
    expect((await showBill(id)).status).toBe("issued");
    // The holder's own card, by staff with a reason, is taken.
    const byAgent = await setAutopay(cards.declined.id);
    expect(byAgent.statusCode, byAgent.body).toBe(200);
  });

  it("pays a bill on issue; a failed payment is retried on the scaled backoff and each failure is notified", async () => {
    // Files of a worker share its process (isolate: false in vitest.config.ts): put it back after.
    onTestFinished(() => void delete process.env.PAYMENT_RETRY_UNIT_MS);
    process.env.PAYMENT_RETRY_UNIT_MS = "50";
    const future = new Date(Date.now() + 400 * 24 * 60 * 60 * 1000);
    const { issued } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: future,
    });
    expect(issued).toHaveLength(1);
    const id = issued[0]!.invoiceId;
    const row = async () => (await backend.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
    expect((await row()).autopayNextAt).not.toBeNull();
    // Three declined tries: each waits twice as long as the one before (±50 %), in units of 50 ms.
    for (let failures = 1; failures <= 3; failures++) {
      const due = (await row()).autopayNextAt!;
      await waitFor(`try ${failures} is due`, () => Promise.resolve(Date.now() >= due.getTime() || undefined));
      // The next try is scheduled from a moment inside the round: bound it by the round's start and end,
      // not by the payment's timestamp (a loaded machine put 40 ms between the two).
      const roundStart = Date.now();
      const round = await runAutopay(backend.database.db, gateways);
      const roundEnd = Date.now();
      expect(round.results).toContainEqual({ invoiceId: id, status: "failed" });
      const bill = await row();
      expect(bill.autopayAttempts).toBe(failures);
      const nextAt = bill.autopayNextAt!.getTime();
      const base = 50 * 2 ** (failures - 1);
      expect(nextAt).toBeGreaterThanOrEqual(roundStart + Math.floor(base * 0.5));
      expect(nextAt).toBeLessThanOrEqual(roundEnd + Math.ceil(base * 1.5));
      expect(bill.status).toBe("issued");
    }
    const failures = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, "bill.payment_failed"), eq(notifications.link, `/invoices/show/${id}`)));
    expect(failures).toHaveLength(3);
    // Not due yet: a round leaves it alone.
    expect(
      (await runAutopay(backend.database.db, gateways, { now: new Date((await row()).autopayNextAt!.getTime() - 1) }))
        .results,
    ).not.toContainEqual(expect.objectContaining({ invoiceId: id }));
    // The holder switches autopay to a good card: the next try pays it, once.
    expect(
      (
        await backend.send("POST", `/api/v1/accounts/${alex.id}/actions/set-autopay`, {
          as: ALEX,
          body: { enabled: true, paymentMethodId: cards.ok.id },
        })
      ).statusCode,
    ).toBe(200);
    const due = (await row()).autopayNextAt!;
    await waitFor("the next try is due", () => Promise.resolve(Date.now() >= due.getTime() || undefined));
    expect((await runAutopay(backend.database.db, gateways)).results).toContainEqual({
      invoiceId: id,
      status: "succeeded",
    });
    expect(await row()).toMatchObject({ status: "paid", autopayNextAt: null });
    expect(await paymentsOf(id)).toHaveLength(1);
    expect(
      (await runAutopay(backend.database.db, gateways, { now: new Date(Date.now() + 10 * 60_000) })).results,
    ).not.toContainEqual(expect.objectContaining({ invoiceId: id }));
    const off = await backend.send("POST", `/api/v1/accounts/${alex.id}/actions/set-autopay`, {
      as: ALEX,
      body: { enabled: false },
    });
    expect(off.json<Account>().autopayPaymentMethodId).toBeNull();
  });
});

describe("non-payment suspension", () => {
  it("suspends the lines of a bill overdue past the grace days, and paying restores them", async () => {
    const [att] = await backend.database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, "ATT"));
    await backend.database.db
      .update(operators)
      .set({ settings: { ...att!.settings, overdueGraceDays: 3 } })
      .where(eq(operators.code, "ATT"));
    const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const linesOf = () =>
      backend.database.db
        .select({ id: lines.id, status: lines.status, suspendReason: lines.suspendReason })
        .from(lines)
        .where(eq(lines.accountId, alex.id));
    expect((await linesOf()).every((l) => l.status === "active")).toBe(true);
    // Clear older overdue bills so this test controls which bills are late.
    for (const old of (
      await backend.get(`/api/v1/invoices?filter[accountId]=${alex.id}&filter[status]=overdue`, { as: ALEX })
    ).json<{ data: Invoice[] }>().data) {
      expect((await pay(old.id, { paymentMethodId: cards.ok.id }, ALEX)).statusCode).toBe(200);
    }
    // Within the grace days: nothing happens.
    const recent = await newBill(alex, 1500, { status: "overdue", dueOn: daysAgo(2) });
    expect((await suspendForNonPayment(backend.database.db)).suspended).toEqual([]);
    // Past them: the account's active lines are suspended for non_payment, once.
    const late = await newBill(alex, 2500, { status: "overdue", dueOn: daysAgo(5) });
    const first = await suspendForNonPayment(backend.database.db);
    const taken = await linesOf();
    expect(taken.length).toBeGreaterThan(0);
    expect(first.suspended.sort()).toEqual(taken.map((l) => l.id).sort());
    expect(taken.every((l) => l.status === "suspended" && l.suspendReason === "non_payment")).toBe(true);
    expect((await suspendForNonPayment(backend.database.db)).suspended).toEqual([]);
    const [notice] = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "line.suspended_non_payment")));
    expect(notice).toBeDefined();
    // Paying the late bill while another stays overdue keeps them suspended; paying the last restores them.
    expect((await pay(late, { paymentMethodId: cards.ok.id }, ALEX)).statusCode).toBe(200);
    expect((await linesOf()).every((l) => l.status === "suspended")).toBe(true);
    expect((await pay(recent, { paymentMethodId: cards.ok.id }, ALEX)).statusCode).toBe(200);
    expect((await linesOf()).every((l) => l.status === "active" && l.suspendReason === null)).toBe(true);
    const restored = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "line.restored_payment")));
    expect(restored.length).toBe(taken.length);
  });
});

describe("refusals in the request's language (issue 25)", () => {
  // Amounts as es-US writes them (the ICU that Node ships decides the symbol).
  const esMoney = (amount: number) =>
    new Intl.NumberFormat("es-US", { style: "currency", currency: "USD" }).format(amount / 100);
  const payIn = (language: string | undefined, invoiceId: string, body: unknown, key?: string) =>
    backend.send("POST", `/api/v1/invoices/${invoiceId}/actions/pay`, {
      as: ALEX,
      body,
      headers: { ...(language && { "accept-language": language }), ...(key && { "idempotency-key": key }) },
    });

  it("more than is due, a declined card and a paid bill: in Spanish for es, unchanged in English", async () => {
    const id = await newBill(alex, 2500);
    const tooMuch = { paymentMethodId: cards.ok.id, amount: 2501 };
    expect(expectProblem(await payIn("es", id, tooMuch), 400, "amount")).toMatchObject({
      title: "Solicitud no válida",
      detail: `Se paga como máximo el importe pendiente, ${esMoney(2500)}.`,
      errors: [{ path: "amount", message: `como máximo ${esMoney(2500)}` }],
    });
    expect(expectProblem(await payIn(undefined, id, tooMuch), 400, "amount")).toMatchObject({
      title: "Bad Request",
      detail: "At most the amount due, $25.00, is paid.",
      errors: [{ path: "amount", message: "at most $25.00" }],
    });

    const { last4 } = cards.declined;
    const key = `pay-words-${Date.now()}`;
    const declined = expectProblem(
      await payIn("es", id, { paymentMethodId: cards.declined.id }, key),
      422,
      "paymentMethodId",
    );
    expect(declined).toMatchObject({
      title: "No se puede procesar",
      detail: `Se rechazó la tarjeta terminada en ${last4}: no se cobró nada y la factura no cambió. Prueba con otra tarjeta o con una cuenta bancaria.`,
      errors: [{ path: "paymentMethodId", message: `se rechazó la tarjeta terminada en ${last4}` }],
    });
    // Its key replays the very answer it was given, in the language it was given in.
    const replayed = await payIn("es", id, { paymentMethodId: cards.declined.id }, key);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.json()).toEqual(declined);
    await webhooksHandled((await lastPayment(id)).id);
    expect(
      expectProblem(await payIn("en", id, { paymentMethodId: cards.declined.id }), 422, "paymentMethodId"),
    ).toMatchObject({
      detail: `The card ending ${last4} was declined: nothing was charged and the bill is unchanged. Try another card or a bank account.`,
      errors: [{ path: "paymentMethodId", message: `the card ending ${last4} was declined` }],
    });
    await webhooksHandled((await lastPayment(id)).id);

    const paid = await payIn(undefined, id, { paymentMethodId: cards.ok.id });
    expect(paid.statusCode, paid.body).toBe(200);
    await webhooksHandled((await lastPayment(id)).id);
    expect(expectProblem(await payIn("es", id, { paymentMethodId: cards.ok.id }), 409, "status")).toMatchObject({
      title: "Conflicto",
      detail: "Esta factura ya está pagada: solo se pagan facturas emitidas o vencidas.",
      errors: [{ path: "status", message: "ya está pagada" }],
    });
    expect(expectProblem(await payIn(undefined, id, { paymentMethodId: cards.ok.id }), 409, "status")).toMatchObject({
      detail: "This bill is paid: only an issued or overdue bill is paid.",
      errors: [{ path: "status", message: "is paid" }],
    });
  });
});
