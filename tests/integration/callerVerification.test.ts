import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/resources/api";
import {
  accounts,
  auditEvents,
  callerVerificationAttempts,
  callerVerificationCodes,
  callerVerifications,
  lines,
  notifications,
  outboxMessages,
  paymentMethods,
} from "../../server/db/schema";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { expectProblem } from "../support/problems";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { ADMIN, AGENT, ALEX, SAM, TMO_AGENT } from "../support/fixtures";
import { expireVerification, verifyCallerByOverride } from "../support/callerVerification";
import { withoutUuids } from "../support/withoutUuids";

// Verify before disclosing (issue 27 item 2): an agent reads a subscriber's records (bills, usage,
// ledger, orders, payment methods, files, lines, identity, notices) and acts on them only once the
// caller is verified to them, for 30 minutes; admins may override with a reason. On TEST_DB.
let backend: TestBackend;
const db = () => backend.database.db;

/** Alex's records, one of each kind, found as the admin (who is never asked to verify). */
const alex = {
  accountId: "",
  postpaidAccountId: "",
  lineId: "",
  msisdn: "",
  invoiceId: "",
  usageRecordId: "",
  usageLineId: "",
  ledgerEntryId: "",
  orderId: "",
  paymentMethodId: "",
  fileId: "",
};
let samAccountId = "";

const first = async (url: string) => {
  const res = await backend.get(url, { as: ADMIN });
  expect(res.statusCode, res.body).toBe(200);
  const row = res.json<{ data: { id: string }[] }>().data[0];
  expect(row, url).toBeDefined();
  return row!.id;
};

