import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, ledgerEntries, notifications, staffMembers } from "../../server/db/schema";
import type { Account } from "../../src/resources/accounts";
import type { LedgerEntry } from "../../src/resources/ledgerEntries";
import { PROBLEM_TYPES } from "../../src/resources/api";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";

// Money moved by hand (issue 9): staff credits and charges on accounts, bounded per role, with a
// reason; every money POST replays its first answer under the same Idempotency-Key.
let backend: TestBackend;
let sam: Account;
let alexPostpaid: Account;
let alexPrepaid: Account;
/** Throwaway staff (Firebase users with claims), deleted after the file: each bound is per person. */
const throwaway: string[] = [];

/**
 * A new agent or admin of ATT, signed in: their bound starts empty. An agent acts on an account only
 * once it has verified the caller (issue 27), so a new agent is verified for sam and alex unless told
 * otherwise: each agent's verification is its own.
 */
async function freshStaff(role: "agent" | "admin", options: { verified?: boolean } = {}) {
  const email = `bound-${role}-${randomUUID()}@att.example`;
  const user = await backend.auth.createUser({ email, password: DEMO_PASSWORD, emailVerified: true });
  throwaway.push(user.uid);
  await backend.auth.setCustomUserClaims(user.uid, { role, operator: "ATT" });
  // On the staff record as seeded staff are: an admin grants a verification only to an active member.
  await backend.database.db.insert(staffMembers).values({ uid: user.uid, operatorCode: "ATT", email, role });
  if (role === "agent" && options.verified !== false) await verifyDemoCallers(backend, undefined, user.uid);
  return { uid: user.uid, token: await signInWithPassword(email) };
}

const act = (
  accountId: string,
  action: "adjust" | "charge" | "refund",
  as: string | { token: string },
  body: unknown,
  options: { key?: string; operator?: string } = {},
) =>
  backend.send("POST", `/api/v1/accounts/${accountId}/actions/${action}`, {
    ...(typeof as === "string" ? { as } : as),
    body,
    operator: options.operator,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });

const usd = (amount: number) => ({ amount, currency: "USD" });

async function balance(accountId = sam.id) {
  return (await backend.get(`/api/v1/accounts/${accountId}`, { as: ADMIN })).json<Account>().balance!.amount;
}

const entriesOf = async (accountId: string) =>
  (
    await backend.database.db.select({ n: count() }).from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId))
  )[0]!.n;

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  sam = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data[0]!;
  const alexs = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data;
  alexPostpaid = alexs.find((a) => a.type === "postpaid")!;
  alexPrepaid = alexs.find((a) => a.type === "prepaid")!;
});

afterAll(async () => {
  if (backend) await Promise.all(throwaway.map((uid) => backend.auth.deleteUser(uid).catch(() => undefined)));
  await backend?.close();
});

