import type { LightMyRequestResponse } from "fastify";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  invoicePayments,
  invoices,
  ledgerEntries,
  operators,
  paymentWebhookEvents,
  topUps,
} from "../../server/db/schema";
import { startSandboxGateway, type SandboxEvent, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import type { Account } from "../../src/resources/accounts";
import type { TopUp } from "../../src/resources/topUps";
import type { PaymentMethod } from "../../src/resources/paymentMethods";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { freePort } from "../support/freePort";
import { waitFor } from "../support/waitFor";
import { ALEX } from "../support/fixtures";
import { tokenizeCard } from "../support/sandboxCards";

// Issue 9, "never a second charge": a card top-up or bill payment whose first try died after the
// gateway charged (here: its settlement transaction fails, by a trigger this test adds) is retried
// with the same Idempotency-Key once the reservation counts as abandoned (aged in the database, not
// waited for). The retry finds the row written under the key and re-drives it with the same gateway
// key: exactly one charge at the sandbox, one ledger entry, the balance right. Both databases.
const SECRET = "test-webhook-secret";
const API_KEY = "sk_sandbox_test";
const WEBHOOK_PATH = "/api/v1/payment-webhooks/sandbox";
const ALEX_UID = "demo-alex";
let backend: TestBackend;
let sandbox: SandboxGateway;
let prepaid: Account;
let postpaid: Account;
const cards: Record<"ok" | "declined", PaymentMethod> = {} as never;
let billSeq = 0;
const usd = (amount: number) => ({ amount, currency: "USD" });

// Webhooks are held while a test needs the row to stay `created` (a real gateway's may be late or lost).
let holding = false;
const held: string[] = [];
async function deliverHeld() {
  holding = false;
  for (const body of held.splice(0)) expect(await sandbox.send(JSON.parse(body) as SandboxEvent)).toBe(200);
}

/** Makes every settlement of a `created` row of the table fail (the test's own trigger); answers the undo. */
async function failSettlementsOf(table: "top_ups" | "invoice_payments") {
  const { db } = backend.database;
  await db.execute(
    sql.raw(
      `create or replace function test_fail_settlement() returns trigger language plpgsql as $$ begin raise exception 'injected: the settlement fails'; end $$`,
    ),
  );
  await db.execute(
    sql.raw(
      `create trigger test_fail_settlement before update on ${table} for each row when (old.status = 'created' and new.status <> 'created') execute function test_fail_settlement()`,
    ),
  );
  return async () => void (await db.execute(sql.raw(`drop trigger if exists test_fail_settlement on ${table}`)));
}
let undoFailure: (() => Promise<void>) | undefined;

const topUp = (body: unknown, key: string) =>
  backend.send("POST", "/api/v1/top-ups", { as: ALEX, body, headers: { "idempotency-key": key } });
const pay = (invoiceId: string, body: unknown, key: string) =>
  backend.send("POST", `/api/v1/invoices/${invoiceId}/actions/pay`, {
    as: ALEX,
    body,
    headers: { "idempotency-key": key },
  });
const balance = async () =>
  (await backend.get(`/api/v1/accounts/${prepaid.id}`, { as: ALEX })).json<Account>().balance!.amount;
const entriesFor = async (type: "top-ups" | "invoices", id: string) =>
  (
    await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, type), eq(ledgerEntries.referenceId, id)))
  ).map((e) => ({ kind: e.kind, amount: e.amount }));
const chargesFor = (reference: string) => sandbox.charges.filter((c) => c.reference === reference);
const topUpsUnder = (key: string) => backend.database.db.select().from(topUps).where(eq(topUps.idempotencyKey, key));
const paymentsOf = (invoiceId: string) =>
  backend.database.db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, invoiceId));