beforeAll(async () => {
  backend = await startTestBackend({ fileMaxBytes: 1 << 20 });
  const owned = await db()
    .select({ id: accounts.id, type: accounts.type, ownerUid: accounts.ownerUid })
    .from(accounts)
    .where(sql`${accounts.ownerUid} in ('demo-alex', 'demo-sam')`);
  alex.postpaidAccountId = owned.find((a) => a.ownerUid === "demo-alex" && a.type === "postpaid")!.id;
  alex.accountId = alex.postpaidAccountId;
  samAccountId = owned.find((a) => a.ownerUid === "demo-sam")!.id;
  const [line] = await db()
    .select({ id: lines.id, msisdn: lines.msisdn })
    .from(lines)
    .where(and(eq(lines.accountId, alex.accountId), eq(lines.status, "active")))
    .limit(1);
  alex.lineId = line!.id;
  alex.msisdn = line!.msisdn;
  // An order of Alex's: he suspends a line on request and turns it back on.
  for (const [name, body] of [
    ["suspend", { suspendReason: "request" }],
    ["restore", {}],
  ] as const) {
    const res = await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/${name}`, { as: ALEX, body });
    expect(res.statusCode, res.body).toBe(200);
  }
  const upload = await backend.send("POST", "/api/v1/files?name=id.pdf&purpose=attachment", {
    as: ALEX,
    body: SAMPLE_FILES.pdf,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(upload.statusCode, upload.body).toBe(201);
  alex.fileId = upload.json<{ id: string }>().id;
  // A card Alex saved (the gateway's part is not what this suite is about).
  const [card] = await db()
    .insert(paymentMethods)
    .values({
      operatorCode: "ATT",
      ownerUid: "demo-alex",
      gateway: "sandbox",
      gatewayMethodId: "pm_caller_verification",
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2030,
    })
    .returning({ id: paymentMethods.id });
  alex.paymentMethodId = card!.id;
  alex.invoiceId = await first(`/api/v1/invoices?filter[accountId]=${alex.accountId}`);
  const ingest = await backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { authorization: `ApiKey ${LOCAL_INGEST_KEY}`, "x-operator": "ATT" },
    payload: {
      records: [
        {
          id: `h-${randomUUID()}`,
          msisdn: alex.msisdn,
          type: "data",
          startedAt: new Date(Date.now() - 60_000).toISOString(),
          quantity: 5,
        },
      ],
    },
  });
  expect(ingest.statusCode, ingest.body).toBe(200);
  alex.usageLineId = alex.lineId;
  alex.usageRecordId = await first(`/api/v1/usage-records?filter[lineId]=${alex.usageLineId}`);
  alex.ledgerEntryId = await first(`/api/v1/ledger-entries?filter[accountId]=${alex.accountId}`);
  alex.orderId = await first(`/api/v1/orders?filter[accountId]=${alex.accountId}`);
});
afterAll(async () => {
  await backend?.close();
});
beforeEach(async () => {
  await db().delete(callerVerifications);
  await db().delete(callerVerificationAttempts);
  await db().delete(callerVerificationCodes);
});

/** Every endpoint of Alex's records an agent may reach once verified: show (one record) and a list filtered to him. */
const endpoints = () => [
  { show: `/api/v1/invoices/${alex.invoiceId}`, list: `/api/v1/invoices?filter[accountId]=${alex.accountId}` },
  {
    show: `/api/v1/usage-records/${alex.usageRecordId}`,
    list: `/api/v1/usage-records?filter[lineId]=${alex.usageLineId}`,
  },
  {
    show: `/api/v1/ledger-entries/${alex.ledgerEntryId}`,
    list: `/api/v1/ledger-entries?filter[accountId]=${alex.accountId}`,
  },
  { show: `/api/v1/orders/${alex.orderId}`, list: `/api/v1/orders?filter[accountId]=${alex.accountId}` },
  {
    show: `/api/v1/payment-methods/${alex.paymentMethodId}`,
    list: `/api/v1/payment-methods?filter[ownerUid]=demo-alex`,
  },
  { show: `/api/v1/files/${alex.fileId}`, list: `/api/v1/files?filter[ownerUid]=demo-alex` },
  { show: `/api/v1/files/${alex.fileId}/content`, list: null },
  { show: `/api/v1/lines/${alex.lineId}`, list: `/api/v1/lines?filter[msisdn]=${encodeURIComponent(alex.msisdn)}` },
  { show: `/api/v1/accounts/${alex.accountId}`, list: null },
  { show: `/api/v1/subscribers/${alex.accountId}/identity`, list: null },
  { show: `/api/v1/subscribers/${alex.accountId}/notifications`, list: null },
];

const notVerified = (url: string) =>
  backend.get(url, { as: AGENT }).then((res) => {
    const problem = expectProblem(res, 403);
    expect(problem.type, url).toBe(PROBLEM_TYPES.callerNotVerified);
    expect(problem.detail).toMatch(/verify the caller/i);
  });

const answers = async (url: string) => {
  const res = await backend.get(url, { as: AGENT });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  return res;
};

async function expectLocked() {
  for (const { show, list } of endpoints()) {
    await notVerified(show);
    if (list) await notVerified(list);
  }
}

async function expectOpen() {
  for (const { show, list } of endpoints()) {
    await answers(show);
    if (list) {
      const page = (await answers(list)).json<{ data: unknown[]; total: number }>();
      expect(page.total, list).toBeGreaterThan(0);
    }
  }
}

const verify = (as: string, accountId: string, body: unknown) =>
  backend.send("POST", `/api/v1/subscribers/${accountId}/actions/verify-caller`, { as, body });

const auditOf = (action: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.targetId, "demo-alex")));

async function setPin(pin: string) {
  const res = await backend.send("PUT", "/api/v1/me/care-pin", { as: ALEX, body: { pin } });
  expect(res.statusCode, res.body).toBe(200);
}

describe("before the caller is verified", () => {
  it("every record of the subscriber answers 403 caller-not-verified to an agent; admins read them", async () => {
    await expectLocked();
    for (const { show } of endpoints()) {
      const res = await backend.get(show, { as: ADMIN });
      expect(res.statusCode, show).toBe(200);
    }
  });

  it("unfiltered lists answer only verified callers' records (none yet)", async () => {
    for (const url of ["/api/v1/invoices", "/api/v1/lines", "/api/v1/orders", "/api/v1/ledger-entries"]) {
      const page = (await answers(url)).json<{ total: number }>();
      expect(page.total, url).toBe(0);
    }
  });

  it("actions on the subscriber's records are refused the same way, and nothing changes", async () => {
    const res = await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/suspend`, {
      as: AGENT,
      body: { suspendReason: "lost", reason: "Caller says the phone is lost" },
    });
    expect(expectProblem(res, 403).type).toBe(PROBLEM_TYPES.callerNotVerified);
    const [line] = await db().select({ status: lines.status }).from(lines).where(eq(lines.id, alex.lineId));
    expect(line!.status).toBe("active");
  });

  it("the 360's head answers with the name, the contact details masked and verifiedUntil null", async () => {
    const res = await answers(`/api/v1/subscribers/${alex.accountId}`);
    const subscriber = res.json<{ name: string; email: string; phone: string | null; verifiedUntil: null }>();
    expect(subscriber.name).toBe("Alex Rivera");
    expect(subscriber.email).toBe("a•••@example.com");
    expect(subscriber.phone).toMatch(/^•••\d{4}$/);
    expect(subscriber.verifiedUntil).toBeNull();
    const search = (await answers(`/api/v1/subscribers?q=alex`)).json<{ data: { email: string }[] }>();
    expect(search.data.every((s) => !s.email || s.email.includes("•••"))).toBe(true);
    const admin = (await backend.get(`/api/v1/subscribers/${alex.accountId}`, { as: ADMIN })).json<{
      email: string;
    }>();
    expect(admin.email).toBe("alex@example.com");
  });
});

