import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, lines, notifications, orders } from "../../server/db/schema";
import { runDueCancellations } from "../../server/domain/lines/scheduledCancellations";
import { PROBLEM_TYPES } from "../../src/resources/api";
import type { Account } from "../../src/resources/accounts";
import type { Line } from "../../src/resources/lines";
import type { AvailableNumber } from "../../src/resources/numberInventory";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { joinAccount, newSubscriber } from "../support/accountPeople";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN, TMO_AGENT } from "../support/fixtures";
import { verifyCallerByOverride } from "../support/callerVerification";
import { expectProblem } from "../support/problems";

// A line whose cancellation is scheduled for the end of its cycle (issue 28): the record says when
// (`cancelsOn`), `cancel` is not offered again, and `keep-line` withdraws it (the terminate order ends
// cancelled, the holder is told, the engine audits it); the due run then leaves the line alone.
// Access as `cancel`: holder, manager, verified agent and admin with a reason; members and everyone
// else are refused. On TEST_DB (PGlite, or PostgreSQL when TEST_DATABASE_URL is set).

let backend: TestBackend;
let account: Account;
let planId: string;
const db = () => backend.database.db;

type Answer = Line & { order?: { id: string; type: string; state: string } };

/** A new person who signs up and becomes a subscriber of ATT (as the portal does); their fresh token. */
const act = (
  lineId: string,
  action: "keep-line" | "cancel",
  who: { as?: string; token?: string; operator?: string },
  body?: unknown,
) => backend.send("POST", `/api/v1/lines/${lineId}/actions/${action}`, { ...who, body });

