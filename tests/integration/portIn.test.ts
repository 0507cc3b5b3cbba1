import { randomInt } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accounts,
  lines,
  notifications,
  numberInventory,
  orders,
  outboxMessages,
  plans,
  portInSubmissions,
} from "../../server/db/schema";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../../server/lib/secretBox";
import { submitPortIn } from "../../server/domain/porting/submit";
import { sendDuePortIns } from "../../server/domain/porting/send";
import { portingExchangeClient, type PortingExchangeSettings } from "../../server/portingExchange/client";
import { startPortingExchangeStandIn, type PortingExchangeStandIn } from "../../server/portingExchange/standIn";
import { EXCHANGE_SIGNATURE_HEADER } from "../../server/portingExchange/protocol";
import type { Order } from "../../src/resources/orders";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { expectProblem } from "../support/problems";
import { freePort } from "../support/freePort";
import { waitFor } from "../support/waitFor";
import { listenOn, openLiveStream } from "../support/liveStream";
import { withoutUuids } from "../support/withoutUuids";

// Port-in (issue 28 item 3) against the number portability exchange's stand-in, started in-process on
// a free port and answering by its signed webhook into the backend; on both databases.
const secrets = createSecretBox(LOCAL_SECRETS_KEY);
const API_KEY = "test-porting-key";
const WEBHOOK_SECRET = "test-porting-webhook-secret";

let backend: TestBackend;
let standIn: PortingExchangeStandIn;
let settings: PortingExchangeSettings;
/** While true, the backend "misses" the exchange's answers (its webhook fails). */
let dropAnswers = false;
let droppedAnswers = 0;
let alexAccountId: string;
let planId: string;

const send = (exchangeSettings = settings, now?: Date) =>
  sendDuePortIns({ db: backend.database.db, secrets, exchange: portingExchangeClient(exchangeSettings) }, { now });

const randomDigits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join("");

/** A line of alex's on a temporary number with its port-in order in progress, queued as add-line does. */
async function portInLine(msisdn: string, given: { carrierAccount: string; transferPin: string; zip: string }) {
  const db = backend.database.db;
  const temporaryMsisdn = `+1202559${randomDigits(4)}`;
  const [line] = await db
    .insert(lines)
    .values({
      operatorCode: "ATT",
      accountId: alexAccountId,
      msisdn: temporaryMsisdn,
      iccid: `8901260${randomDigits(12)}`,
      simType: "esim",
      planId,
      status: "active",
      cycleDay: 1,
    })
    .returning({ id: lines.id });
  const at = new Date().toISOString();
  const [order] = await db
    .insert(orders)
    .values({
      operatorCode: "ATT",
      accountId: alexAccountId,
      lineId: line!.id,
      type: "port_in",
      state: "in_progress",
      details: {
        portIn: {
          msisdn,
          carrierAccount: given.carrierAccount,
          zip: given.zip,
          transferPinCipher: secrets.seal(given.transferPin),
        },
        temporaryMsisdn,
      },
      timeline: [
        { state: "acknowledged", at, byRole: "subscriber", note: null },
        { state: "in_progress", at, byRole: "system", note: null },
      ],
      requestedBy: "demo-alex",
      requestedByRole: "subscriber",
    })
    .returning({ id: orders.id });
  await db.transaction((tx) => submitPortIn(tx, order!.id));
  return { lineId: line!.id, orderId: order!.id, temporaryMsisdn };
}

