import { and, asc, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountCredits,
  auditEvents,
  invoiceCharges,
  invoicePayments,
  invoices,
  ledgerEntries,
  notifications,
  operators,
  paymentMethods,
  paymentWebhookEvents,
} from "../../server/db/schema";
import { startSandboxGateway, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_BANK_ACCOUNTS, SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import type { Account } from "../../src/resources/accounts";
import type { Invoice } from "../../src/resources/invoices";
import type { PaymentMethod } from "../../src/resources/paymentMethods";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { freePort } from "../support/freePort";
import { waitFor } from "../support/waitFor";
import { AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { closeCycles } from "../../server/domain/money/cycleClose";
import { tokenizeCard } from "../support/sandboxCards";
import { expectProblem } from "../support/problems";
import { signWebhook } from "../../server/payments/webhookSignature";

// Bills everyone can pay (issue 24 item 6): the bill-payment gateway with US bank accounts (ACH)
// that settle later and can be returned, partial payments, overpayments credited to the next bill.
// The operator's top-up setting stays empty here (ATT as seeded): bills do not depend on it.
const SECRET = "test-webhook-secret";
const API_KEY = "sk_sandbox_test";
const WEBHOOK_PATH = "/api/v1/payment-webhooks/sandbox";
let backend: TestBackend;
let sandbox: SandboxGateway;
let alex: Account;
let card: PaymentMethod;
let bank: PaymentMethod;
let returning: PaymentMethod;
let failing: PaymentMethod;
let billSeq = 0;

async function bankToken(accountNumber: string, routingNumber: string = SANDBOX_BANK_ACCOUNTS.routingNumber) {
  return fetch(`${sandbox.url}/v1/bank-account-tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ routingNumber, accountNumber, accountHolderType: "individual" }),
  });
}

async function saveBank(accountNumber: string, as = ALEX): Promise<PaymentMethod> {
  const tokenized = await bankToken(accountNumber);
  expect(tokenized.status).toBe(201);
  const { token } = (await tokenized.json()) as { token: string };
  const res = await backend.send("POST", "/api/v1/payment-methods", { as, body: { bankAccountToken: token } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PaymentMethod>();
}

async function newBill(total: number, options: { dueOn?: string } = {}): Promise<string> {
  billSeq++;
  const [row] = await backend.database.db
    .insert(invoices)
    .values({
      operatorCode: "ATT",
      accountId: alex.id,
      number: `TEST-BANK-${Date.now()}-${billSeq}`,
      periodStart: `${1800 + billSeq}-01-01`,
      periodEnd: `${1800 + billSeq}-01-31`,
      currency: "USD",
      subtotalAmount: total,
      taxAmount: 0,
      totalAmount: total,
      taxRateBps: 0,
      status: "issued",
      dueOn: options.dueOn ?? "2099-01-01",
    })
    .returning({ id: invoices.id });
  return row!.id;
}

const pay = (invoiceId: string, body: unknown, as?: string, headers: Record<string, string> = {}) =>
  backend.send("POST", `/api/v1/invoices/${invoiceId}/actions/pay`, { as, body, headers });
const showBill = async (id: string) => (await backend.get(`/api/v1/invoices/${id}`, { as: ALEX })).json<Invoice>();
const entriesOf = async (invoiceId: string, paymentIds: string[] = []) =>
  (
    await backend.database.db
      .select({ kind: ledgerEntries.kind, amount: ledgerEntries.amount, referenceType: ledgerEntries.referenceType })
      .from(ledgerEntries)
      .where(
        sql`(${ledgerEntries.referenceType} = 'invoices' and ${ledgerEntries.referenceId} = ${invoiceId})${
          paymentIds.length
            ? sql` or (${ledgerEntries.referenceType} = 'invoice-payment-returns' and ${ledgerEntries.referenceId} in (${sql.join(
                paymentIds.map((p) => sql`${p}`),
                sql`, `,
              )}))`
            : sql``
        }`,
      )
      .orderBy(asc(ledgerEntries.createdAt))
  ).map((e) => ({ kind: e.kind, amount: e.amount }));
const paymentRow = async (id: string) =>
  (await backend.database.db.select().from(invoicePayments).where(eq(invoicePayments.id, id)))[0]!;
async function eventsHandled(paymentId: string, n: number) {
  await waitFor(`${n} webhook(s) of ${paymentId}`, async () => {
    const sent = sandbox.events.filter((e) => e.data.reference === paymentId);
    if (sent.length < n) return false;
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

beforeAll(async () => {
  sandbox = await startSandboxGateway({
    port: await freePort(),
    apiKey: API_KEY,
    webhookSecret: SECRET,
    lateSuccessMs: null,
    achSettleMs: null,
    webhook: async (body, headers) =>
      (await backend.app.inject({ method: "POST", url: WEBHOOK_PATH, headers, payload: body })).statusCode,
  });
  backend = await startTestBackend({
    paymentGateways: {
      sandbox: sandboxGateway({ url: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, chargeTimeoutMs: 1_000 }),
    },
    billPaymentGateway: "sandbox",
  });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const [att] = await backend.database.db
    .select({ settings: operators.settings })
    .from(operators)
    .where(eq(operators.code, "ATT"));
  expect(att!.settings.topUpPayment ?? "").toBe("");
  alex = (await backend.get("/api/v1/accounts", { as: ALEX }))
    .json<{ data: Account[] }>()
    .data.find((a) => a.type === "postpaid")!;
  const saved = await backend.send("POST", "/api/v1/payment-methods", {
    as: ALEX,
    body: { cardToken: await tokenizeCard(sandbox.url, SANDBOX_CARDS.succeeds), for: "bills" },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  card = saved.json<PaymentMethod>();
  bank = await saveBank(SANDBOX_BANK_ACCOUNTS.settles);
  returning = await saveBank(SANDBOX_BANK_ACCOUNTS.returned);
  failing = await saveBank(SANDBOX_BANK_ACCOUNTS.fails);
});

afterAll(async () => {
  await sandbox?.close();
  await backend?.close();
});

describe("bank accounts (ACH) as payment methods", () => {
  it("the sandbox's tokenizer checks the routing number by its ABA checksum and the account number", async () => {
    // 110000001: 3·(1+0+0) + 7·(1+0+0) + (0+0+1) = 11, not a multiple of 10.
    const bad = await bankToken(SANDBOX_BANK_ACCOUNTS.settles, "110000001");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "routingNumber" });
    expect((await bankToken(SANDBOX_BANK_ACCOUNTS.settles, "12345678")).status).toBe(400);
    const badAccount = await bankToken("12");
    expect(badAccount.status).toBe(400);
    expect(await badAccount.json()).toMatchObject({ field: "accountNumber" });
    // A real bank's routing number passes and names the bank.
    const chase = await bankToken(SANDBOX_BANK_ACCOUNTS.settles, "021000021");
    expect(chase.status).toBe(201);
    expect(await chase.json()).toMatchObject({ bankAccount: { bankName: "JPMorgan Chase", last4: "6789" } });
  });

  it("is saved from the gateway's token with its bank and last 4 only; the account number is never stored", async () => {
    expect(bank).toMatchObject({
      type: "bank_account",
      bankName: "Sandbox Test Bank",
      last4: "6789",
      accountHolderType: "individual",
      brand: null,
      expMonth: null,
    });
    const [row] = await backend.database.db.select().from(paymentMethods).where(eq(paymentMethods.id, bank.id));
    expect(row!.gatewayMethodId).toMatch(/^ba_/);
    const dump =
      JSON.stringify(await backend.database.db.select().from(paymentMethods)) +
      JSON.stringify(
        await backend.database.db.select().from(auditEvents).where(eq(auditEvents.targetType, "payment-methods")),
      );
    expect(dump).not.toContain(SANDBOX_BANK_ACCOUNTS.settles);
    expect(dump).not.toContain(SANDBOX_BANK_ACCOUNTS.returned);
  });

  it("refuses anonymous callers, staff, malformed and used tokens; another subscriber or operator never sees it", async () => {
    const { token } = (await (await bankToken(SANDBOX_BANK_ACCOUNTS.settles)).json()) as { token: string };
    expectProblem(await backend.send("POST", "/api/v1/payment-methods", { body: { bankAccountToken: token } }), 401);
    expectProblem(
      await backend.send("POST", "/api/v1/payment-methods", { as: AGENT, body: { bankAccountToken: token } }),
      403,
    );
    expectProblem(
      await backend.send("POST", "/api/v1/payment-methods", {
        as: ALEX,
        body: { bankAccountToken: SANDBOX_BANK_ACCOUNTS.settles },
      }),
      400,
      "bankAccountToken",
    );
    expectProblem(
      await backend.send("POST", "/api/v1/payment-methods", {
        as: ALEX,
        body: { bankAccountToken: token, cardToken: token },
      }),
      400,
      "cardToken",
    );
    expectProblem(
      await backend.send("POST", "/api/v1/payment-methods", {
        as: ALEX,
        body: { bankAccountToken: token, routingNumber: "110000000" },
      }),
      400,
    );
    expectProblem(
      await backend.send("POST", "/api/v1/payment-methods", {
        as: ALEX,
        body: { bankAccountToken: "btok_unknown_token" },
      }),
      422,
      "bankAccountToken",
    );
    expectProblem(await backend.get(`/api/v1/payment-methods/${bank.id}`, { as: SAM }), 404);
    expectProblem(await backend.get(`/api/v1/payment-methods/${bank.id}`, { as: TAYLOR, operator: "TMO" }), 404);
    expect((await backend.get(`/api/v1/payment-methods/${bank.id}`, { as: AGENT })).statusCode).toBe(200);
    // Bank accounts pay bills, never top-ups.
    const prepaid = (await backend.get("/api/v1/accounts", { as: ALEX }))
      .json<{ data: Account[] }>()
      .data.find((a) => a.type === "prepaid")!;
    expect(
      (
        await backend.send("POST", "/api/v1/top-ups", {
          as: ALEX,
          body: { accountId: prepaid.id, amount: { amount: 1000, currency: "USD" }, paymentMethodId: bank.id },
        })
      ).statusCode,
    ).toBe(422);
  });
});

describe("paying a bill from a bank account", () => {
  it("answers pending (202); the signed webhook settles it later, once, however often it is replayed", async () => {
    const id = await newBill(12000);
    const res = await pay(id, { paymentMethodId: bank.id }, ALEX);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({
      status: "issued",
      amountDue: { amount: 12000 },
      amountPending: { amount: 12000 },
      payment: { status: "created", methodType: "bank_account", amount: { amount: 12000 } },
    });
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    // While it is on its way nothing more is due: a second payment is refused, changing nothing.
    expectProblem(await pay(id, { paymentMethodId: card.id }, ALEX), 409);
    expect(await sandbox.settleAch()).toBeGreaterThanOrEqual(1);
    await eventsHandled(paymentId, 1);
    expect(await showBill(id)).toMatchObject({
      status: "paid",
      amountPaid: { amount: 12000 },
      amountDue: { amount: 0 },
      amountPending: { amount: 0 },
    });
    const event = sandbox.events.find((e) => e.data.reference === paymentId)!;
    expect(await sandbox.send(event)).toBe(200);
    // The same settlement under a new event id (a gateway's retry) changes nothing either.
    const again = JSON.stringify({ ...event, id: `${event.id}_again` });
    const resent = await backend.app.inject({
      method: "POST",
      url: WEBHOOK_PATH,
      headers: { "content-type": "application/json", "x-gateway-signature": signWebhook(SECRET, again) },
      payload: again,
    });
    expect(resent.statusCode).toBe(200);
    expect(await entriesOf(id)).toEqual([{ kind: "payment", amount: 12000 }]);
  });

  it("a returned bank payment reopens the bill (amount due restored), is notified, and the ledger answers it with a new entry", async () => {
    const past = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const id = await newBill(8000, { dueOn: past });
    await backend.database.db.update(invoices).set({ status: "overdue" }).where(eq(invoices.id, id));
    const res = await pay(id, { paymentMethodId: returning.id }, ALEX);
    expect(res.statusCode, res.body).toBe(202);
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    await sandbox.settleAch();
    await eventsHandled(paymentId, 1);
    expect((await showBill(id)).status).toBe("paid");
    // The bank sends it back.
    await sandbox.settleAch();
    await eventsHandled(paymentId, 2);
    expect(sandbox.events.filter((e) => e.data.reference === paymentId).map((e) => e.type)).toEqual([
      "charge.succeeded",
      "charge.returned",
    ]);
    expect(await showBill(id)).toMatchObject({
      status: "overdue",
      paidAt: null,
      amountPaid: { amount: 0 },
      amountDue: { amount: 8000 },
    });
    expect(await paymentRow(paymentId)).toMatchObject({ status: "returned", failureReason: "R01" });
    // Append-only: the payment entry stays, a charge answers it, collected by the reopened bill so no cycle bills it again.
    expect(await entriesOf(id, [paymentId])).toEqual([
      { kind: "payment", amount: 8000 },
      { kind: "charge", amount: 8000 },
    ]);
    const [returnEntry] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, `invoice-payment-returned:${paymentId}`));
    const [collected] = await backend.database.db
      .select()
      .from(invoiceCharges)
      .where(eq(invoiceCharges.ledgerEntryId, returnEntry!.id));
    expect(collected!.invoiceId).toBe(id);
    const [notice] = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, "bill.payment_returned"), eq(notifications.link, `/invoices/show/${id}`)));
    expect(notice!.params).toMatchObject({ paid: 8000, last4: returning.last4, returnCode: "R01" });
    // A replayed return changes nothing.
    const returned = sandbox.events.find((e) => e.data.reference === paymentId && e.type === "charge.returned")!;
    expect(await sandbox.send(returned)).toBe(200);
    expect(await entriesOf(id, [paymentId])).toHaveLength(2);
    // The bill is paid again, by card this time.
    const paid = await pay(id, { paymentMethodId: card.id }, ALEX);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: "paid", amountDue: { amount: 0 } });
  });

  it("a bank debit that fails at settlement leaves the bill as it was and tells the holder", async () => {
    const id = await newBill(3000);
    const res = await pay(id, { paymentMethodId: failing.id }, ALEX);
    expect(res.statusCode).toBe(202);
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    await sandbox.settleAch();
    await eventsHandled(paymentId, 1);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "failed", failureReason: "R02" });
    expect(await showBill(id)).toMatchObject({
      status: "issued",
      amountDue: { amount: 3000 },
      amountPending: { amount: 0 },
    });
    expect(await entriesOf(id)).toEqual([]);
    const [failed] = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, "bill.payment_failed"), eq(notifications.link, `/invoices/show/${id}`)));
    expect(failed!.params).toMatchObject({ methodType: "bank_account", last4: failing.last4 });
  });

  it("another subscriber, another operator and anonymous callers cannot pay with it or see the bill", async () => {
    const id = await newBill(1000);
    expectProblem(await pay(id, { paymentMethodId: bank.id }), 401);
    expectProblem(await pay(id, { paymentMethodId: bank.id }, SAM), 404);
    expectProblem(
      await backend.send("POST", `/api/v1/invoices/${id}/actions/pay`, {
        as: TAYLOR,
        operator: "TMO",
        body: { paymentMethodId: bank.id },
      }),
      404,
    );
    expect(await showBill(id)).toMatchObject({ status: "issued", amountPending: { amount: 0 } });
  });
});

describe("partial payments", () => {
  it("an amount lowers what is due and the bill stays open until nothing is left; then it is paid", async () => {
    const id = await newBill(2500);
    const part = await pay(id, { paymentMethodId: card.id, amount: 1000 }, ALEX);
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({
      status: "issued",
      amountPaid: { amount: 1000 },
      amountDue: { amount: 1500 },
      payment: { amount: { amount: 1000 } },
    });
    const [received] = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, "bill.payment_received"), eq(notifications.link, `/invoices/show/${id}`)));
    expect(received!.params).toMatchObject({ paid: 1000, left: 1500 });
    // More than is due: 400 at amount, nothing charged.
    const charged = sandbox.charges.length;
    expectProblem(await pay(id, { paymentMethodId: card.id, amount: 1501 }, ALEX), 400, "amount");
    expect(sandbox.charges.length).toBe(charged);
    // Without an amount the rest is paid.
    const rest = await pay(id, { paymentMethodId: card.id }, ALEX);
    expect(rest.json()).toMatchObject({
      status: "paid",
      amountPaid: { amount: 2500 },
      amountDue: { amount: 0 },
      payment: { amount: { amount: 1500 } },
    });
    expect(await entriesOf(id)).toEqual([
      { kind: "payment", amount: 1000 },
      { kind: "payment", amount: 1500 },
    ]);
  });

  it("racing payments never pay more than the bill: one pays, the others are refused, money counted once", async () => {
    const id = await newBill(4000);
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        pay(id, { paymentMethodId: card.id, amount: 3000 }, ALEX, { "idempotency-key": `race-${id}-${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 400 || s === 409)).toBe(true);
    expect(await showBill(id)).toMatchObject({
      status: "issued",
      amountPaid: { amount: 3000 },
      amountDue: { amount: 1000 },
    });
    // And the same key again replays the first answer, charging nothing.
    const charged = sandbox.charges.length;
    const winner = answers.findIndex((a) => a.statusCode === 200);
    const replay = await pay(id, { paymentMethodId: card.id, amount: 3000 }, ALEX, {
      "idempotency-key": `race-${id}-${winner}`,
    });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(sandbox.charges.length).toBe(charged);
    const full = await Promise.all([0, 1, 2].map(() => pay(id, { paymentMethodId: card.id }, ALEX)));
    expect(full.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(await entriesOf(id)).toEqual([
      { kind: "payment", amount: 3000 },
      { kind: "payment", amount: 1000 },
    ]);
  });
});

