import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, crmOutbox, topUps } from "../../server/db/schema";
import { deliverDueLeads } from "../../server/domain/crm/deliveryWorker";
import { settleTopUp } from "../../server/domain/topUps/settle";
import { startBitrixPeer, type BitrixPeer } from "../support/bitrixPeer";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TMO_ADMIN } from "../support/fixtures";
import { waitFor } from "../support/waitFor";
import { stringMatching } from "../support/matchers";

// Bitrix24 (issue 11): device claims, refund claims and "contact me" requests become CRM leads through an outbox
// written in the record's transaction, delivered to a local stand-in of the Bitrix24 REST webhook that
// records calls and fails on demand; retries on the operator's backoff, dead letter, admin retry.
let peer: BitrixPeer;
/** BITRIX_INTEGRATION_REQUIRED=true: the delivery worker polls every 20 ms. */
let on: TestBackend;
/** The flag off (its own database): no worker; tests drive deliveries by hand where they need them. */
let off: TestBackend;
/** Alex's prepaid line in each backend's own database. */
const alexLine = new Map<TestBackend, string>();
/** Alex's prepaid account in each backend's own database. */
const alexAccount = new Map<TestBackend, string>();

const MAX_ATTEMPTS = 3;

beforeAll(async () => {
  peer = await startBitrixPeer();
  on = await startTestBackend({ crm: { webhookUrl: peer.webhookUrl, maxAttempts: MAX_ATTEMPTS, pollIntervalMs: 20 } });
  off = await startTestBackend();
  for (const backend of [on, off]) {
    const lines = (await backend.get("/api/v1/lines", { as: ALEX })).json<{
      data: { id: string; msisdn: string }[];
    }>();
    alexLine.set(backend, lines.data.find((l) => l.msisdn === "+12025550101")!.id);
    const accounts = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{
      data: { id: string; type: string }[];
    }>();
    alexAccount.set(backend, accounts.data.find((a) => a.type === "prepaid")!.id);
  }
});
afterAll(async () => {
  await on?.close();
  await off?.close();
  await peer?.close();
});

const claim = async (backend: TestBackend, description: string) => {
  const res = await backend.send("POST", "/api/v1/device-claims", {
    as: ALEX,
    body: { lineId: alexLine.get(backend), incident: "theft", occurredOn: "2026-11-01", description },
  });
  if (description.length >= 10) expect(res.statusCode, res.body).toBe(201);
  return res;
};
/**
 * A card top-up of Alex's that the gateway did not answer in time, that Alex then cancelled, and that
 * the gateway captured after all (its late webhook settles it as cardTopUps.test.ts drives it through
 * the sandbox gateway; here settleTopUp, the webhook's own step, with no gateway wired): the money is
 * claimable. `captured: false` stops before the capture, so a claim is refused.
 */
async function cancelledTopUp(backend: TestBackend, amount: number, { captured = true } = {}): Promise<string> {
  const [row] = await backend.database.db
    .insert(topUps)
    .values({
      operatorCode: "ATT",
      accountId: alexAccount.get(backend)!,
      amount,
      currency: "USD",
      gateway: "sandbox",
      createdBy: "demo-alex",
    })
    .returning({ id: topUps.id });
  const cancel = await backend.send("POST", `/api/v1/top-ups/${row!.id}/actions/cancel`, { as: ALEX, body: {} });
  expect(cancel.statusCode, cancel.body).toBe(200);
  if (captured)
    await backend.database.db.transaction((tx) =>
      settleTopUp(
        tx,
        row!.id,
        { outcome: "succeeded", chargeId: `ch_late_${row!.id}` },
        { via: "webhook", requestId: "test" },
      ),
    );
  return row!.id;
}
const claimRefund = (backend: TestBackend, topUpId: string) =>
  backend.send("POST", `/api/v1/top-ups/${topUpId}/actions/claim-refund`, { as: ALEX, body: {} });