async function orderAs(id: string, as = ALEX): Promise<Order> {
  const res = await backend.get(`/api/v1/orders/${id}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Order>();
}

const waitForState = (id: string, state: Order["state"]) =>
  waitFor(`order ${id} ${state}`, async () => {
    const [row] = await backend.database.db.select().from(orders).where(eq(orders.id, id));
    return row?.state === state ? row : undefined;
  });

const lineMsisdn = async (id: string) =>
  (await backend.database.db.select({ msisdn: lines.msisdn }).from(lines).where(eq(lines.id, id)))[0]!.msisdn;

const noticesOf = async (orderId: string) =>
  backend.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.link, `/orders/show/${orderId}`)))
    .orderBy(asc(notifications.createdAt));

const resubmit = (id: string, body: unknown, options: { as?: string; operator?: string } = { as: ALEX }) =>
  backend.send("POST", `/api/v1/orders/${id}/actions/resubmit-port-in`, { ...options, body });

beforeAll(async () => {
  const port = await freePort();
  settings = { url: `http://127.0.0.1:${port}`, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET, timeoutMs: 2_000 };
  backend = await startTestBackend({ portingExchange: settings });
  standIn = await startPortingExchangeStandIn({
    port,
    apiKey: API_KEY,
    webhookSecret: WEBHOOK_SECRET,
    delayMs: 5,
    deliveryAttempts: 1,
    webhook: async (body, headers) =>
      dropAnswers
        ? (droppedAnswers++, 503)
        : (await backend.app.inject({ method: "POST", url: "/api/v1/porting-webhooks", payload: body, headers }))
            .statusCode,
  });
  const db = backend.database.db;
  const [account] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.ownerUid, "demo-alex"))
    .orderBy(asc(accounts.createdAt))
    .limit(1);
  alexAccountId = account!.id;
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.operatorCode, "ATT")).limit(1);
  planId = plan!.id;
});

afterAll(async () => {
  await standIn?.close();
  await backend?.close();
});

