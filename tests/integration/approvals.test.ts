import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvals, auditEvents, ledgerEntries, notifications, staffMembers } from "../../server/db/schema";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import type { Account } from "../../src/resources/accounts";
import type { Approval } from "../../src/resources/approvals";
import { PROBLEM_TYPES } from "../../src/resources/api";
import type { StaffInviteResult } from "../../src/resources/staff";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TMO_ADMIN, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { invitationLinkFor, seededAdmin, setPasswordWithLink } from "../support/staffInvitations";

// The two-person rule (issue 12, item 4): money moved by hand above the requester's bound waits as an
// approval request (202) until an admin who is not the requester approves it (the ledger entry is
// posted then, once) or rejects it. On TEST_DB (PGlite or PostgreSQL).
let backend: TestBackend;
let sam: Account;
let alexPostpaid: Account;
/** A second admin of ATT, so one admin's request can be decided by another. */
let otherAdmin: { uid: string; token: string };
/** Users made by this file, deleted after it. */
const throwaway: string[] = [];

const usd = (amount: number) => ({ amount, currency: "USD" });

const request = (
  accountId: string,
  action: "adjust" | "refund" | "charge",
  as: string,
  amount: number,
  reason = "above my bound",
) =>
  backend.send("POST", `/api/v1/accounts/${accountId}/actions/${action}`, {
    as,
    body: { amount: usd(amount), reason },
  });

const decide = (
  id: string,
  action: "approve" | "reject",
  { headers, ...who }: { as?: string; token?: string; operator?: string; headers?: Record<string, string> },
  body: unknown = { reason: "checked the account history" },
  key?: string,
) =>
  backend.send("POST", `/api/v1/approvals/${id}/actions/${action}`, {
    ...who,
    body,
    headers: { ...headers, ...(key ? { "idempotency-key": key } : {}) },
  });

async function balance(accountId = sam.id) {
  return (await backend.get(`/api/v1/accounts/${accountId}`, { as: ADMIN })).json<Account>().balance!.amount;
}

const entriesFor = async (approvalId: string) =>
  (
    await backend.database.db
      .select({ n: count() })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "approval"), eq(ledgerEntries.referenceId, approvalId)))
  )[0]!.n;

async function pendingRequest(
  amount = 7500,
  as = AGENT,
  action: "adjust" | "refund" | "charge" = "adjust",
  accountId = sam.id,
): Promise<Approval> {
  const res = await request(accountId, action, as, amount);
  expect(res.statusCode, res.body).toBe(202);
  return res.json<Approval>();
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  sam = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data[0]!;
  alexPostpaid = (await backend.get("/api/v1/accounts", { as: ALEX }))
    .json<{ data: Account[] }>()
    .data.find((a) => a.type === "postpaid")!;
  // On the staff record with no inviter, as seeded staff are: a different person who may decide.
  otherAdmin = await seededAdmin(backend, "second-admin");
  throwaway.push(otherAdmin.uid);
});

afterAll(async () => {
  if (backend) await Promise.all(throwaway.map((uid) => backend.auth.deleteUser(uid).catch(() => undefined)));
  await backend?.close();
});

describe("an adjustment above the agent's bound", () => {
  it("answers 202 with a pending request, moves nothing, and is audited", async () => {
    const start = await balance();
    const res = await request(sam.id, "adjust", AGENT, 7500, "long outage, three days");
    expect(res.statusCode, res.body).toBe(202);
    const approval = res.json<Approval>();
    expect(approval).toMatchObject({
      kind: "adjustment",
      accountId: sam.id,
      accountName: sam.name,
      amount: usd(7500),
      reason: "long outage, three days",
      requestedByRole: "agent",
      status: "pending",
      decidedBy: null,
      ledgerEntryId: null,
    });
    expect(await balance()).toBe(start);
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "approvals.request"), eq(auditEvents.targetId, approval.id)));
    expect(audit).toMatchObject({ actorRole: "agent", reason: "long outage, three days" });
  });

  it("within the bound it still moves at once (200), and a charge above it waits too", async () => {
    expect((await request(sam.id, "adjust", AGENT, 5000)).statusCode).toBe(200);
    const charge = await pendingRequest(6000, AGENT, "charge", alexPostpaid.id);
    expect(charge).toMatchObject({ kind: "charge", status: "pending" });
  });
});