describe("overpayment", () => {
  it("a payment captured after its bill was closed becomes a credit that the next bill deducts as its own line", async () => {
    const late = await backend.send("POST", "/api/v1/payment-methods", {
      as: ALEX,
      body: { cardToken: await tokenizeCard(sandbox.url, SANDBOX_CARDS.timesOut), for: "bills" },
    });
    const id = await newBill(1900);
    const res = await pay(id, { paymentMethodId: late.json<PaymentMethod>().id }, ALEX);
    expect(res.statusCode).toBe(202);
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    // Settled meanwhile by other means (staff wrote it off outside the API): the capture finds nothing due.
    await backend.database.db
      .update(invoices)
      .set({ status: "void", voidReason: "paid at a store" })
      .where(eq(invoices.id, id));
    await sandbox.releaseLate();
    await eventsHandled(paymentId, 1);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "succeeded", appliedAmount: 0 });
    const [credit] = await backend.database.db
      .select()
      .from(accountCredits)
      .where(eq(accountCredits.sourcePaymentId, paymentId));
    expect(credit).toMatchObject({ amount: 1900, appliedInvoiceId: null });

    const { issued } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: new Date(Date.now() + 200 * 24 * 60 * 60 * 1000),
    });
    expect(issued).toHaveLength(1);
    const next = await showBill(issued[0]!.invoiceId);
    expect(next.credit.amount).toBe(1900);
    expect(next.total.amount).toBe(next.subtotal.amount + next.tax.amount - 1900);
    expect(next.amountDue.amount).toBe(next.total.amount);
    expect(next.previousTotal).not.toBeNull();
    const [used] = await backend.database.db.select().from(accountCredits).where(eq(accountCredits.id, credit!.id));
    expect(used!.appliedInvoiceId).toBe(next.id);
    // Not deducted twice: the bill after that has no credit.
    const { issued: after } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: new Date(Date.now() + 232 * 24 * 60 * 60 * 1000),
    });
    expect((await showBill(after[0]!.invoiceId)).credit.amount).toBe(0);
  });
});

