import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/resources/api";
import {
  accountMembers,
  accounts,
  auditEvents,
  invoices,
  lines,
  outboxMessages,
  paymentMethods,
  usageRecords,
} from "../../server/db/schema";
import { signInWithPassword, startTestBackend, type TestBackend, type TestInstance } from "../support/testBackend";
import { joinAccount, newSubscriber as newPerson } from "../support/accountPeople";
import { expectProblem } from "../support/problems";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyCallerByOverride } from "../support/callerVerification";
import { preparedRead } from "../../server/engine/preparedRead";
import { linesModule } from "../../server/domain/lines/module";

// People on an account (issue 28 item 6): alex invites a member (one line of his postpaid account)
// and a manager; each sees what their role reaches and 404 for the rest; removing ends access on
// the next request on every instance. On TEST_DB.
let backend: TestBackend;
let other: TestInstance;
const db = () => backend.database.db;

const alex = { accountId: "", lineId: "", otherLineId: "", prepaidLineId: "", invoiceId: "", paymentMethodId: "" };

const newSubscriber = (tag: string) => newPerson(backend, tag);

const invite = (body: unknown, as = ALEX, accountId = alex.accountId, headers?: Record<string, string>) =>
  backend.send("POST", `/api/v1/accounts/${accountId}/actions/invite-member`, { as, body, headers });

const tokenOf = (invitationUrl: string) => new URL(invitationUrl).hash.slice(1);

/** Invites `person` as `role` and has them accept; the member's row id. */
async function join(person: { email: string; token: string }, role: "member" | "manager", lineIds: string[]) {
  expect(await joinAccount(backend, alex.accountId, person, role, lineIds)).toMatchObject({
    accountId: alex.accountId,
    role,
  });
  const [row] = await db()
    .select({ id: accountMembers.id })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, alex.accountId), eq(accountMembers.email, person.email.toLowerCase())));
  return row!.id;
}

const ids = (res: { json: <T>() => T }) => res.json<{ data: { id: string }[] }>().data.map((r) => r.id);

beforeAll(async () => {
  backend = await startTestBackend();
  other = await backend.startAnotherInstance();
  const [postpaid] = await db()
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.ownerUid, "demo-alex"), eq(accounts.type, "postpaid")));
  alex.accountId = postpaid!.id;
  const [line] = await db().select().from(lines).where(eq(lines.msisdn, "+12025550102"));
  alex.lineId = line!.id;
  const [prepaidLine] = await db().select({ id: lines.id }).from(lines).where(eq(lines.msisdn, "+12025550101"));
  alex.prepaidLineId = prepaidLine!.id;
  // A second line on the same account, with usage of its own: the member is not given it.
  const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = line!;
  const [second] = await db()
    .insert(lines)
    .values({ ...copy, msisdn: "+12025550177", iccid: "8901260000000017777" })
    .returning({ id: lines.id });
  alex.otherLineId = second!.id;
  const cycleStart = new Date().toISOString().slice(0, 10);
  await db()
    .insert(usageRecords)
    .values([
      {
        operatorCode: "ATT",
        id: `m-${randomUUID()}`,
        lineId: alex.lineId,
        type: "data",
        startedAt: new Date(),
        quantity: 5,
        cycleStart,
      },
      {
        operatorCode: "ATT",
        id: `m-${randomUUID()}`,
        lineId: alex.otherLineId,
        type: "data",
        startedAt: new Date(),
        quantity: 7,
        cycleStart,
      },
    ]);
  const [bill] = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.accountId, alex.accountId))
    .limit(1);
  alex.invoiceId = bill!.id;
  const [card] = await db()
    .insert(paymentMethods)
    .values({
      operatorCode: "ATT",
      ownerUid: "demo-alex",
      gateway: "sandbox",
      gatewayMethodId: `pm_${randomUUID()}`,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2030,
      isDefault: true,
    })
    .returning({ id: paymentMethods.id });
  alex.paymentMethodId = card!.id;
});

afterAll(async () => {
  await backend?.close();
});