const outboxOf = (backend: TestBackend, sourceId: string) =>
  backend.database.db.select().from(crmOutbox).where(eq(crmOutbox.sourceId, sourceId));

describe("with the flag on", () => {
  it("a device claim becomes a Bitrix24 lead with the account holder's contact details", async () => {
    const res = await claim(on, "Phone taken from my bag on the bus.");
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json<{ id: string }>();
    const { value: row } = await waitFor("the lead delivered", async () => {
      const [r] = await outboxOf(on, id);
      return r?.status === "delivered" ? r : undefined;
    });
    expect(row.attempts).toBe(1);
    expect(row.crmLeadId).toMatch(/^\d+$/);
    const call = peer.calls.find((c) => c.fields.ORIGIN_ID === `device_claim:${id}`)!;
    expect(call.path).toBe("/rest/7/s3cr3t-webhook/crm.lead.add.json");
    expect(call.fields).toMatchObject({
      TITLE: "Device claim: theft",
      NAME: stringMatching(/Alex/),
      PHONE: [{ VALUE: stringMatching(/^\+1202555010[12]$/), VALUE_TYPE: "MOBILE" }],
      SOURCE_ID: "WEB",
      ORIGINATOR_ID: "portal-ATT",
    });
    expect(String(call.fields.COMMENTS)).toContain("Phone taken from my bag on the bus.");
  });

  it("a contact request becomes a lead too", async () => {
    const res = await on.send("POST", "/api/v1/contact-requests", {
      as: SAM,
      body: { topic: "billing", channel: "phone", message: "Please call me about my last bill." },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json<{ id: string }>();
    await waitFor("the contact lead delivered", async () => (await outboxOf(on, id))[0]?.status === "delivered");
    const call = peer.calls.find((c) => c.fields.ORIGIN_ID === `contact_request:${id}`)!;
    expect(call.fields).toMatchObject({ TITLE: "Contact me (phone): billing", NAME: stringMatching(/Sam/) });
  });

  it("a refund claim on a top-up the gateway captured becomes a lead with the amount and the holder's contact details; a refused one none", async () => {
    // Refused (the card was never charged): no lead.
    const uncharged = await cancelledTopUp(on, 800, { captured: false });
    expect((await claimRefund(on, uncharged)).statusCode).toBe(409);

    const topUpId = await cancelledTopUp(on, 1300);
    const res = await claimRefund(on, topUpId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ refund: "claimed" });
    const { value: row } = await waitFor("the refund lead delivered", async () => {
      const [r] = await outboxOf(on, topUpId);
      return r?.status === "delivered" ? r : undefined;
    });
    expect(row).toMatchObject({ sourceType: "refund_claim", attempts: 1 });
    const call = peer.calls.find((c) => c.fields.ORIGIN_ID === `refund_claim:${topUpId}`)!;
    expect(call.path).toBe("/rest/7/s3cr3t-webhook/crm.lead.add.json");
    expect(call.fields).toMatchObject({
      TITLE: "Refund claim: card top-up of $13.00",
      NAME: stringMatching(/Alex/),
      OPPORTUNITY: "13.00",
      CURRENCY_ID: "USD",
      SOURCE_ID: "WEB",
      ORIGINATOR_ID: "portal-ATT",
    });
    expect(String(call.fields.COMMENTS)).toContain(`ch_late_${topUpId}`);
    // Claimed once: a second claim is refused (409) and sends nothing more.
    expect((await claimRefund(on, topUpId)).statusCode).toBe(409);
    expect(peer.calls.filter((c) => c.fields.ORIGIN_ID === `refund_claim:${topUpId}`)).toHaveLength(1);
    expect(await outboxOf(on, uncharged)).toEqual([]);
    expect(peer.calls.filter((c) => c.fields.ORIGIN_ID === `refund_claim:${uncharged}`)).toEqual([]);
  });

  it("a refused record writes no lead: the outbox row lives and dies with the record's transaction", async () => {
    const before = await on.database.db.select().from(crmOutbox);
    const tooShort = await claim(on, "short");
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain("description");
    const notMine = await on.send("POST", "/api/v1/contact-requests", {
      as: SAM,
      body: { topic: "nope", channel: "phone", message: "Please call me about my last bill." },
    });
    expect(notMine.statusCode).toBe(400);
    expect(await on.database.db.select().from(crmOutbox)).toHaveLength(before.length);
  });
});

describe("with the flag off", () => {
  it("nothing leaves: the lead waits in the outbox while the flag-on backend delivers in the same time", async () => {
    const callsBefore = peer.calls.length;
    const quiet = await claim(off, "Screen cracked after a fall, flag off.");
    const loud = await claim(on, "Screen cracked after a fall, flag on.");
    const quietId = quiet.json<{ id: string }>().id;
    const loudId = loud.json<{ id: string }>().id;
    await waitFor("the flag-on lead delivered", async () => (await outboxOf(on, loudId))[0]?.status === "delivered");
    expect(peer.calls.slice(callsBefore).map((c) => c.fields.ORIGIN_ID)).toEqual([`device_claim:${loudId}`]);
    const [row] = await outboxOf(off, quietId);
    expect(row).toMatchObject({ status: "pending", attempts: 0, crmLeadId: null });
  });

  it("a refund claim's lead waits in the outbox too: nothing reaches Bitrix24", async () => {
    const callsBefore = peer.calls.length;
    const quietId = await cancelledTopUp(off, 600);
    expect((await claimRefund(off, quietId)).statusCode).toBe(200);
    const loudId = await cancelledTopUp(on, 600);
    expect((await claimRefund(on, loudId)).statusCode).toBe(200);
    await waitFor(
      "the flag-on refund lead delivered",
      async () => (await outboxOf(on, loudId))[0]?.status === "delivered",
    );
    expect(peer.calls.slice(callsBefore).map((c) => c.fields.ORIGIN_ID)).toEqual([`refund_claim:${loudId}`]);
    const [row] = await outboxOf(off, quietId);
    expect(row).toMatchObject({ sourceType: "refund_claim", status: "pending", attempts: 0, crmLeadId: null });
  });
});

describe("retries, dead letter and the admin's retry", () => {
  const settings = () => ({ webhookUrl: peer.webhookUrl, maxAttempts: MAX_ATTEMPTS });

  it("failures retry from 1 s doubling (jitter at its middle here), then the lead is dead; an admin sends it again", async () => {
    // Only this test's lead in the outbox: earlier ones are delivered by hand first.
    await deliverDueLeads(off.database.db, settings(), { now: new Date(Date.now() + 1000) });
    const res = await claim(off, "Stolen at the station, backoff test.");
    const id = res.json<{ id: string }>().id;
    const leadId = (await outboxOf(off, id))[0]!.id;
    peer.mode = "fail";
    const t0 = new Date(Date.now() + 1000); // after the row's own next_attempt_at
    const middle = () => 0.5;
    try {
      expect(await deliverDueLeads(off.database.db, settings(), { now: t0, random: middle })).toEqual({
        delivered: 0,
        failed: 1,
        dead: 0,
      });
      let [row] = await outboxOf(off, id);
      expect(row!.attempts).toBe(1);
      expect(row!.nextAttemptAt.getTime() - t0.getTime()).toBe(1000);
      expect(row!.lastError).toBe("HTTP 503, QUERY_LIMIT_EXCEEDED: Too many requests");
      expect(row!.lastError).not.toContain("s3cr3t"); // the webhook's secret is never recorded

      // Not due yet half a second later; due at +1 s, then waits 2 s.
      expect(
        await deliverDueLeads(off.database.db, settings(), { now: new Date(t0.getTime() + 500), random: middle }),
      ).toEqual({ delivered: 0, failed: 0, dead: 0 });
      const t1 = new Date(t0.getTime() + 1000);
      expect(await deliverDueLeads(off.database.db, settings(), { now: t1, random: middle })).toEqual({
        delivered: 0,
        failed: 1,
        dead: 0,
      });
      [row] = await outboxOf(off, id);
      expect(row!.nextAttemptAt.getTime() - t1.getTime()).toBe(2000);

      // The third failure reaches CRM_OUTBOX_MAX_ATTEMPTS: dead letter, never tried again by itself.
      const t2 = new Date(t1.getTime() + 2000);
      expect(await deliverDueLeads(off.database.db, settings(), { now: t2, random: middle })).toEqual({
        delivered: 0,
        failed: 0,
        dead: 1,
      });
      [row] = await outboxOf(off, id);
      expect(row).toMatchObject({ status: "dead", attempts: 3 });
      expect(await deliverDueLeads(off.database.db, settings(), { now: new Date(t2.getTime() + 86_400_000) })).toEqual({
        delivered: 0,
        failed: 0,
        dead: 0,
      });
    } finally {
      peer.mode = "ok";
    }

    // The admin page lists it as dead; retry (through the engine) puts it back with fresh tries, audited.
    const list = await off.get("/api/v1/crm-outbox?filter[status]=dead", { as: ADMIN });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ data: { id: string; title: string }[] }>().data.map((r) => r.id)).toContain(leadId);
    const retry = await off.send("POST", `/api/v1/crm-outbox/${leadId}/actions/retry`, { as: ADMIN, body: {} });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ status: "pending", attempts: 0 });
    const audit = await off.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, leadId)));
    expect(audit.length).toBeGreaterThan(0);
    expect(await deliverDueLeads(off.database.db, settings(), { now: new Date(Date.now() + 1000) })).toMatchObject({
      delivered: 1,
    });
    const [row] = await outboxOf(off, id);
    expect(row).toMatchObject({ status: "delivered" });

    // Delivered: nothing left to retry (409 naming the state).
    const again = await off.send("POST", `/api/v1/crm-outbox/${leadId}/actions/retry`, { as: ADMIN, body: {} });
    expect(again.statusCode).toBe(409);
  });
});