describe("a returned bank payment whose credit a later bill already used", () => {
  it("the used credit is owed again on the next bill (a charge of its own, billed once), the holder is told, a replayed return changes nothing", async () => {
    const id = await newBill(2100);
    const res = await pay(id, { paymentMethodId: returning.id }, ALEX);
    expect(res.statusCode, res.body).toBe(202);
    const paymentId = res.json<{ payment: { id: string } }>().payment.id;
    // Closed meanwhile by other means: the settled payment finds nothing due and becomes a credit.
    await backend.database.db
      .update(invoices)
      .set({ status: "void", voidReason: "paid at a store" })
      .where(eq(invoices.id, id));
    await sandbox.settleAch();
    await eventsHandled(paymentId, 1);
    const [credit] = await backend.database.db
      .select()
      .from(accountCredits)
      .where(eq(accountCredits.sourcePaymentId, paymentId));
    expect(credit).toMatchObject({ amount: 2100, appliedInvoiceId: null });
    // The next bill deducts it.
    const day = 24 * 60 * 60 * 1000;
    const { issued } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: new Date(Date.now() + 420 * day),
    });
    const used = await showBill(issued[0]!.invoiceId);
    expect(used.credit.amount).toBe(2100);

    // Then the bank sends the payment back.
    await sandbox.settleAch();
    await eventsHandled(paymentId, 2);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "returned" });
    // The bill that used the credit stays as issued; the voided bill stays void; the credit stays used.
    expect((await showBill(used.id)).credit.amount).toBe(2100);
    expect((await showBill(id)).status).toBe("void");
    const [after] = await backend.database.db.select().from(accountCredits).where(eq(accountCredits.id, credit!.id));
    expect(after).toMatchObject({ appliedInvoiceId: used.id, cancelledAt: null });
    // The ledger answers the payment in full: 2,100 in, 2,100 owed again, not yet billed.
    const answered = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "invoice-payment-returns"), eq(ledgerEntries.referenceId, paymentId)));
    expect(answered.map((e) => [e.kind, e.amount, e.idempotencyKey])).toEqual([
      ["charge", 2100, `invoice-payment-returned-credit:${paymentId}`],
    ]);
    expect(
      await backend.database.db.select().from(invoiceCharges).where(eq(invoiceCharges.ledgerEntryId, answered[0]!.id)),
    ).toEqual([]);
    const told = await backend.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.link, `/invoices/show/${id}`));
    expect(told.map((n) => n.kind)).toEqual(["bill.payment_returned_credit_used"]);
    expect(told[0]!.params).toMatchObject({ paid: 2100, owed: 2100, creditBill: used.number, returnCode: "R01" });

    // A replayed return changes nothing.
    const returned = sandbox.events.find((e) => e.data.reference === paymentId && e.type === "charge.returned")!;
    expect(await sandbox.send(returned)).toBe(200);
    const again = await backend.database.db
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "invoice-payment-returns"), eq(ledgerEntries.referenceId, paymentId)));
    expect(again).toHaveLength(1);
    expect(
      await backend.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.link, `/invoices/show/${id}`)),
    ).toHaveLength(1);

    // The next bill asks for it, once.
    const { issued: next } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: new Date(Date.now() + 452 * day),
    });
    const owed = await showBill(next[0]!.invoiceId);
    expect(owed.items.filter((i) => i.description.startsWith("Credit from the returned bank payment"))).toEqual([
      expect.objectContaining({ kind: "other", amount: { amount: 2100, currency: "USD" } }),
    ]);
    const { issued: later } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: new Date(Date.now() + 484 * day),
    });
    expect(
      (await showBill(later[0]!.invoiceId)).items.filter((i) => i.description.startsWith("Credit from the returned")),
    ).toEqual([]);
  });
});