/** A new eSIM line on alex's postpaid account, active at once. */
async function newLine(): Promise<string> {
  const free = await backend.get("/api/v1/number-inventory?areaCode=202", { as: ADMIN });
  const msisdn = free.json<{ data: AvailableNumber[] }>().data[0]!.msisdn;
  const res = await backend.send("POST", `/api/v1/accounts/${account.id}/actions/add-line`, {
    as: ALEX,
    body: { planId, number: { msisdn }, sim: { simType: "esim" } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return String(res.json<{ result: { lineId: string } }>().result.lineId);
}

/** Cancels the line at the end of its cycle (as alex); the scheduled order's day. */
async function scheduleCancellation(lineId: string): Promise<string> {
  const res = await act(lineId, "cancel", { as: ALEX }, { when: "cycle-end" });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json<Answer>();
  expect(answer.order).toMatchObject({ type: "terminate", state: "acknowledged" });
  expect(answer.cancelsOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  return answer.cancelsOn!;
}

const lineAs = async (lineId: string, as = ALEX) => {
  const res = await backend.get(`/api/v1/lines/${lineId}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Line>();
};

const terminateOrders = (lineId: string) =>
  db()
    .select()
    .from(orders)
    .where(and(eq(orders.lineId, lineId), eq(orders.type, "terminate")));

beforeAll(async () => {
  backend = await startTestBackend();
  const mine = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data;
  account = mine.find((a) => a.type === "postpaid")!;
  const plans = (await backend.get("/api/v1/plans?pageSize=100", { as: ADMIN })).json<{
    data: { id: string; kind: string; status: string }[];
  }>().data;
  planId = plans.find((p) => p.kind === "postpaid" && p.status === "active")!.id;
});

afterAll(async () => {
  await backend?.close();
});

describe("a scheduled cancellation on the line record", () => {
  it("cancelsOn names the day in the record and the list; cancel is refused by its declared when while one waits", async () => {
    const lineId = await newLine();
    const fresh = await lineAs(lineId);
    expect(fresh).toMatchObject({ cancelsOn: null, cancellationScheduled: false });
    const day = await scheduleCancellation(lineId);
    const [order] = await terminateOrders(lineId);
    expect(order!.scheduledFor!.toISOString().slice(0, 10)).toBe(day);
    expect(await lineAs(lineId)).toMatchObject({ status: "active", cancelsOn: day, cancellationScheduled: true });
    const list = (await backend.get(`/api/v1/lines?filter[accountId]=${account.id}&pageSize=100`, { as: ALEX })).json<{
      data: Line[];
    }>().data;
    expect(list.find((l) => l.id === lineId)).toMatchObject({ cancelsOn: day, cancellationScheduled: true });
    // Every other line of the account has none.
    expect(list.filter((l) => l.id !== lineId).every((l) => l.cancelsOn === null)).toBe(true);
    // Staff see the same.
    expect(await lineAs(lineId, ADMIN)).toMatchObject({ cancelsOn: day });
    // Cancelling again: the engine's 409 at the field its `when` names, and nothing new is ordered.
    expectProblem(await act(lineId, "cancel", { as: ALEX }, { when: "now" }), 409, "cancelsOn");
    expect(await terminateOrders(lineId)).toHaveLength(1);
  });
});

describe("keep-line", () => {
  it("the holder withdraws the cancellation: order cancelled with its step, notice, audit; the due run leaves the line", async () => {
    const lineId = await newLine();
    const day = await scheduleCancellation(lineId);
    const res = await act(lineId, "keep-line", { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<Answer>();
    expect(answer).toMatchObject({ status: "active", cancelsOn: null, cancellationScheduled: false });
    expect(answer.order).toMatchObject({ type: "terminate", state: "cancelled" });

    const [order] = await terminateOrders(lineId);
    expect(order!.state).toBe("cancelled");
    expect(order!.timeline.at(-1)).toMatchObject({
      state: "cancelled",
      byRole: "subscriber",
      note: "orders.terminate.kept",
    });
    const notices = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "line.cancel_withdrawn")));
    const notice = notices.find((n) => n.link === `/lines/show/${lineId}`);
    expect(notice?.params).toMatchObject({ date: day, byRole: "subscriber" });
    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.keep-line"), eq(auditEvents.targetId, lineId)));
    expect(audit).toBeDefined();
    expect(audit!.before).toMatchObject({ cancelsOn: day });
    expect(audit!.after).toMatchObject({ cancelsOn: null });

    // Nothing left to withdraw: 409, and the line may be cancelled again.
    expectProblem(await act(lineId, "keep-line", { as: ALEX }), 409, "cancellationScheduled");

    // The day comes: the run finds nothing for this line, which stays active.
    const after = new Date(`${day}T00:00:01Z`);
    await runDueCancellations(db(), { publish: () => Promise.resolve() }, after);
    const [row] = await db().select().from(lines).where(eq(lines.id, lineId));
    expect(row!.status).toBe("active");
    expect((await terminateOrders(lineId)).map((o) => o.state)).toEqual(["cancelled"]);
  });

  it("nothing scheduled: 409 and nothing changes", async () => {
    const lineId = await newLine();
    const before = await lineAs(lineId);
    expectProblem(await act(lineId, "keep-line", { as: ALEX }), 409, "cancellationScheduled");
    expect(await lineAs(lineId)).toEqual(before);
  });

  it("bad requests: no token 401, a malformed body or id 400, another subscriber's or operator's line 404", async () => {
    const lineId = await newLine();
    await scheduleCancellation(lineId);
    const anonymous = await backend.send("POST", `/api/v1/lines/${lineId}/actions/keep-line`, { token: "" });
    expect(anonymous.statusCode).toBe(401);
    expectProblem(await act(lineId, "keep-line", { as: ALEX }, { when: "now" }), 400);
    expectProblem(await act(lineId, "keep-line", { as: ALEX }, { reason: 42 }), 400, "reason");
    expectProblem(await act(lineId, "keep-line", { as: ALEX }, ["keep"]), 400);
    expectProblem(await act("not-a-line", "keep-line", { as: ALEX }), 400);
    expectProblem(await act(lineId, "keep-line", { as: SAM }), 404);
    expectProblem(await act(lineId, "keep-line", { as: TAYLOR, operator: "TMO" }), 404);
    expectProblem(await act(lineId, "keep-line", { as: TMO_AGENT, operator: "TMO" }, { reason: "asked" }), 404);
    expectProblem(await act(lineId, "keep-line", { as: TMO_ADMIN, operator: "TMO" }, { reason: "asked" }), 404);
    // A staff member asking under another operator's code is refused before the line is looked at.
    expect((await act(lineId, "keep-line", { as: AGENT, operator: "TMO" }, { reason: "asked" })).statusCode).toBe(403);
    expect((await lineAs(lineId)).cancellationScheduled).toBe(true);
  });

  it("a member of the account may neither cancel nor keep their line (404, as for every action not shared with them); a manager may keep it", async () => {
    const lineId = await newLine();
    const member = await newSubscriber(backend, "keep-member");
    await joinAccount(backend, account.id, member, "member", [lineId]);
    // The member sees the line and that it is to be cancelled…
    await scheduleCancellation(lineId);
    const seen = await backend.get(`/api/v1/lines/${lineId}`, { token: member.token });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json<Line>().cancelsOn).not.toBeNull();
    // …but keeping or cancelling it is the holder's (or a manager's) call.
    expectProblem(await act(lineId, "keep-line", { token: member.token }), 404);
    expectProblem(await act(lineId, "cancel", { token: member.token }, { when: "now" }), 404);
    expect((await lineAs(lineId)).cancellationScheduled).toBe(true);

    const manager = await newSubscriber(backend, "keep-manager");
    await joinAccount(backend, account.id, manager, "manager", []);
    const kept = await act(lineId, "keep-line", { token: manager.token });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Line>().cancelsOn).toBeNull();
  });

  it("staff: an agent only once the caller is verified, and with a reason; an admin with a reason", async () => {
    const lineId = await newLine();
    await scheduleCancellation(lineId);
    expect(expectProblem(await act(lineId, "keep-line", { as: AGENT }, { reason: "Alex called" }), 403).type).toBe(
      PROBLEM_TYPES.callerNotVerified,
    );
    await verifyCallerByOverride(backend, account.id);
    expectProblem(await act(lineId, "keep-line", { as: AGENT }, {}), 400, "reason");
    const kept = await act(lineId, "keep-line", { as: AGENT }, { reason: "Alex called to keep his line" });
    expect(kept.statusCode, kept.body).toBe(200);
    const [order] = await terminateOrders(lineId);
    expect(order!.timeline.at(-1)).toMatchObject({ state: "cancelled", byRole: "agent" });
    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.keep-line"), eq(auditEvents.targetId, lineId)));
    expect(audit).toMatchObject({ actorRole: "agent", reason: "Alex called to keep his line" });

    const other = await newLine();
    await scheduleCancellation(other);
    expectProblem(await act(other, "keep-line", { as: ADMIN }), 400, "reason");
    const byAdmin = await act(other, "keep-line", { as: ADMIN }, { reason: "Kept after a complaint" });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json<Line>().cancellationScheduled).toBe(false);
  });
});