describe("invite-member refusals", () => {
  it("answers 401 without a token", async () => {
    const res = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/invite-member`, {
      token: "",
      body: { email: "a@example.com", role: "manager", lineIds: [] },
    });
    expectProblem(res, 401);
  });

  it("answers 400 at the field for malformed input, and changes nothing", async () => {
    const before = await db().select().from(accountMembers);
    expectProblem(await invite({ email: "not-an-email", role: "member", lineIds: [alex.lineId] }), 400, "email");
    expectProblem(await invite({ email: "x@example.com", role: "owner", lineIds: [alex.lineId] }), 400, "role");
    expectProblem(await invite({ email: "x@example.com", role: "member", lineIds: [] }), 400, "lineIds");
    expectProblem(await invite({ email: "x@example.com", role: "member", lineIds: ["nope"] }), 400, "lineIds.0");
    expectProblem(await invite({ email: "x@example.com", role: "member", lineIds: [alex.lineId], extra: 1 }), 400);
    // A line of another account of the same holder is not this account's.
    expectProblem(
      await invite({ email: "x@example.com", role: "member", lineIds: [alex.prepaidLineId] }),
      400,
      "lineIds",
    );
    expect(await db().select().from(accountMembers)).toEqual(before);
  });

  it("answers 404 to another subscriber and to another operator's user", async () => {
    expectProblem(await invite({ email: "x@example.com", role: "manager", lineIds: [] }, SAM), 404);
    const tmo = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/invite-member`, {
      as: TAYLOR,
      operator: "TMO",
      body: { email: "x@example.com", role: "manager", lineIds: [] },
    });
    expectProblem(tmo, 404);
    expectProblem(await backend.get(`/api/v1/accounts/${alex.accountId}/members`, { as: SAM }), 404);
  });

  it("asks an agent to verify the caller first and to give a reason; an admin acts with a reason", async () => {
    const body = { email: `care-${randomUUID()}@example.com`, role: "manager", lineIds: [] };
    const unverified = expectProblem(await invite({ ...body, reason: "The holder asked on the phone" }, AGENT), 403);
    expect(unverified.type).toBe(PROBLEM_TYPES.callerNotVerified);
    await verifyCallerByOverride(backend, alex.accountId);
    expectProblem(await invite(body, AGENT), 400, "reason");
    const done = await invite({ ...body, reason: "The holder asked on the phone" }, AGENT);
    expect(done.statusCode, done.body).toBe(201);
    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "accounts.invite-member"), eq(auditEvents.actorUid, "demo-agent")));
    expect(audit?.reason).toBe("The holder asked on the phone");
    const admin = await invite(
      { email: `admin-${randomUUID()}@example.com`, role: "manager", lineIds: [], reason: "Asked by letter" },
      ADMIN,
    );
    expect(admin.statusCode, admin.body).toBe(201);
  });
});