describe("POST /approvals/{id}/actions/approve", () => {
  it("an admin approves: the entry is posted once, the request is approved with who and why, the holder is told, audited", async () => {
    const approval = await pendingRequest(7000);
    const start = await balance();
    const res = await decide(approval.id, "approve", { as: ADMIN }, { reason: "confirmed with the supervisor" });
    expect(res.statusCode, res.body).toBe(200);
    const decided = res.json<Approval>();
    expect(decided).toMatchObject({ status: "approved", decisionReason: "confirmed with the supervisor" });
    expect(decided.decidedBy).toBeTruthy();
    expect(decided.decidedAt).toBeTruthy();
    expect(decided.ledgerEntryId).toBeTruthy();
    expect(await balance()).toBe(start + 7000);
    const [entry] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.id, decided.ledgerEntryId!));
    expect(entry).toMatchObject({
      kind: "adjustment",
      amount: 7000,
      actorRole: "agent",
      referenceType: "approval",
      referenceId: approval.id,
    });
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-sam"), eq(notifications.kind, "money.adjusted")));
    expect(notices.some((n) => n.params.amount === 7000)).toBe(true);
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "approvals.approve"), eq(auditEvents.targetId, approval.id)));
    expect(audit).toMatchObject({ actorRole: "admin", reason: "confirmed with the supervisor" });
  });

  it("the approver cannot be the requester, even an admin: 403 with a clear message; another admin may", async () => {
    const approval = await pendingRequest(150_000, ADMIN);
    const start = await balance();
    const problem = expectProblem(await decide(approval.id, "approve", { as: ADMIN }), 403, "requestedBy");
    expect(problem.detail).toBe(
      "You asked for this request yourself: another administrator must approve or reject it (two-person rule).",
    );
    // In the reader's language (issue 25), field message included.
    const spanish = expectProblem(
      await decide(approval.id, "approve", { as: ADMIN, headers: { "accept-language": "es" } }),
      403,
      "requestedBy",
    );
    expect(spanish.detail).toBe(
      "Tú hiciste esta solicitud: otro administrador debe aprobarla o rechazarla (regla de dos personas).",
    );
    expect(spanish.errors).toEqual([
      { path: "requestedBy", message: "quien aprueba no puede ser quien hizo la solicitud" },
    ]);
    expectProblem(await decide(approval.id, "reject", { as: ADMIN }), 403, "requestedBy");
    expect(await balance()).toBe(start);
    const [row] = await backend.database.db.select().from(approvals).where(eq(approvals.id, approval.id));
    expect(row!.status).toBe("pending");
    const res = await decide(approval.id, "approve", { token: otherAdmin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Approval>().decidedBy).toBe(otherAdmin.uid);
    expect(await balance()).toBe(start + 150_000);
  });

  it("a double approve moves money once: concurrent approvals give one 200 and one 409; a replayed key answers the first", async () => {
    const approval = await pendingRequest(5500);
    const start = await balance();
    const [a, b] = await Promise.all([
      decide(approval.id, "approve", { as: ADMIN }),
      decide(approval.id, "approve", { token: otherAdmin.token }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expectProblem(
      [a, b].find((r) => r.statusCode === 409)!,
      409,
      "status",
    );
    expect(await entriesFor(approval.id)).toBe(1);
    expect(await balance()).toBe(start + 5500);

    const keyed = await pendingRequest(5600);
    const key = `approve-${randomUUID()}`;
    const first = await decide(keyed.id, "approve", { as: ADMIN }, undefined, key);
    const again = await decide(keyed.id, "approve", { as: ADMIN }, undefined, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await entriesFor(keyed.id)).toBe(1);
  });

  it("a charge the balance no longer covers is 422 and the request stays pending", async () => {
    const start = await balance();
    const approval = await pendingRequest(start + 10_000, AGENT, "charge");
    expectProblem(await decide(approval.id, "approve", { as: ADMIN }), 422, "amount");
    expect(await balance()).toBe(start);
    expect((await backend.get(`/api/v1/approvals/${approval.id}`, { as: ADMIN })).json<Approval>().status).toBe(
      "pending",
    );
  });
});

describe("a refund", () => {
  it("within the bound is credited at once; above it waits, and its approval posts a refund entry", async () => {
    const start = await balance();
    // The admin: AGENT's $50.00 of credits on this account for today went above (the bound is per 24 hours).
    const now = await request(sam.id, "refund", ADMIN, 1500, "charged twice for a pass");
    expect(now.statusCode, now.body).toBe(200);
    expect(await balance()).toBe(start + 1500);
    const approval = await pendingRequest(8000, AGENT, "refund");
    expect(approval).toMatchObject({ kind: "refund", status: "pending" });
    expect(await balance()).toBe(start + 1500);
    const res = await decide(approval.id, "approve", { as: ADMIN });
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.id, res.json<Approval>().ledgerEntryId!));
    expect(entry).toMatchObject({ kind: "refund", amount: 8000 });
    expect(await balance()).toBe(start + 9500);
  });
});