/** Waits until every webhook the sandbox sent about a reference was handled by the backend. */
async function webhooksHandled(reference: string) {
  await waitFor(`webhooks of ${reference}`, async () => {
    const sent = sandbox.events.filter((e) => e.data.reference === reference);
    if (!sent.length) return false;
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

function expectStatus(res: LightMyRequestResponse, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  return res;
}

/** Of requests sent at once under one key: exactly one ran (`status`); each other was told to wait (409) or got its answer replayed. */
function expectOneRan(answers: LightMyRequestResponse[], status: number) {
  const ran = answers.filter((r) => r.statusCode === status && r.headers["idempotent-replayed"] !== "true");
  expect(ran, answers.map((r) => `${r.statusCode} ${r.body}`).join("\n")).toHaveLength(1);
  for (const res of answers)
    if (res !== ran[0])
      expect(res.statusCode === 409 || res.headers["idempotent-replayed"] === "true", res.body).toBe(true);
  return ran[0]!;
}

/** A fresh open bill of the postpaid account, written as the billing cycle would. */
async function newBill(total: number): Promise<string> {
  billSeq++;
  const year = 1950 + billSeq;
  const [row] = await backend.database.db
    .insert(invoices)
    .values({
      operatorCode: "ATT",
      accountId: postpaid.id,
      number: `TEST-RETRY-${Date.now()}-${billSeq}`,
      periodStart: `${year}-01-01`,
      periodEnd: `${year}-01-31`,
      currency: "USD",
      subtotalAmount: total,
      taxAmount: 0,
      totalAmount: total,
      taxRateBps: 0,
      status: "issued",
      dueOn: "2099-01-01",
    })
    .returning({ id: invoices.id });
  return row!.id;
}

beforeAll(async () => {
  sandbox = await startSandboxGateway({
    port: await freePort(),
    apiKey: API_KEY,
    webhookSecret: SECRET,
    lateSuccessMs: null,
    webhook: async (body, headers) => {
      if (holding) {
        held.push(body);
        return 200;
      }
      return (await backend.app.inject({ method: "POST", url: WEBHOOK_PATH, headers, payload: body })).statusCode;
    },
  });
  backend = await startTestBackend({
    paymentGateways: {
      sandbox: sandboxGateway({ url: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, chargeTimeoutMs: 3_000 }),
    },
  });
  const [att] = await backend.database.db
    .select({ settings: operators.settings })
    .from(operators)
    .where(eq(operators.code, "ATT"));
  await backend.database.db
    .update(operators)
    .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
    .where(eq(operators.code, "ATT"));
  const mine = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data;
  prepaid = mine.find((a) => a.type === "prepaid")!;
  postpaid = mine.find((a) => a.type === "postpaid")!;
  for (const [name, number] of [
    ["ok", SANDBOX_CARDS.succeeds],
    ["declined", SANDBOX_CARDS.declined],
  ] as const) {
    const res = await backend.send("POST", "/api/v1/payment-methods", {
      as: ALEX,
      body: { cardToken: await tokenizeCard(sandbox.url, number) },
    });
    cards[name] = expectStatus(res, 201).json<PaymentMethod>();
  }
});

afterEach(async () => {
  await undoFailure?.();
  undoFailure = undefined;
  if (held.length || holding) await deliverHeld();
});

afterAll(async () => {
  await sandbox?.close();
  await backend?.close();
});

describe("a retried card top-up is never a second charge", () => {
  it("settlement failed after the charge: the retry re-drives the same top-up with the same gateway key, one charge, one credit", async () => {
    const before = await balance();
    const key = `retry-top-up-${Date.now()}`;
    const body = {
      accountId: prepaid.id,
      amount: usd(1700),
      cardToken: await tokenizeCard(sandbox.url, SANDBOX_CARDS.succeeds),
    };
    holding = true;
    undoFailure = await failSettlementsOf("top_ups");

    expectStatus(await topUp(body, key), 500);
    const [row] = await topUpsUnder(key);
    expect(row).toMatchObject({ status: "created", idempotencyKey: key, createdBy: ALEX_UID });
    expect(chargesFor(row!.id)).toHaveLength(1); // the card was charged; the credit was not written
    expect(await balance()).toBe(before);

    await undoFailure();
    // The failed first try freed its key (the top-up row, keyed, guards it now): a retry need not wait.
    // Three retries at once: one re-drives the top-up, the others are told to wait or get its answer.
    const retries = await Promise.all([topUp(body, key), topUp(body, key), topUp(body, key)]);
    const answered = expectOneRan(retries, 201).json<TopUp>();
    expect(answered).toMatchObject({ id: row!.id, status: "completed", amount: usd(1700) });

    expect(await topUpsUnder(key)).toHaveLength(1);
    const charges = chargesFor(row!.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ idempotencyKey: `top-up:${row!.id}`, calls: 2 }); // re-driven under the same gateway key
    expect(await entriesFor("top-ups", row!.id)).toEqual([{ kind: "top_up", amount: 1700 }]);
    expect(await balance()).toBe(before + 1700);

    // Later: the answer replays; another request under the key is refused; the late webhook changes nothing.
    const replay = expectStatus(await topUp(body, key), 201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json()).toEqual(answered);
    expectStatus(await topUp({ ...body, amount: usd(1800) }, key), 422);
    await deliverHeld();
    await webhooksHandled(row!.id);
    expect(await entriesFor("top-ups", row!.id)).toEqual([{ kind: "top_up", amount: 1700 }]);
    expect(await balance()).toBe(before + 1700);
    expect(chargesFor(row!.id)).toHaveLength(1);
  });

  it("settled by the webhook before the retry: the retry answers that top-up and calls no gateway", async () => {
    const before = await balance();
    const key = `retry-top-up-webhook-${Date.now()}`;
    const body = {
      accountId: prepaid.id,
      amount: usd(650),
      cardToken: await tokenizeCard(sandbox.url, SANDBOX_CARDS.succeeds),
    };
    holding = true;
    undoFailure = await failSettlementsOf("top_ups");
    expectStatus(await topUp(body, key), 500);
    await undoFailure();
    const [row] = await topUpsUnder(key);
    await deliverHeld();
    await webhooksHandled(row!.id);
    expect(await balance()).toBe(before + 650);

    const retry = expectStatus(await topUp(body, key), 201);
    expect(retry.json()).toMatchObject({ id: row!.id, status: "completed" });
    expect(chargesFor(row!.id)).toEqual([expect.objectContaining({ calls: 1 })]);
    expect(await topUpsUnder(key)).toHaveLength(1);
    expect(await entriesFor("top-ups", row!.id)).toEqual([{ kind: "top_up", amount: 650 }]);
    expect(await balance()).toBe(before + 650);
    expect(expectStatus(await topUp(body, key), 201).headers["idempotent-replayed"]).toBe("true");
  });

  it("concurrent requests under one key: one top-up, one charge, one credit", async () => {
    const before = await balance();
    const key = `concurrent-top-up-${Date.now()}`;
    const body = { accountId: prepaid.id, amount: usd(350), paymentMethodId: cards.ok.id };
    expectOneRan(await Promise.all(Array.from({ length: 4 }, () => topUp(body, key))), 201);
    const rows = await topUpsUnder(key);
    expect(rows).toHaveLength(1);
    expect(chargesFor(rows[0]!.id)).toHaveLength(1);
    const last = expectStatus(await topUp(body, key), 201);
    expect(last.json()).toMatchObject({ id: rows[0]!.id, status: "completed" });
    await webhooksHandled(rows[0]!.id);
    expect(await entriesFor("top-ups", rows[0]!.id)).toEqual([{ kind: "top_up", amount: 350 }]);
    expect(await balance()).toBe(before + 350);
  });
});

describe("a retried bill payment is never a second charge", () => {
  it("settlement failed after the charge: the retry re-drives the same payment, one charge, the bill paid once", async () => {
    const bill = await newBill(2345);
    const key = `retry-pay-${Date.now()}`;
    const body = { paymentMethodId: cards.ok.id };
    holding = true;
    undoFailure = await failSettlementsOf("invoice_payments");

    expectStatus(await pay(bill, body, key), 500);
    const [payment] = await paymentsOf(bill);
    expect(payment).toMatchObject({ status: "created", idempotencyKey: key, createdBy: ALEX_UID });
    expect(chargesFor(payment!.id)).toHaveLength(1);

    await undoFailure();
    const retries = await Promise.all([pay(bill, body, key), pay(bill, body, key)]);
    expect(expectOneRan(retries, 200).json()).toMatchObject({
      id: bill,
      status: "paid",
      payment: { id: payment!.id, status: "succeeded" },
    });

    expect(await paymentsOf(bill)).toHaveLength(1);
    expect(chargesFor(payment!.id)).toEqual([
      expect.objectContaining({ idempotencyKey: `invoice-payment:${payment!.id}`, calls: 2 }),
    ]);
    expect(await entriesFor("invoices", bill)).toEqual([{ kind: "payment", amount: 2345 }]);

    const replay = expectStatus(await pay(bill, body, key), 200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    await deliverHeld();
    await webhooksHandled(payment!.id);
    expect(await entriesFor("invoices", bill)).toEqual([{ kind: "payment", amount: 2345 }]);
    expect(chargesFor(payment!.id)).toHaveLength(1);
  });

  it("declined, and settled by the webhook before the retry: the retry answers the first 422 naming the card, no new charge", async () => {
    const bill = await newBill(990);
    const key = `retry-pay-declined-${Date.now()}`;
    const body = { paymentMethodId: cards.declined.id };
    holding = true;
    undoFailure = await failSettlementsOf("invoice_payments");
    expectStatus(await pay(bill, body, key), 500);
    await undoFailure();
    const [payment] = await paymentsOf(bill);
    await deliverHeld();
    await webhooksHandled(payment!.id);

    const retry = expectStatus(await pay(bill, body, key), 422);
    expect(retry.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(retry.json<{ errors: { path: string; message: string }[] }>().errors).toEqual([
      { path: "paymentMethodId", message: `the card ending ${cards.declined.last4} was declined` },
    ]);
    expect(await paymentsOf(bill)).toEqual([expect.objectContaining({ id: payment!.id, status: "failed" })]);
    expect(chargesFor(payment!.id)).toEqual([expect.objectContaining({ calls: 1 })]);
    expect(await entriesFor("invoices", bill)).toEqual([]);
    const replay = expectStatus(await pay(bill, body, key), 422);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
  });

  it("concurrent requests under one key: one payment, one charge, the bill paid once", async () => {
    const bill = await newBill(1200);
    const key = `concurrent-pay-${Date.now()}`;
    const body = { paymentMethodId: cards.ok.id };
    expectOneRan(await Promise.all(Array.from({ length: 4 }, () => pay(bill, body, key))), 200);
    const rows = await paymentsOf(bill);
    expect(rows).toHaveLength(1);
    expect(chargesFor(rows[0]!.id)).toHaveLength(1);
    expect(expectStatus(await pay(bill, body, key), 200).json()).toMatchObject({
      status: "paid",
      payment: { id: rows[0]!.id },
    });
    await webhooksHandled(rows[0]!.id);
    expect(await entriesFor("invoices", bill)).toEqual([{ kind: "payment", amount: 1200 }]);
  });
});