describe("once verified, for 30 minutes", () => {
  it("an admin's override opens every record to that agent, audited with the reason, and Alex is told", async () => {
    await verifyCallerByOverride(backend, alex.accountId, "demo-agent");
    await expectOpen();
    const [row] = await auditOf("caller-verification.override");
    expect(row).toMatchObject({ actorUid: "demo-admin" });
    expect(row!.reason).toMatch(/.+/);
    expect(row!.after).toMatchObject({ agentUid: "demo-agent", method: "override" });
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "care.verification_override")));
    expect(told).toHaveLength(1);
    // The 360's head shows the contact details now, and until when.
    const subscriber = (await answers(`/api/v1/subscribers/${alex.accountId}`)).json<{
      email: string;
      verifiedUntil: string;
    }>();
    expect(subscriber.email).toBe("alex@example.com");
    expect(Date.parse(subscriber.verifiedUntil) - Date.now()).toBeGreaterThan(29 * 60_000);
    // Verifying the person through one account opens their others.
    const others = await db().select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUid, "demo-alex"));
    for (const { id } of others) await answers(`/api/v1/accounts/${id}`);
    // Lists narrow to him: Sam's records stay out.
    const lineOwners = (await answers("/api/v1/lines?pageSize=100")).json<{ data: { accountId: string }[] }>();
    expect(new Set(lineOwners.data.map((l) => l.accountId))).not.toContain(samAccountId);
    await notVerified(`/api/v1/accounts/${samAccountId}`);
  });

  it("the verified agent may act (suspend his line); 30 minutes later it is 403 again", async () => {
    await verifyCallerByOverride(backend, alex.accountId, "demo-agent");
    const res = await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/suspend`, {
      as: AGENT,
      body: { suspendReason: "lost", reason: "Caller verified, phone lost" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ status: string }>().status).toBe("suspended");
    await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/restore`, {
      as: ADMIN,
      body: { reason: "test cleanup" },
    });
    await expireVerification(backend.database.db, "demo-agent", "demo-alex");
    await expectLocked();
  });

  it("a verification is the agent's own: another staff member's does not open records to them", async () => {
    await verifyCallerByOverride(backend, alex.accountId, "demo-admin");
    await notVerified(`/api/v1/lines/${alex.lineId}`);
  });
});