describe("POST /approvals/{id}/actions/reject", () => {
  it("closes the request with the reason; nothing moves, and it cannot be approved after", async () => {
    const approval = await pendingRequest(6100);
    const start = await balance();
    const res = await decide(approval.id, "reject", { as: ADMIN }, { reason: "no outage on record" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: "rejected",
      decisionReason: "no outage on record",
      ledgerEntryId: null,
    });
    expectProblem(await decide(approval.id, "approve", { token: otherAdmin.token }), 409, "status");
    expect(await balance()).toBe(start);
    expect(await entriesFor(approval.id)).toBe(0);
  });
});

describe("who sees and decides requests", () => {
  it("agents see their own requests and decide none; admins see the queue; subscribers see nothing", async () => {
    const approval = await pendingRequest(5200);
    const mine = (await backend.get("/api/v1/approvals?filter[status]=pending&pageSize=100", { as: AGENT })).json<{
      data: Approval[];
    }>();
    expect(mine.data.map((a) => a.id)).toContain(approval.id);
    expect(mine.data.every((a) => a.requestedByRole === "agent")).toBe(true);
    const queue = (await backend.get("/api/v1/approvals?filter[status]=pending&pageSize=100", { as: ADMIN })).json<{
      data: Approval[];
    }>();
    expect(queue.data.map((a) => a.id)).toContain(approval.id);

    // An admin's own request is not in an agent's list.
    const adminsOwn = await pendingRequest(120_000, ADMIN);
    expect((await backend.get(`/api/v1/approvals/${adminsOwn.id}`, { as: AGENT })).statusCode).toBe(404);
    expect(
      (await backend.get("/api/v1/approvals?pageSize=100", { as: AGENT }))
        .json<{ data: Approval[] }>()
        .data.map((a) => a.id),
    ).not.toContain(adminsOwn.id);
    expect(
      (await backend.get("/api/v1/approvals?pageSize=100", { as: ADMIN }))
        .json<{ data: Approval[] }>()
        .data.map((a) => a.id),
    ).toContain(adminsOwn.id);

    expectProblem(await decide(approval.id, "approve", { as: AGENT }), 403);
    expectProblem(await backend.get("/api/v1/approvals", { as: SAM }), 403);
    expectProblem(await backend.get(`/api/v1/approvals/${approval.id}`, { as: ALEX }), 403);
    expectProblem(await decide(approval.id, "approve", { as: SAM }), 403);
  });

  it("another operator's staff get 404 and an empty queue; anonymous callers 401; nothing changes", async () => {
    const approval = await pendingRequest(5300);
    expectProblem(await decide(approval.id, "approve", { as: TMO_ADMIN, operator: "TMO" }), 404);
    expectProblem(await backend.get(`/api/v1/approvals/${approval.id}`, { as: TMO_ADMIN, operator: "TMO" }), 404);
    expect(
      (await backend.get("/api/v1/approvals", { as: TMO_AGENT, operator: "TMO" })).json<{ total: number }>().total,
    ).toBe(0);
    expectProblem(
      await backend.send("POST", `/api/v1/approvals/${approval.id}/actions/approve`, { body: { reason: "anonymous" } }),
      401,
    );
    expectProblem(await backend.get("/api/v1/approvals"), 401);
    expect((await backend.get(`/api/v1/approvals/${approval.id}`, { as: ADMIN })).json<Approval>().status).toBe(
      "pending",
    );
  });

  it("malformed decisions are 400 naming the field, and change nothing", async () => {
    const approval = await pendingRequest(5400);
    const start = await balance();
    expectProblem(await decide(approval.id, "approve", { as: ADMIN }, {}), 400, "reason");
    expectProblem(await decide(approval.id, "approve", { as: ADMIN }, { reason: "x" }), 400, "reason");
    expectProblem(await decide(approval.id, "approve", { as: ADMIN }, { reason: "fine", amount: 1 }), 400);
    expectProblem(await decide("not-a-uuid", "approve", { as: ADMIN }), 400, "id");
    expectProblem(await backend.get("/api/v1/approvals?filter[status]=maybe", { as: ADMIN }), 400);
    expectProblem(await decide(randomUUID(), "approve", { as: ADMIN }), 404);
    expect(await balance()).toBe(start);
    expect((await backend.get(`/api/v1/approvals/${approval.id}`, { as: ADMIN })).json<Approval>().status).toBe(
      "pending",
    );
  });
});

