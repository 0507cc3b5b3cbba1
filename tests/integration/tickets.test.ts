import { and, count, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, notifications, operators, ticketMessages, tickets } from "../../server/db/schema";
import type { Account } from "../../src/resources/accounts";
import type { Ticket } from "../../src/resources/tickets";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";
import { expectProblem } from "../support/problems";

// Tickets (TMF621, issue 12) through the route factory on the real database and the Auth emulator.
const TICKETS = "/api/v1/tickets";
const HOUR = 3_600_000;

let backend: TestBackend;
let samAccount: Account;
let alexAccount: Account;

async function open(as: string, body: Record<string, unknown>) {
  const res = await backend.send("POST", TICKETS, { as, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Ticket>();
}

const act = (id: string, action: string, as: string, body?: Record<string, unknown>, operator?: string) =>
  backend.send("POST", `${TICKETS}/${id}/actions/${action}`, { as, body, operator });

async function actOk(id: string, action: string, as: string, body?: Record<string, unknown>) {
  const res = await act(id, action, as, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Ticket>();
}

const countOf = async (table: typeof tickets | typeof ticketMessages | typeof notifications | typeof auditEvents) =>
  (await backend.database.db.select({ n: count() }).from(table))[0]!.n;
const snapshot = async () => ({
  tickets: await countOf(tickets),
  messages: await countOf(ticketMessages),
  notices: await countOf(notifications),
  // Writes only: the server records each user's first sign-in on their first request (issue 27).
  audit: (
    await backend.database.db
      .select({ n: count() })
      .from(auditEvents)
      .where(ne(auditEvents.action, "identity.signed_in"))
  )[0]!.n,
});

beforeAll(async () => {
  backend = await startTestBackend();
  [samAccount] = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data as [Account];
  [alexAccount] = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data as [Account];
});

afterAll(async () => {
  await backend?.close();
});

describe("opening a ticket", () => {
  it("a subscriber opens one on their account: received, prioritised by topic, due by the SLA, audited", async () => {
    const ticket = await open(SAM, {
      accountId: samAccount.id,
      category: "network",
      subject: "No signal at home",
      message: "Since Monday I have no signal in Brooklyn.",
    });
    expect(ticket).toMatchObject({
      accountId: samAccount.id,
      accountName: "Sam Chen",
      status: "acknowledged",
      priority: "high",
      assigned: false,
      createdByRole: "subscriber",
      message: "Since Monday I have no signal in Brooklyn.",
      messages: [],
    });
    expect(Date.parse(ticket.slaDueAt!) - Date.parse(ticket.createdAt)).toBe(8 * HOUR);
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "tickets.create"), eq(auditEvents.targetId, ticket.id)));
    expect(audit).toMatchObject({ actorRole: "subscriber", actorUid: "demo-sam" });
  });

  it("refuses, changing nothing: no token (401), another's account (400 at accountId), bad fields (400 at each), server-set ones (403 naming them), another operator (403)", async () => {
    const before = await snapshot();
    const good = {
      accountId: samAccount.id,
      category: "billing",
      subject: "Double charge",
      message: "I was charged twice this month.",
    };
    expectProblem(await backend.send("POST", TICKETS, { body: good }), 401);
    expectProblem(await backend.send("POST", TICKETS, { as: ALEX, body: good }), 400, "accountId");
    expectProblem(await backend.send("POST", TICKETS, { as: SAM, body: { ...good, subject: "x" } }), 400, "subject");
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: { ...good, category: "weather" } }),
      400,
      "category",
    );
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: { ...good, message: undefined } }),
      400,
      "message",
    );
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: { ...good, priority: "urgent" } }),
      403,
      "priority",
    );
    expectProblem(await backend.send("POST", TICKETS, { as: TAYLOR, body: good }), 403);
    expectProblem(
      await backend.send("POST", TICKETS, { as: TMO_AGENT, operator: "TMO", body: good }),
      400,
      "accountId",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("only its holder and the operator's staff see it", async () => {
    const ticket = await open(SAM, {
      accountId: samAccount.id,
      category: "other",
      subject: "Question about roaming",
      message: "Does my plan work in Canada?",
    });
    expect((await backend.get(`${TICKETS}/${ticket.id}`, { as: SAM })).statusCode).toBe(200);
    expect((await backend.get(`${TICKETS}/${ticket.id}`, { as: AGENT })).statusCode).toBe(200);
    expectProblem(await backend.get(`${TICKETS}/${ticket.id}`, { as: ALEX }), 404);
    expectProblem(await backend.get(`${TICKETS}/${ticket.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    expect((await backend.get(TICKETS, { as: ALEX })).json<{ data: Ticket[] }>().data.map((t) => t.id)).not.toContain(
      ticket.id,
    );
    expect((await backend.get(TICKETS, { as: TMO_AGENT, operator: "TMO" })).json<{ total: number }>().total).toBe(0);
    expectProblem(await act(ticket.id, "reply", ALEX, { message: "Let me in" }), 404);
    expectProblem(await backend.get(TICKETS), 401);
  });
});

describe("the queue", () => {
  it("sorts open tickets by priority, then the oldest first", async () => {
    const low = await open(ALEX, {
      accountId: alexAccount.id,
      category: "plan",
      subject: "Plan question",
      message: "Which plan has hotspot?",
    });
    const medium = await open(ALEX, {
      accountId: alexAccount.id,
      category: "billing",
      subject: "Bill question",
      message: "Why is my bill higher?",
    });
    const high = await open(ALEX, {
      accountId: alexAccount.id,
      category: "sim",
      subject: "SIM broken",
      message: "My SIM is not detected.",
    });
    const res = await backend.get(
      `${TICKETS}?filter[status][in]=acknowledged,in_progress,pending&sort=-priority,createdAt&pageSize=100`,
      { as: AGENT },
    );
    expect(res.statusCode, res.body).toBe(200);
    const order = res.json<{ data: Ticket[] }>().data.map((t) => t.id);
    const ranks = res
      .json<{ data: Ticket[] }>()
      .data.map((t) => ["low", "medium", "high", "urgent"].indexOf(t.priority));
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(order.indexOf(high.id)).toBeLessThan(order.indexOf(medium.id));
    expect(order.indexOf(medium.id)).toBeLessThan(order.indexOf(low.id));
    expectProblem(await backend.get(`${TICKETS}?sort=subject`, { as: AGENT }), 400, "sort");
  });

  it("filters by priority by its name while sorting by its rank, and keyset pages keep the rank order", async () => {
    const sim = await open(ALEX, {
      accountId: alexAccount.id,
      category: "sim",
      subject: "No signal after swap",
      message: "The new SIM shows no signal.",
    });
    const byName = await backend.get(`${TICKETS}?filter[priority]=${sim.priority}&pageSize=100`, { as: AGENT });
    expect(byName.statusCode, byName.body).toBe(200);
    const named = byName.json<{ data: Ticket[] }>().data;
    expect(named.map((t) => t.id)).toContain(sim.id);
    expect(new Set(named.map((t) => t.priority))).toEqual(new Set([sim.priority]));
    const inList = await backend.get(`${TICKETS}?filter[priority][in]=urgent,${sim.priority}&pageSize=100`, {
      as: AGENT,
    });
    expect(inList.statusCode, inList.body).toBe(200);
    expect(inList.json<{ data: Ticket[] }>().data.every((t) => ["urgent", sim.priority].includes(t.priority))).toBe(
      true,
    );
    expectProblem(await backend.get(`${TICKETS}?filter[priority]=soon`, { as: AGENT }), 400, "filter[priority]");

    // A keyset walk by priority, two at a time: the same order as one page by number, urgent first.
    const rank = (t: Ticket) => ["low", "medium", "high", "urgent"].indexOf(t.priority);
    const walked: Ticket[] = [];
    let cursor = "";
    for (let page = 0; page < 50; page++) {
      const res = await backend.get(`${TICKETS}?sort=-priority&pageSize=2&cursor=${encodeURIComponent(cursor)}`, {
        as: AGENT,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ data: Ticket[]; next?: string }>();
      walked.push(...body.data);
      if (!body.next) break;
      cursor = body.next;
    }
    const onePage = await backend.get(`${TICKETS}?sort=-priority&pageSize=100`, { as: AGENT });
    expect(walked.map((t) => t.id)).toEqual(onePage.json<{ data: Ticket[] }>().data.map((t) => t.id));
    expect(walked.length).toBeGreaterThan(2);
    expect(walked.map(rank)).toEqual(walked.map(rank).sort((a, b) => b - a));
  });

  it("an operator's own SLA hours move the due time; resolved tickets have none", async () => {
    await backend.database.db
      .update(operators)
      .set({ settings: { ticketSlaHours: { low: 2 } } })
      .where(eq(operators.code, "ATT"));
    try {
      const ticket = await open(ALEX, {
        accountId: alexAccount.id,
        category: "other",
        subject: "Short SLA",
        message: "Checking the clock.",
      });
      expect(Date.parse(ticket.slaDueAt!) - Date.parse(ticket.createdAt)).toBe(2 * HOUR);
    } finally {
      await backend.database.db.update(operators).set({ settings: {} }).where(eq(operators.code, "ATT"));
    }
  });
});

describe("working a ticket (TMF621 states)", () => {
  it("care answers, the customer is told; waiting on the customer, their answer reopens it; resolved, then closed", async () => {
    const ticket = await open(SAM, {
      accountId: samAccount.id,
      category: "sim",
      subject: "eSIM will not install",
      message: "The QR code fails.",
    });
    expectProblem(await act(ticket.id, "take", SAM), 403);
    expectProblem(await act(ticket.id, "resolve", SAM), 403);

    const answered = await actOk(ticket.id, "reply", AGENT, { message: "Please restart the phone and scan again." });
    expect(answered).toMatchObject({ status: "in_progress", assigned: true });
    expect(answered.messages).toEqual([
      expect.objectContaining({ authorRole: "agent", body: "Please restart the phone and scan again." }),
    ]);
    expect(JSON.stringify(answered)).not.toMatch(/demo-agent|Casey/);
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-sam"), eq(notifications.kind, "ticket.replied")));
    expect(notices.map((n) => n.params)).toContainEqual({ subject: "eSIM will not install", byRole: "agent" });

    expect((await actOk(ticket.id, "pend", AGENT)).status).toBe("pending");
    expect((await actOk(ticket.id, "reply", SAM, { message: "Still failing after a restart." })).status).toBe(
      "in_progress",
    );
    const resolved = await actOk(ticket.id, "resolve", AGENT);
    expect(resolved).toMatchObject({ status: "resolved", slaDueAt: null });
    expectProblem(await act(ticket.id, "pend", AGENT), 409, "status");
    const closed = await actOk(ticket.id, "close", SAM);
    expect(closed.status).toBe("closed");
    expect(closed.messages.map((m) => m.authorRole)).toEqual(["agent", "subscriber"]);

    const before = await snapshot();
    expectProblem(await act(ticket.id, "reply", SAM, { message: "One more thing" }), 409, "status");
    expectProblem(await act(ticket.id, "cancel", SAM), 409, "status");
    expect(await snapshot()).toEqual(before);
    const trail = await backend.database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, ticket.id));
    expect(trail.map((a) => a.action).sort()).toEqual([
      "tickets.close",
      "tickets.create",
      "tickets.pend",
      "tickets.reply",
      "tickets.reply",
      "tickets.resolve",
    ]);
  });

  it("a reply to a resolved ticket reopens it; staff cancel only with a reason; a subscriber cancels their own", async () => {
    const ticket = await open(SAM, {
      accountId: samAccount.id,
      category: "billing",
      subject: "Refund request",
      message: "Please refund the roaming pass.",
    });
    await actOk(ticket.id, "take", ADMIN);
    await actOk(ticket.id, "resolve", ADMIN);
    expect((await actOk(ticket.id, "reply", SAM, { message: "It is not refunded yet." })).status).toBe("in_progress");
    expectProblem(await act(ticket.id, "cancel", AGENT, {}), 400, "reason");
    const cancelled = await actOk(ticket.id, "cancel", AGENT, { reason: "Duplicate of another ticket" });
    expect(cancelled.status).toBe("cancelled");
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "tickets.cancel"), eq(auditEvents.targetId, ticket.id)));
    expect(audit?.reason).toBe("Duplicate of another ticket");

    const mine = await open(SAM, {
      accountId: samAccount.id,
      category: "other",
      subject: "Never mind",
      message: "I found the answer myself.",
    });
    expect((await actOk(mine.id, "cancel", SAM)).status).toBe("cancelled");
  });

  it("refuses bad input at the field: an empty reply, an unknown priority; the priority changes for staff only", async () => {
    const ticket = await open(SAM, {
      accountId: samAccount.id,
      category: "plan",
      subject: "Upgrade",
      message: "I want more data.",
    });
    const before = await snapshot();
    expectProblem(await act(ticket.id, "reply", SAM, { message: "" }), 400, "message");
    expectProblem(await act(ticket.id, "reply", SAM, {}), 400, "message");
    expectProblem(await act(ticket.id, "prioritize", AGENT, { priority: "asap" }), 400, "priority");
    expectProblem(await act(ticket.id, "prioritize", SAM, { priority: "urgent" }), 403);
    expectProblem(await act("not-a-uuid", "reply", SAM, { message: "hello" }), 400, "id");
    expectProblem(await act(ticket.id, "reply", TMO_AGENT, { message: "hello" }, "TMO"), 404);
    expect(await snapshot()).toEqual(before);
    expect((await actOk(ticket.id, "prioritize", AGENT, { priority: "urgent" })).priority).toBe("urgent");
  });
});