describe("POST /accounts/{id}/actions/adjust and /charge", () => {
  it("an admin credits with a reason: one ledger entry, the new balance, an audit row and a notice to the holder", async () => {
    const start = await balance();
    const res = await act(sam.id, "adjust", ADMIN, { amount: usd(1000), reason: "goodwill after an outage" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Account>().balance).toEqual(usd(start + 1000));
    const entries = (await backend.get(`/api/v1/ledger-entries?filter[accountId]=${sam.id}`, { as: SAM })).json<{
      data: LedgerEntry[];
    }>();
    expect(entries.data[0]).toMatchObject({
      kind: "adjustment",
      amount: usd(1000),
      balanceAfter: usd(start + 1000),
      reason: "goodwill after an outage",
      actorRole: "admin",
    });
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "accounts.adjust"), eq(auditEvents.targetId, sam.id)));
    expect(audit).toMatchObject({ actorRole: "admin", reason: "goodwill after an outage" });
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-sam"), eq(notifications.kind, "money.adjusted")));
    expect(notices[0]?.params).toMatchObject({ amount: 1000, currency: "USD", byRole: "admin" });
  });

  it("the same Idempotency-Key replays the first answer and moves money once, even when sent concurrently", async () => {
    const start = await balance();
    const key = `adjust-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        act(sam.id, "adjust", AGENT, { amount: usd(250), reason: "retry test" }, { key }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(new Set(answers.map((a) => JSON.stringify(a.json<Account>().balance)))).toEqual(
      new Set([JSON.stringify(usd(start + 250))]),
    );
    expect(answers.filter((a) => a.headers["idempotent-replayed"] === "true")).toHaveLength(4);
    const later = await act(sam.id, "adjust", AGENT, { amount: usd(250), reason: "retry test" }, { key });
    expect(later.headers["idempotent-replayed"]).toBe("true");
    expect(later.json()).toEqual(answers[0]!.json());
    expect(await balance()).toBe(start + 250);
    expectProblem(
      await act(sam.id, "adjust", AGENT, { amount: usd(251), reason: "retry test" }, { key }),
      422,
      "idempotency-key",
    );
    expect(await balance()).toBe(start + 250);
  });

  it("a charge the balance cannot cover is 422 naming the shortfall, and changes nothing", async () => {
    const start = await balance();
    const entries = await entriesOf(sam.id);
    const problem = expectProblem(
      await act(sam.id, "charge", ADMIN, { amount: usd(start + 125), reason: "replacement SIM fee" }),
      422,
      "amount",
    );
    expect(problem.errors).toEqual([{ path: "amount", message: "short by $1.25" }]);
    expect(problem.shortfall).toEqual(usd(125));
    const enMoney = (amount: number) =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount / 100);
    expect(problem.detail).toBe(
      `The balance (${enMoney(start)}) is short by $1.25 for this ${enMoney(start + 125)}: top up at least $1.25, then try again.`,
    );
    // In Spanish for es, the amounts as es-US writes them (issue 25).
    const esMoney = (amount: number) =>
      new Intl.NumberFormat("es-US", { style: "currency", currency: "USD" }).format(amount / 100);
    const spanish = expectProblem(
      await backend.send("POST", `/api/v1/accounts/${sam.id}/actions/charge`, {
        as: ADMIN,
        body: { amount: usd(start + 125), reason: "replacement SIM fee" },
        headers: { "accept-language": "es" },
      }),
      422,
      "amount",
    );
    expect(spanish).toMatchObject({
      title: "No se puede procesar",
      detail: `Al saldo (${esMoney(start)}) le faltan ${esMoney(125)} para cubrir ${esMoney(start + 125)}: recarga al menos ${esMoney(125)} y vuelve a intentarlo.`,
      errors: [{ path: "amount", message: `faltan ${esMoney(125)}` }],
      shortfall: usd(125),
    });
    expect(await balance()).toBe(start);
    expect(await entriesOf(sam.id)).toBe(entries);
    const ok = await act(sam.id, "charge", ADMIN, { amount: usd(start), reason: "replacement SIM fee" });
    expect(ok.json<Account>().balance).toEqual(usd(0));
  });

  it("a refusal is the key's answer: after a top-up the same key replays the 422, a new key charges", async () => {
    // Otherwise a client that took the 422 as final could see its retry charge after all (conservation).
    const key = `charge-${Date.now()}`;
    const start = await balance();
    const charge = { amount: usd(start + 500), reason: "fee" };
    const refused = await act(sam.id, "charge", ADMIN, charge, { key });
    expectProblem(refused, 422, "amount");
    expect(refused.headers["idempotent-replayed"]).toBeUndefined();
    await act(sam.id, "adjust", ADMIN, { amount: usd(600), reason: "top up for the retry" });
    const retried = await act(sam.id, "charge", ADMIN, charge, { key });
    expect(retried.statusCode, retried.body).toBe(422);
    expect(retried.headers["idempotent-replayed"]).toBe("true");
    expect(retried.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(retried.json()).toEqual(refused.json());
    expect(await balance()).toBe(start + 600);
    const fresh = await act(sam.id, "charge", ADMIN, charge, { key: `${key}-again` });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await balance()).toBe(100);
  });

  it("a charge and its repeat sent at once answer alike, whatever lands in between", async () => {
    const start = await balance();
    const key = `charge-race-${Date.now()}`;
    const charge = { amount: usd(start + 300), reason: "fee" };
    // The top-up races the pair: each of the two answers is the key's one answer, 422 or 200.
    const [a, , b] = await Promise.all([
      act(sam.id, "charge", ADMIN, charge, { key }),
      act(sam.id, "adjust", ADMIN, { amount: usd(300), reason: "top up in the race" }),
      act(sam.id, "charge", ADMIN, charge, { key }),
    ]);
    expect([200, 422]).toContain(a.statusCode);
    expect(b.statusCode, `${a.body} / ${b.body}`).toBe(a.statusCode);
    expect(await balance()).toBe(a.statusCode === 200 ? 0 : start + 300);
  });

  it("agents move at most $50.00 at a time, admins at most $1,000.00; more waits for approval (202) and moves nothing", async () => {
    // A new agent: what AGENT credited sam earlier today counts toward AGENT's bound (below).
    const agent = await freshStaff("agent");
    const start = await balance();
    const entries = await entriesOf(sam.id);
    const waiting = await act(sam.id, "adjust", agent, { amount: usd(5001), reason: "too much" });
    expect(waiting.statusCode, waiting.body).toBe(202);
    expect(waiting.json()).toMatchObject({
      kind: "adjustment",
      status: "pending",
      amount: usd(5001),
      accountId: sam.id,
    });
    expect(await balance()).toBe(start);
    expect(await entriesOf(sam.id)).toBe(entries);
    expect((await act(sam.id, "adjust", agent, { amount: usd(5000), reason: "just enough" })).statusCode).toBe(200);
    expect((await act(sam.id, "adjust", ADMIN, { amount: usd(100_001), reason: "too much" })).statusCode).toBe(202);
    expect(await balance()).toBe(start + 5000);
  });

  it("a postpaid charge is stored unbilled: the amount due waits for the bill", async () => {
    const before = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    const res = await act(alexPostpaid.id, "charge", AGENT, { amount: usd(999), reason: "late return of a device" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Account>().amountDue).toEqual(before.amountDue);
    const [entry] = (
      await backend.get(`/api/v1/ledger-entries?filter[accountId]=${alexPostpaid.id}`, { as: ALEX })
    ).json<{
      data: LedgerEntry[];
    }>().data;
    expect(entry).toMatchObject({ kind: "charge", amount: usd(999), balanceAfter: null });
  });

  it("refuses subscribers, anonymous callers, another operator's staff, a missing reason and malformed amounts, changing nothing", async () => {
    const start = await balance();
    expectProblem(await act(sam.id, "adjust", SAM, { amount: usd(100), reason: "free money" }), 403);
    expectProblem(
      await backend.send("POST", `/api/v1/accounts/${sam.id}/actions/adjust`, {
        body: { amount: usd(100), reason: "anonymous" },
      }),
      401,
    );
    expectProblem(
      await act(sam.id, "adjust", TMO_ADMIN, { amount: usd(100), reason: "other operator" }, { operator: "TMO" }),
      404,
    );
    expectProblem(await act(sam.id, "adjust", ADMIN, { amount: usd(100) }), 400, "reason");
    expectProblem(await act(sam.id, "adjust", ADMIN, { amount: usd(10.5), reason: "float" }), 400, "amount.amount");
    expectProblem(await act(sam.id, "adjust", ADMIN, { amount: usd(-100), reason: "negative" }), 400, "amount.amount");
    expectProblem(
      await act(sam.id, "adjust", ADMIN, { amount: usd(2 ** 31), reason: "past the integer column" }),
      400,
      "amount.amount",
    );
    expectProblem(
      await act(sam.id, "adjust", ADMIN, { amount: { amount: 100, currency: "usd" }, reason: "bad currency" }),
      400,
      "amount.currency",
    );
    expectProblem(
      await act(sam.id, "adjust", ADMIN, { amount: { amount: 100, currency: "EUR" }, reason: "other currency" }),
      422,
      "amount.currency",
    );
    expectProblem(await act(sam.id, "adjust", ADMIN, { amount: usd(100), reason: "extra", extra: 1 }), 400);
    expect(await balance()).toBe(start);
  });
});

// Issue 26, item 2: the bound held per request only, so four +$50.00 credits in a row moved $200.00
// with nobody's approval. It is per person, per account, per rolling 24 hours (credits and charges apart).
describe("the bound is per person, per account, per rolling 24 hours", () => {
  const waits = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(202);
    expect(JSON.parse(res.body)).toMatchObject({ status: "pending" });
  };

  it("an agent's four +$50.00 credits in a row: the first moves, the next three wait for approval", async () => {
    const agent = await freshStaff("agent");
    const start = await balance();
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await act(sam.id, "adjust", agent, { amount: usd(5000), reason: `goodwill ${i + 1}` }));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 202, 202, 202]);
    expect(await balance()).toBe(start + 5000);
    const own = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, sam.id), eq(ledgerEntries.actorUid, agent.uid)));
    expect(own.map((e) => e.amount)).toEqual([5000]);
    // Small amounts add up the same way: one more cent waits too.
    waits(await act(sam.id, "adjust", agent, { amount: usd(1), reason: "one more cent" }));
  });

  it("credits and charges are bounded apart; a refund is a credit", async () => {
    const agent = await freshStaff("agent");
    expect((await act(sam.id, "adjust", agent, { amount: usd(3000), reason: "outage credit" })).statusCode).toBe(200);
    waits(await act(sam.id, "refund", agent, { amount: usd(2001), reason: "charged twice" }));
    expect((await act(sam.id, "refund", agent, { amount: usd(2000), reason: "charged twice" })).statusCode).toBe(200);
    // The credits' $50.00 is used up; charges have their own.
    expect((await act(sam.id, "charge", agent, { amount: usd(5000), reason: "replacement SIM fee" })).statusCode).toBe(
      200,
    );
    waits(await act(sam.id, "charge", agent, { amount: usd(1), reason: "one more fee" }));
    waits(await act(sam.id, "adjust", agent, { amount: usd(1), reason: "one more credit" }));
  });

  it("per account and per person: another account, or another agent, starts from nothing", async () => {
    const agent = await freshStaff("agent");
    expect((await act(sam.id, "adjust", agent, { amount: usd(5000), reason: "goodwill" })).statusCode).toBe(200);
    waits(await act(sam.id, "adjust", agent, { amount: usd(100), reason: "goodwill again" }));
    expect((await act(alexPrepaid.id, "adjust", agent, { amount: usd(5000), reason: "goodwill" })).statusCode).toBe(
      200,
    );
    // Another agent needs its own verification of the caller: the first agent's does not carry over.
    const colleague = await freshStaff("agent", { verified: false });
    const before = await balance();
    expect(
      expectProblem(await act(sam.id, "adjust", colleague, { amount: usd(5000), reason: "goodwill" }), 403).type,
    ).toBe(PROBLEM_TYPES.callerNotVerified);
    expect(await balance()).toBe(before);
    await verifyDemoCallers(backend, ["demo-sam"], colleague.uid);
    expect((await act(sam.id, "adjust", colleague, { amount: usd(5000), reason: "goodwill" })).statusCode).toBe(200);
  });

  it("an admin's $1,000.00 adds up the same way", async () => {
    const admin = await freshStaff("admin");
    expect((await act(sam.id, "adjust", admin, { amount: usd(60_000), reason: "long outage" })).statusCode).toBe(200);
    waits(await act(sam.id, "adjust", admin, { amount: usd(60_000), reason: "long outage, again" }));
    expect((await act(sam.id, "adjust", admin, { amount: usd(40_000), reason: "the rest of it" })).statusCode).toBe(
      200,
    );
  });

  it("the 24 hours roll: what was moved more than a day ago no longer counts, what was moved 23 hours ago does", async () => {
    const agent = await freshStaff("agent");
    const entry = (hoursAgo: number) => ({
      operatorCode: "ATT",
      accountId: sam.id,
      kind: "adjustment" as const,
      amount: 5000,
      currency: "USD",
      reason: "earlier goodwill",
      actorUid: agent.uid,
      actorRole: "agent",
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
    });
    await backend.database.db.insert(ledgerEntries).values(entry(25));
    expect((await act(sam.id, "adjust", agent, { amount: usd(5000), reason: "today's goodwill" })).statusCode).toBe(
      200,
    );
    const other = await freshStaff("agent");
    await backend.database.db.insert(ledgerEntries).values({ ...entry(23), actorUid: other.uid, amount: 4000 });
    waits(await act(sam.id, "adjust", other, { amount: usd(1001), reason: "today's goodwill" }));
    expect((await act(sam.id, "adjust", other, { amount: usd(1000), reason: "today's goodwill" })).statusCode).toBe(
      200,
    );
  });

  it("two credits sent at once count each other: one moves, one waits", async () => {
    const agent = await freshStaff("agent");
    const start = await balance();
    const answers = await Promise.all(
      [1, 2].map((i) => act(sam.id, "adjust", agent, { amount: usd(3000), reason: `at once ${i}` })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 202]);
    expect(await balance()).toBe(start + 3000);
  });
});