// Issue 26, item 1: POST /staff {role: "admin"} handed the new account's password link to the inviter,
// who signed in as it and approved their own $1,000.01 credit (200). An approval must come from another
// person: the link goes to the invitee's email only, a new member decides nothing until an admin other
// than their inviter confirms them (or 24 hours, by the operator's policy), and the requester's
// inviter of the last 30 days never decides their requests.
describe("an approval comes from another person, not another account", () => {
  const PASSWORD = "Invitee-2026!";
  const DAY_MS = 24 * 3_600_000;

  /** An admin invited by `inviter`, signed in with the password they set from the link their email got. */
  async function adminInvitedBy(inviter: { as?: string; token?: string }, tag: string) {
    const email = `${tag}-${randomUUID()}@att.example`;
    const res = await backend.send("POST", "/api/v1/staff", {
      ...inviter,
      body: { email, role: "admin" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toMatch(/oobCode|passwordSetupLink/);
    const { member } = res.json<StaffInviteResult>();
    throwaway.push(member.uid);
    await setPasswordWithLink(await invitationLinkFor(backend.database.db, email), PASSWORD);
    return { uid: member.uid, token: await signInWithPassword(email, PASSWORD) };
  }
  const confirm = (uid: string, who: { as?: string; token?: string; headers?: Record<string, string> }) =>
    backend.send("POST", `/api/v1/staff/${uid}/actions/confirm`, {
      ...who,
      body: { reason: "checked their ID in person" },
    });
  const backdate = (uid: string, ms: number) =>
    backend.database.db
      .update(staffMembers)
      .set({ createdAt: new Date(Date.now() - ms) })
      .where(eq(staffMembers.uid, uid));
  async function requestAs(token: string, amount: number) {
    const res = await backend.send("POST", `/api/v1/accounts/${sam.id}/actions/adjust`, {
      token,
      body: { amount: usd(amount), reason: "above my bound" },
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json<Approval>();
  }

  it("the attack: an admin's own invitee cannot approve their $1,000.01 credit until another admin confirms them", async () => {
    const start = await balance();
    const approval = await pendingRequest(100_001, ADMIN);
    const invitee = await adminInvitedBy({ as: ADMIN }, "invitee");
    const problem = expectProblem(await decide(approval.id, "approve", { token: invitee.token }), 403, "confirmedBy");
    expect(problem.type).toBe(PROBLEM_TYPES.staffNotConfirmed);
    expect(problem.detail).toMatch(
      /^You cannot decide approvals yet: an administrator other than the one who invited you/,
    );
    const spanish = expectProblem(
      await decide(approval.id, "approve", { token: invitee.token, headers: { "accept-language": "es" } }),
      403,
      "confirmedBy",
    );
    expect(spanish.detail).toMatch(
      /^Todavía no puedes decidir aprobaciones: primero debe confirmarte un administrador/,
    );
    expectProblem(await decide(approval.id, "reject", { token: invitee.token }), 403, "confirmedBy");
    expect(await balance()).toBe(start);
    expect((await backend.get(`/api/v1/approvals/${approval.id}`, { as: ADMIN })).json<Approval>().status).toBe(
      "pending",
    );

    // The inviter cannot vouch for their invitee; another admin can, and then the invitee decides like anyone.
    expectProblem(await confirm(invitee.uid, { as: ADMIN }), 403, "invitedBy");
    const inSpanish = await confirm(invitee.uid, { as: ADMIN, headers: { "accept-language": "es" } });
    expect(expectProblem(inSpanish, 403, "invitedBy").detail).toBe(
      "Tú invitaste a este miembro: debe confirmarlo un administrador distinto de ti (regla de dos personas).",
    );
    expect((await confirm(invitee.uid, { token: otherAdmin.token })).statusCode).toBe(200);
    const res = await decide(approval.id, "approve", { token: invitee.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await balance()).toBe(start + 100_001);
  });

  it("the requester's inviter of the last 30 days never decides their requests; another admin does", async () => {
    const invitee = await adminInvitedBy({ as: ADMIN }, "requester");
    expect((await confirm(invitee.uid, { token: otherAdmin.token })).statusCode).toBe(200);
    const approval = await requestAs(invitee.token, 100_001);
    const problem = expectProblem(await decide(approval.id, "approve", { as: ADMIN }), 403, "requestedBy");
    expect(problem.type).toBe(PROBLEM_TYPES.ownRequest);
    expect(problem.detail).toMatch(/30 days/);
    expectProblem(await decide(approval.id, "reject", { as: ADMIN }), 403, "requestedBy");
    expect((await decide(approval.id, "approve", { token: otherAdmin.token })).statusCode).toBe(200);
    // 31 days after the invitation, the inviter is a colleague like any other.
    await backdate(invitee.uid, 31 * DAY_MS);
    const later = await requestAs(invitee.token, 100_002);
    const res = await decide(later.id, "approve", { as: ADMIN });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("an admin not on the operator's staff record (claims set outside the portal) decides nothing", async () => {
    const email = `claims-only-${randomUUID()}@att.example`;
    const user = await backend.auth.createUser({ email, password: DEMO_PASSWORD, emailVerified: true });
    throwaway.push(user.uid);
    await backend.auth.setCustomUserClaims(user.uid, { role: "admin", operator: "ATT" });
    const approval = await pendingRequest(5_100);
    expectProblem(await decide(approval.id, "approve", { token: await signInWithPassword(email) }), 403, "confirmedBy");
  });

  it("under the operator's 24-hour rule an unconfirmed member decides once 24 hours have passed since the invitation", async () => {
    const policy = (newStaffMayApprove: string) =>
      backend.send("PUT", "/api/v1/security-policy", {
        token: otherAdmin.token,
        body: { newStaffMayApprove, reason: "issue 26 test of the new staff rule" },
      });
    const on = await policy("after-24-hours");
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ requireStaffMfa: false, newStaffMayApprove: "after-24-hours" });
    try {
      const invitee = await adminInvitedBy({ token: otherAdmin.token }, "patient");
      const approval = await pendingRequest(100_001, ADMIN);
      const problem = expectProblem(await decide(approval.id, "approve", { token: invitee.token }), 403, "confirmedBy");
      expect(problem.detail).toMatch(/24 hours/);
      await backdate(invitee.uid, DAY_MS - 60_000);
      expectProblem(await decide(approval.id, "approve", { token: invitee.token }), 403, "confirmedBy");
      await backdate(invitee.uid, DAY_MS + 60_000);
      const res = await decide(approval.id, "approve", { token: invitee.token });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      expect((await policy("after-confirmation")).statusCode).toBe(200);
    }
  });
});