describe("a member", () => {
  let member: { email: string; uid: string; token: string };
  let memberId = "";

  beforeAll(async () => {
    member = await newSubscriber("daughter");
    memberId = await join(member, "member", [alex.lineId]);
  });

  it("was emailed the link, valid 7 days, and a second invitation of the same email is 409", async () => {
    const [mail] = await db()
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, member.email.toLowerCase()));
    expect(mail?.kind).toBe("account.invitation");
    expect(String(mail?.params.link)).toContain("/join-account#");
    const [row] = await db().select().from(accountMembers).where(eq(accountMembers.id, memberId));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(String(mail?.params.link)).not.toContain(row!.tokenHash);
    expectProblem(await invite({ email: member.email.toUpperCase(), role: "manager", lineIds: [] }), 409, "email");
    const pending = `pending-${randomUUID()}@example.com`;
    expect((await invite({ email: pending, role: "manager", lineIds: [] })).statusCode).toBe(201);
    expectProblem(await invite({ email: pending, role: "manager", lineIds: [] }), 409, "email");
  });

  it("sees only the assigned line: lines, the line, its meters, its usage records, Home", async () => {
    const list = await backend.get("/api/v1/lines", { token: member.token });
    expect(list.statusCode, list.body).toBe(200);
    expect(ids(list)).toEqual([alex.lineId]);
    expect((await backend.get(`/api/v1/lines/${alex.lineId}`, { token: member.token })).statusCode).toBe(200);
    expect((await backend.get(`/api/v1/lines/${alex.lineId}/meters`, { token: member.token })).statusCode).toBe(200);
    const usage = await backend.get("/api/v1/usage-records?pageSize=100", { token: member.token });
    expect(usage.statusCode, usage.body).toBe(200);
    const usageLines = new Set(usage.json<{ data: { lineId: string }[] }>().data.map((r) => r.lineId));
    expect([...usageLines]).toEqual([alex.lineId]);
    const home = await backend.get("/api/v1/home", { token: member.token });
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json<{ lines: { id: string }[]; accounts: unknown[] }>()).toMatchObject({
      lines: [{ id: alex.lineId }],
      accounts: [],
    });
  });

  it("is read through the prepared read of one line, the principal's values as its parameters", async () => {
    const prepared = preparedRead(db(), linesModule, "subscriber", "own+people");
    expect(prepared).not.toBeNull();
    const found = await prepared!.execute({ operator: "ATT", uid: member.uid, id: alex.lineId });
    expect(found).toHaveLength(1);
    expect(await prepared!.execute({ operator: "ATT", uid: member.uid, id: alex.otherLineId })).toHaveLength(0);
  });

  it("gets 404 for other lines, bills, payment methods, the account and its people", async () => {
    for (const url of [
      `/api/v1/lines/${alex.otherLineId}`,
      `/api/v1/lines/${alex.otherLineId}/meters`,
      `/api/v1/lines/${alex.prepaidLineId}`,
      `/api/v1/invoices/${alex.invoiceId}`,
      `/api/v1/payment-methods/${alex.paymentMethodId}`,
      `/api/v1/accounts/${alex.accountId}`,
      `/api/v1/accounts/${alex.accountId}/members`,
    ])
      expectProblem(await backend.get(url, { token: member.token }), 404);
    expect(ids(await backend.get("/api/v1/invoices", { token: member.token }))).toEqual([]);
    expect(ids(await backend.get("/api/v1/payment-methods", { token: member.token }))).toEqual([]);
    expect(ids(await backend.get("/api/v1/ledger-entries", { token: member.token }))).toEqual([]);
  });

  it("locks their line's number but may not change its plan nor invite anyone", async () => {
    const lock = await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/lock-number`, {
      token: member.token,
      body: {},
    });
    expect(lock.statusCode, lock.body).toBe(200);
    const unlock = await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/unlock-number`, {
      token: member.token,
      body: {},
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    const [plan] = await db().select({ planId: lines.planId }).from(lines).where(eq(lines.id, alex.lineId));
    const change = await backend.send("POST", `/api/v1/lines/${alex.lineId}/actions/change-plan`, {
      token: member.token,
      body: { planId: plan!.planId },
    });
    expectProblem(change, 404);
    const invited = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/invite-member`, {
      token: member.token,
      body: { email: `y-${randomUUID()}@example.com`, role: "manager", lineIds: [] },
    });
    expectProblem(invited, 404);
  });

  it("loses access on the next request, on every instance, once the holder removes them", async () => {
    expect((await other.get(`/api/v1/lines/${alex.lineId}`, { token: member.token })).statusCode).toBe(200);
    expectProblem(
      await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/remove-member`, {
        as: SAM,
        body: { memberId },
      }),
      404,
    );
    const removed = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/remove-member`, {
      as: ALEX,
      body: { memberId },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<{ data: { id: string }[] }>().data.map((m) => m.id)).not.toContain(memberId);
    expectProblem(await other.get(`/api/v1/lines/${alex.lineId}`, { token: member.token }), 404);
    expectProblem(await backend.get(`/api/v1/lines/${alex.lineId}`, { token: member.token }), 404);
    expect(ids(await backend.get("/api/v1/lines", { token: member.token }))).toEqual([]);
    expectProblem(
      await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/remove-member`, {
        as: ALEX,
        body: { memberId },
      }),
      404,
      "memberId",
    );
    expectProblem(
      await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/remove-member`, {
        as: ALEX,
        body: { memberId: "x" },
      }),
      400,
      "memberId",
    );
  });
});

describe("a manager", () => {
  let manager: { email: string; uid: string; token: string };

  beforeAll(async () => {
    manager = await newSubscriber("partner");
    await join(manager, "manager", []);
  });

  it("sees the account, its lines, bills and people, but not the holder's payment methods", async () => {
    expect(ids(await backend.get("/api/v1/lines", { token: manager.token })).sort()).toEqual(
      [alex.lineId, alex.otherLineId].sort(),
    );
    expect((await backend.get(`/api/v1/invoices/${alex.invoiceId}`, { token: manager.token })).statusCode).toBe(200);
    expect((await backend.get(`/api/v1/accounts/${alex.accountId}`, { token: manager.token })).statusCode).toBe(200);
    const people = await backend.get(`/api/v1/accounts/${alex.accountId}/members`, { token: manager.token });
    expect(people.statusCode, people.body).toBe(200);
    expect(people.json<{ data: { email: string; status: string }[] }>().data).toContainEqual(
      expect.objectContaining({ email: manager.email.toLowerCase(), status: "active" }),
    );
    expectProblem(await backend.get(`/api/v1/payment-methods/${alex.paymentMethodId}`, { token: manager.token }), 404);
    expect(ids(await backend.get("/api/v1/payment-methods", { token: manager.token }))).toEqual([]);
    // Alex's other (prepaid) account is not theirs.
    expectProblem(await backend.get(`/api/v1/lines/${alex.prepaidLineId}`, { token: manager.token }), 404);
  });

  it("may not invite or remove people (the holder decides), nor set autopay with the holder's cards", async () => {
    const res = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/invite-member`, {
      token: manager.token,
      body: { email: `z-${randomUUID()}@example.com`, role: "manager", lineIds: [] },
    });
    expectProblem(res, 404);
    const autopay = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/set-autopay`, {
      token: manager.token,
      body: { enabled: false },
    });
    expectProblem(autopay, 404);
  });
});

describe("accepting an invitation", () => {
  it("refuses an unknown, malformed, used or expired link, the holder and staff", async () => {
    const person = await newSubscriber("late");
    const accept = (token: string, as?: { token: string }) =>
      backend.send("POST", "/api/v1/account-invitations/accept", { token: (as ?? person).token, body: { token } });
    expectProblem(await accept("A".repeat(43)), 404);
    expectProblem(await accept("short"), 400, "token");
    expectProblem(
      await backend.send("POST", "/api/v1/account-invitations/accept", { token: "", body: { token: "A".repeat(43) } }),
      401,
    );

    const invited = await invite({ email: person.email, role: "manager", lineIds: [] });
    const token = tokenOf(invited.json<{ invitationUrl: string }>().invitationUrl);
    expectProblem(await accept(token, { token: await signInWithPassword(ALEX) }), 409);
    expectProblem(await accept(token, { token: await signInWithPassword(AGENT) }), 403);
    await db()
      .update(accountMembers)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountMembers.email, person.email.toLowerCase()));
    expectProblem(await accept(token), 410, "token");
    expectProblem(await backend.get(`/api/v1/accounts/${alex.accountId}`, { token: person.token }), 404);

    // An expired invitation gives way to a new one, which works once.
    const again = await invite({ email: person.email, role: "manager", lineIds: [] });
    expect(again.statusCode, again.body).toBe(201);
    const fresh = tokenOf(again.json<{ invitationUrl: string }>().invitationUrl);
    const joined = await accept(fresh);
    expect(joined.statusCode).toBe(200);
    // Sent again by the same person (a page opened twice): the same answer, still one membership.
    const twice = await accept(fresh);
    expect(twice.statusCode).toBe(200);
    expect(twice.json()).toEqual(joined.json());
    const rows = await db().select().from(accountMembers).where(eq(accountMembers.email, person.email.toLowerCase()));
    expect(rows.filter((r) => r.memberUid !== null)).toHaveLength(1);
    // By anyone else: used.
    expectProblem(await accept(fresh, await newSubscriber("other")), 410, "token");
  });
});