describe("itemized bills", () => {
  it("a closed cycle itemizes the plan, add-ons and overage by type and zone; the PDF shows them and last cycle's total", async () => {
    const lineId = (await backend.get(`/api/v1/lines?filter[accountId]=${alex.id}`, { as: ALEX })).json<{
      data: { id: string }[];
    }>().data[0]!.id;
    const { postLedgerEntry } = await import("../../server/domain/money/ledger");
    await backend.database.db.transaction(async (tx) => {
      const base = {
        operatorCode: "ATT",
        accountId: alex.id,
        kind: "charge" as const,
        currency: "USD",
        actorUid: null,
        actorRole: "system" as const,
      };
      await postLedgerEntry(tx, {
        ...base,
        amount: 1200,
        reason: "2 GB of data beyond the allowance in Europe",
        idempotencyKey: `test-overage-eu-${lineId}`,
        reference: { type: "overage", id: `${lineId}:data:europe` },
      });
      await postLedgerEntry(tx, {
        ...base,
        amount: 300,
        reason: "30 minutes of calls beyond the allowance",
        idempotencyKey: `test-overage-voice-${lineId}`,
        reference: { type: "overage", id: `${lineId}:voice:home` },
      });
      await postLedgerEntry(tx, {
        ...base,
        amount: 1000,
        reason: "Renewal of add-on Data pass 5 GB",
        idempotencyKey: `test-add-on-${lineId}`,
        reference: { type: "add_on_purchase", id: lineId },
      });
    });
    const { issued } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [alex.id],
      asOf: new Date(Date.now() + 300 * 24 * 60 * 60 * 1000),
    });
    const bill = await showBill(issued[0]!.invoiceId);
    expect(bill.items.map((i) => [i.kind, i.usageType, i.roamingZone, i.amount.amount])).toEqual(
      expect.arrayContaining([
        ["plan", null, null, 6500],
        ["overage", "data", "europe", 1200],
        ["overage", "voice", "home", 300],
        ["add_on", null, null, 1000],
      ]),
    );
    expect(bill.previousTotal).not.toBeNull();
    const pdf = await backend.get(`/api/v1/invoices/${bill.id}/pdf`, { as: ALEX });
    expect(pdf.statusCode).toBe(200);
    const { pdfText } = await import("../support/pdfText");
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain("Data beyond the allowance (Europe)");
    expect(text).toContain("Calls beyond the allowance (at home)");
    expect(text).toContain("Add-ons");
    expect(text).toContain("Last bill");
    expect(text).toContain(`$${(bill.previousTotal!.amount / 100).toFixed(2)}`);
  });
});