describe("the outbox admin page's API", () => {
  it("is for admins only: 401 without a token, 403 for subscribers and agents", async () => {
    expect((await on.send("GET", "/api/v1/crm-outbox")).statusCode).toBe(401);
    expect((await on.get("/api/v1/crm-outbox", { as: ALEX })).statusCode).toBe(403);
    expect((await on.get("/api/v1/crm-outbox", { as: AGENT })).statusCode).toBe(403);
    const [any] = await on.database.db.select().from(crmOutbox).limit(1);
    expect(
      (await on.send("POST", `/api/v1/crm-outbox/${any!.id}/actions/retry`, { as: AGENT, body: {} })).statusCode,
    ).toBe(403);
  });

  it("another operator's admin sees none of ATT's leads and cannot retry one", async () => {
    const [any] = await on.database.db.select().from(crmOutbox).limit(1);
    const list = await on.get("/api/v1/crm-outbox", { as: TMO_ADMIN, operator: "TMO" });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ total: number }>().total).toBe(0);
    expect((await on.get(`/api/v1/crm-outbox/${any!.id}`, { as: TMO_ADMIN, operator: "TMO" })).statusCode).toBe(404);
    expect(
      (
        await on.send("POST", `/api/v1/crm-outbox/${any!.id}/actions/retry`, {
          as: TMO_ADMIN,
          operator: "TMO",
          body: {},
        })
      ).statusCode,
    ).toBe(404);
  });

  it("malformed list parameters are refused naming the parameter", async () => {
    const res = await on.get("/api/v1/crm-outbox?filter[status]=lost", { as: ADMIN });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/problem\+json/);
    const bad = await on.get("/api/v1/crm-outbox/not-a-uuid", { as: ADMIN });
    expect(bad.statusCode).toBe(400);
  });
});