describe("port-in through the number portability exchange", () => {
  let accepted: Awaited<ReturnType<typeof portInLine>>;

  it("accepted: the number moves to the line, the order completes, the temporary number goes, the holder is told", async () => {
    const msisdn = `+1301555${randomDigits(4)}`;
    accepted = await portInLine(msisdn, { carrierAccount: "A-1", transferPin: "1234", zip: "20001" });
    expect((await noticesOf(accepted.orderId)).map((n) => n.kind)).toEqual(["port_in.submitted"]);
    // Staff with the account's 360 open hear that its numbers changed (the temporary one is gone).
    const staff = await openLiveStream(await listenOn(backend.app), "subscribers", {
      token: await backend.tokenFor(ADMIN),
    });

    expect(await send()).toEqual({ sent: 1, failed: 0 });
    await waitForState(accepted.orderId, "completed");
    try {
      let heard = await staff.next(10_000);
      while (!heard.ids.includes(alexAccountId)) heard = await staff.next(10_000);
      expect(heard).toMatchObject({ resource: "subscribers", type: "updated" });
    } finally {
      staff.close();
    }

    expect(await lineMsisdn(accepted.lineId)).toBe(msisdn);
    // The temporary number is on no line any more (the inventory takes it back: releaseTemporaryNumber).
    const onTemporary = await backend.database.db
      .select()
      .from(lines)
      .where(eq(lines.msisdn, accepted.temporaryMsisdn));
    expect(onTemporary).toHaveLength(0);
    // ...and it rests in quarantine before anyone else gets it.
    const [stock] = await backend.database.db
      .select({ status: numberInventory.status, lineId: numberInventory.lineId })
      .from(numberInventory)
      .where(eq(numberInventory.msisdn, accepted.temporaryMsisdn));
    expect(stock).toEqual({ status: "quarantined", lineId: null });
    const order = await orderAs(accepted.orderId);
    expect(order.state).toBe("completed");
    expect(order.timeline.at(-1)).toMatchObject({
      state: "completed",
      byRole: "system",
      note: "orders.portIn.accepted",
    });
    // The sealed transfer PIN never leaves the server.
    expect(JSON.stringify(order)).not.toContain("transferPin");
    expect((await noticesOf(accepted.orderId)).map((n) => n.kind)).toEqual(["port_in.submitted", "port_in.accepted"]);
    const outbox = await backend.database.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.kind, "port_in.accepted"));
    expect(
      outbox
        .filter((m) => m.params.msisdn === msisdn)
        .map((m) => m.channel)
        .sort(),
    ).toEqual(["email", "sms"]);
  });

  it("a second answer for the same request changes nothing; an unsigned one is refused", async () => {
    const before = (await backend.database.db.select().from(orders).where(eq(orders.id, accepted.orderId)))[0]!;
    const [submission] = await backend.database.db
      .select()
      .from(portInSubmissions)
      .where(eq(portInSubmissions.orderId, accepted.orderId));
    const again = standIn.events.find((e) => e.data.reference === submission!.id)!;
    expect(again.type).toBe("port_request.accepted");
    // The exchange sends its answer again, signed: acknowledged as a duplicate.
    expect(await standIn.send(again)).toBe(200);
    const replay = await backend.app.inject({
      method: "POST",
      url: "/api/v1/porting-webhooks",
      payload: JSON.stringify({ ...again, type: "port_request.rejected" }),
      headers: { "content-type": "application/json", [EXCHANGE_SIGNATURE_HEADER]: "t=1,v1=" + "0".repeat(64) },
    });
    expectProblem(replay, 401, EXCHANGE_SIGNATURE_HEADER);
    const after = (await backend.database.db.select().from(orders).where(eq(orders.id, accepted.orderId)))[0]!;
    expect(after.updatedAt).toEqual(before.updatedAt);
    expect(after.timeline).toEqual(before.timeline);
    expect((await noticesOf(accepted.orderId)).map((n) => n.kind)).toEqual(["port_in.submitted", "port_in.accepted"]);
  });

  let pinRejected: Awaited<ReturnType<typeof portInLine>>;
  let zipRejected: Awaited<ReturnType<typeof portInLine>>;

  it("rejected for a wrong transfer PIN or ZIP, with the exchange's reason on the timeline; the line keeps its temporary number", async () => {
    // +1 202 555 0188's account at the losing carrier is 55501, PIN 2468, ZIP 20001 (the stand-in's records).
    pinRejected = await portInLine("+12025550188", { carrierAccount: "55501", transferPin: "9999", zip: "20001" });
    zipRejected = await portInLine("+12025550189", { carrierAccount: "55502", transferPin: "1357", zip: "20009" });
    expect(await send()).toEqual({ sent: 2, failed: 0 });
    await waitForState(pinRejected.orderId, "pending");
    await waitForState(zipRejected.orderId, "pending");

    const pin = await orderAs(pinRejected.orderId);
    expect(pin.timeline.at(-1)).toMatchObject({
      state: "pending",
      note: "orders.portIn.rejected.transfer_pin_mismatch",
    });
    expect(pin.details.portIn).toMatchObject({ rejection: { code: "transfer_pin_mismatch" } });
    const zip = await orderAs(zipRejected.orderId);
    expect(zip.timeline.at(-1)).toMatchObject({ state: "pending", note: "orders.portIn.rejected.zip_mismatch" });
    expect(await lineMsisdn(pinRejected.lineId)).toBe(pinRejected.temporaryMsisdn);
    const notice = (await noticesOf(pinRejected.orderId)).at(-1)!;
    expect(notice).toMatchObject({ kind: "port_in.rejected", params: { portInReason: "transfer_pin_mismatch" } });
  });

  it("resubmit: bad input is refused at its field and changes nothing; only the holder (and staff) may", async () => {
    const id = zipRejected.orderId;
    const good = { carrierAccount: "55502", transferPin: "1357", zip: "20002" };
    expectProblem(await resubmit(id, good, {}), 401);
    expectProblem(await resubmit(id, good, { as: SAM }), 404);
    expectProblem(await resubmit(id, good, { as: TAYLOR, operator: "TMO" }), 404);
    expectProblem(await resubmit(id, { ...good, transferPin: "12" }), 400, "transferPin");
    expectProblem(await resubmit(id, { ...good, zip: "2000" }), 400, "zip");
    expectProblem(await resubmit(id, { ...good, carrierAccount: "" }), 400, "carrierAccount");
    // Staff acting for the holder must say why.
    expectProblem(await resubmit(id, good, { as: ADMIN }), 400, "reason");
    expect((await orderAs(id)).state).toBe("pending");
    // Not a rejected port-in: refused (409 naming its state).
    expectProblem(await resubmit(accepted.orderId, good), 409, "state");

    const byAdmin = await resubmit(id, { ...good, reason: "holder called with the right ZIP" }, { as: ADMIN });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await noticesOf(id)).at(-1)).toMatchObject({ kind: "port_in.resubmitted", params: { byRole: "admin" } });
  });

  it("the exchange takes requests only with its API key", async () => {
    const res = await fetch(`${settings.url}/v1/port-requests`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });

  it("resubmitted with the right details, the port is accepted", async () => {
    const res = await resubmit(pinRejected.orderId, { carrierAccount: "55501", transferPin: "2468", zip: "20001" });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<Order & { order: { state: string } }>();
    expect(answer.state).toBe("in_progress");
    expect(withoutUuids(res.body)).not.toContain("2468");
    expect(answer.timeline.at(-1)).toMatchObject({ state: "in_progress", byRole: "subscriber" });
    // Stored sealed, never in clear.
    const [row] = await backend.database.db.select().from(orders).where(eq(orders.id, pinRejected.orderId));
    expect(withoutUuids(row!.details)).not.toContain("2468");

    // This one, and the one staff corrected above.
    expect(await send()).toEqual({ sent: 2, failed: 0 });
    await waitForState(pinRejected.orderId, "completed");
    await waitForState(zipRejected.orderId, "completed");
    expect(await lineMsisdn(pinRejected.lineId)).toBe("+12025550188");
    expect((await noticesOf(pinRejected.orderId)).map((n) => n.kind)).toEqual([
      "port_in.submitted",
      "port_in.rejected",
      "port_in.resubmitted",
      "port_in.accepted",
    ]);
  });

  it("while the exchange is down the port-in stays queued and is retried; nothing is lost", async () => {
    const down = { ...settings, url: `http://127.0.0.1:${await freePort()}` };
    const msisdn = `+1301555${randomDigits(4)}`;
    const queued = await portInLine(msisdn, { carrierAccount: "B-2", transferPin: "4321", zip: "20001" });
    expect(await send(down)).toEqual({ sent: 0, failed: 1 });
    const [submission] = await backend.database.db
      .select()
      .from(portInSubmissions)
      .where(eq(portInSubmissions.orderId, queued.orderId));
    expect(submission).toMatchObject({ status: "queued", attempts: 1 });
    expect(submission!.lastError).toMatch(/could not be reached|did not answer/);
    expect(submission!.lastError).not.toContain("4321");
    expect((await orderAs(queued.orderId)).state).toBe("in_progress");
    // Not due again before its backoff; once it is, the exchange (back up) takes it.
    expect(await send()).toEqual({ sent: 0, failed: 0 });
    expect(await send(settings, new Date(Date.now() + 60_000))).toEqual({ sent: 1, failed: 0 });
    await waitForState(queued.orderId, "completed");
    expect(await lineMsisdn(queued.lineId)).toBe(msisdn);
  });

  it("an answer lost on the way is asked for again after a while, and then moves the number", async () => {
    const msisdn = `+1301555${randomDigits(4)}`;
    const lost = await portInLine(msisdn, { carrierAccount: "C-3", transferPin: "5678", zip: "20001" });
    dropAnswers = true;
    try {
      expect(await send()).toEqual({ sent: 1, failed: 0 });
      const [submission] = await backend.database.db
        .select()
        .from(portInSubmissions)
        .where(eq(portInSubmissions.orderId, lost.orderId));
      await waitFor(
        "the exchange's answer, missed",
        () => droppedAnswers > 0 && standIn.events.some((e) => e.data.reference === submission!.id),
      );
    } finally {
      dropAnswers = false;
    }
    expect((await orderAs(lost.orderId)).state).toBe("in_progress");
    // Not yet: the exchange may still be answering.
    expect(await send()).toEqual({ sent: 0, failed: 0 });
    expect(await send(settings, new Date(Date.now() + 31 * 60_000))).toEqual({ sent: 1, failed: 0 });
    await waitForState(lost.orderId, "completed");
    expect(await lineMsisdn(lost.lineId)).toBe(msisdn);
  });
});