describe("verifying by PIN", () => {
  it("a right PIN verifies; a subscriber without one is pointed to the SMS code", async () => {
    await db().execute(sql`delete from care_pins where uid = 'demo-alex'`);
    const none = expectProblem(await verify(AGENT, alex.accountId, { method: "pin", pin: "2580" }), 422, "pin");
    expect(none.detail).toMatch(/SMS/);
    await setPin("2580");
    const res = await verify(AGENT, alex.accountId, { method: "pin", pin: "2580" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ verifiedUntil: string; email: string }>()).toMatchObject({ email: "alex@example.com" });
    await answers(`/api/v1/lines/${alex.lineId}`);
    const [audit] = await auditOf("caller-verification.verified");
    expect(withoutUuids(audit)).not.toContain("2580");
  });

  it("5 wrong answers lock verifying him for 15 minutes (429, Retry-After) and alert him; a right PIN then waits", async () => {
    await setPin("2580");
    const failedBefore = (await auditOf("caller-verification.failed")).length;
    for (let i = 1; i <= 4; i++)
      expectProblem(await verify(AGENT, alex.accountId, { method: "pin", pin: "9911" }), 422, "pin");
    const outboxBefore = (await db().select().from(outboxMessages)).length;
    const fifth = await verify(AGENT, alex.accountId, { method: "pin", pin: "9911" });
    const locked = expectProblem(fifth, 429);
    expect(locked.type).toBe(PROBLEM_TYPES.callerVerificationLocked);
    expect(Number(fifth.headers["retry-after"])).toBeGreaterThan(14 * 60);
    // Locked even for the right PIN, and for another account of the same person.
    expectProblem(await verify(AGENT, alex.accountId, { method: "pin", pin: "2580" }), 429);
    await notVerified(`/api/v1/lines/${alex.lineId}`);
    const alerts = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "care.verification_locked")));
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    const sent = (await db().select().from(outboxMessages)).slice(outboxBefore);
    expect(sent.filter((m) => m.kind === "care.verification_locked").map((m) => m.channel)).toEqual(
      expect.arrayContaining(["email", "sms"]),
    );
    expect(await auditOf("caller-verification.failed")).toHaveLength(failedBefore + 5);
    expect((await auditOf("caller-verification.locked")).length).toBeGreaterThanOrEqual(1);
    expect(withoutUuids(await auditOf("caller-verification.failed"))).not.toContain("9911");
    // Once the lock has run out, the right PIN verifies again.
    await db()
      .update(callerVerificationAttempts)
      .set({ lockedUntil: new Date(Date.now() - 1000) });
    expect((await verify(AGENT, alex.accountId, { method: "pin", pin: "2580" })).statusCode).toBe(200);
  });
});

describe("verifying by SMS code", () => {
  it("sends a one-time code to his line through the outbox; the right code verifies, once", async () => {
    const sent = await verify(AGENT, samAccountId, { method: "sms-code" });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json<{ verifiedUntil: null; email: string }>()).toMatchObject({ verifiedUntil: null });
    const [message] = await db()
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.kind, "care.verification_code"))
      .orderBy(sql`${outboxMessages.createdAt} desc`)
      .limit(1);
    expect(message).toMatchObject({ channel: "sms", recipient: "+12025550103" });
    const code = String(message!.params.code);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "000001" : "000000";
    expectProblem(await verify(AGENT, samAccountId, { method: "sms-code", code: wrong }), 422, "code");
    const ok = await verify(AGENT, samAccountId, { method: "sms-code", code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ email: string }>().email).toBe("sam@example.com");
    await answers(`/api/v1/accounts/${samAccountId}`);
    // One use.
    expectProblem(await verify(AGENT, samAccountId, { method: "sms-code", code }), 422, "code");
    const audits = await db().select().from(auditEvents).where(eq(auditEvents.targetId, "demo-sam"));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(["caller-verification.code-sent", "caller-verification.verified"]),
    );
    expect(withoutUuids(audits)).not.toContain(code);
  });

  it("an expired code is refused", async () => {
    await verify(AGENT, samAccountId, { method: "sms-code" });
    const [message] = await db()
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.kind, "care.verification_code"))
      .orderBy(sql`${outboxMessages.createdAt} desc`)
      .limit(1);
    await db()
      .update(callerVerificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await verify(AGENT, samAccountId, { method: "sms-code", code: String(message!.params.code) });
    expectProblem(res, 422, "code");
  });
});

describe("a customer whose account no one holds in the app yet", () => {
  it("is verified by the account: closed until then, no PIN to give, a code to its line opens it", async () => {
    // An active line of an account no one holds (a code goes to an active line), the same one each run.
    const [line] = await db()
      .select({ id: lines.id, msisdn: lines.msisdn, accountId: accounts.id })
      .from(lines)
      .innerJoin(accounts, eq(accounts.id, lines.accountId))
      .where(and(eq(accounts.operatorCode, "ATT"), sql`${accounts.ownerUid} is null`, eq(lines.status, "active")))
      .orderBy(lines.msisdn)
      .limit(1);
    const account = { id: line!.accountId };
    await notVerified(`/api/v1/lines/${line!.id}`);
    await notVerified(`/api/v1/accounts/${account.id}`);
    // No one to have set a care PIN: the agent is pointed to the code.
    expectProblem(await verify(AGENT, account.id, { method: "pin", pin: "482915" }), 422, "pin");

    expect((await verify(AGENT, account.id, { method: "sms-code" })).statusCode).toBe(200);
    const [message] = await db()
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.kind, "care.verification_code"), eq(outboxMessages.recipient, line!.msisdn)))
      .orderBy(sql`${outboxMessages.createdAt} desc`)
      .limit(1);
    const ok = await verify(AGENT, account.id, { method: "sms-code", code: String(message!.params.code) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ verifiedUntil: string | null }>().verifiedUntil).not.toBeNull();
    await answers(`/api/v1/lines/${line!.id}`);
    await answers(`/api/v1/accounts/${account.id}`);
    const trail = await db()
      .select({ action: auditEvents.action, targetType: auditEvents.targetType })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, account.id));
    expect(trail).toEqual(expect.arrayContaining([{ action: "caller-verification.verified", targetType: "account" }]));
    // One verification, keyed by the account while no one holds it.
    expect(
      (await db().select().from(callerVerifications).where(eq(callerVerifications.subscriberUid, account.id))).length,
    ).toBe(1);
  });
});

describe("who may verify, and bad input", () => {
  it("401 without a token; 404 for another operator's agent; 403 for a subscriber", async () => {
    expectProblem(
      await backend.send("POST", `/api/v1/subscribers/${alex.accountId}/actions/verify-caller`, {
        body: { method: "pin", pin: "2580" },
      }),
      401,
    );
    expectProblem(
      await backend.send("POST", `/api/v1/subscribers/${alex.accountId}/actions/verify-caller`, {
        as: TMO_AGENT,
        operator: "TMO",
        body: { method: "sms-code" },
      }),
      404,
    );
    expectProblem(await verify(SAM, alex.accountId, { method: "sms-code" }), 403);
    // Another operator's agent never learns of Alex's records either.
    expectProblem(await backend.get(`/api/v1/lines/${alex.lineId}`, { as: TMO_AGENT, operator: "TMO" }), 404);
  });

  it("400 at the field for malformed input", async () => {
    const failedBefore = (await auditOf("caller-verification.failed")).length;
    expectProblem(await verify(AGENT, alex.accountId, { method: "telepathy" }), 400, "method");
    expectProblem(await verify(AGENT, alex.accountId, {}), 400, "method");
    expectProblem(await verify(AGENT, alex.accountId, { method: "pin" }), 400, "pin");
    expectProblem(await verify(AGENT, alex.accountId, { method: "pin", pin: "12" }), 400, "pin");
    expectProblem(await verify(AGENT, alex.accountId, { method: "sms-code", code: "12ab56" }), 400, "code");
    expectProblem(await verify(AGENT, alex.accountId, { method: "pin", pin: "2580", code: "123456" }), 400, "code");
    expectProblem(await verify(AGENT, alex.accountId, { method: "pin", pin: "2580", extra: 1 }), 400);
    // Not a wrong answer: nothing counted.
    expect(await auditOf("caller-verification.failed")).toHaveLength(failedBefore);
    expect(await db().select().from(callerVerificationAttempts)).toEqual([]);
  });

  it("only admins override, and they must name an agent of theirs and give a reason", async () => {
    expectProblem(
      await verify(AGENT, alex.accountId, { method: "override", agentUid: "demo-agent", reason: "please" }),
      403,
    );
    expectProblem(await verify(ADMIN, alex.accountId, { method: "override", agentUid: "demo-agent" }), 400, "reason");
    expectProblem(await verify(ADMIN, alex.accountId, { method: "override", reason: "Known caller" }), 400, "agentUid");
    expectProblem(
      await verify(ADMIN, alex.accountId, { method: "override", agentUid: "tmo-agent", reason: "Known caller" }),
      422,
      "agentUid",
    );
    await notVerified(`/api/v1/lines/${alex.lineId}`);
  });
});
