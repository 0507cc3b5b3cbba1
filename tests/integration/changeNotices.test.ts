import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, lines, notifications, plans } from "../../server/db/schema";
import { newPriceStartsOn } from "../../server/domain/plans/priceChange";
import type { Approval } from "../../src/resources/approvals";
import type { Notification } from "../../src/resources/notifications";
import type { Plan } from "../../src/resources/plans";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";

// Issue 12 items 4 and 6, the notices: a scheduled price change tells the holder of every line it
// reaches (the preview's lines) the new price and the day their line starts paying it; the requester
// of an approval hears the admin's decision and reason. On TEST_DB (PGlite or PostgreSQL).
let backend: TestBackend;
const planId: Record<string, string> = {};
let sam: { id: string };

const usd = (amount: number) => ({ amount, currency: "USD" });

const changePrice = (id: string, body: unknown, who: { as?: string; operator?: string } = { as: ADMIN }) =>
  backend.send("POST", `/api/v1/plans/${id}/actions/change-price`, { ...who, body });

/** Every notice of a kind in the database, whoever it is for. */
async function noticesOf(kind: Notification["kind"]) {
  return backend.database.db.select().from(notifications).where(eq(notifications.kind, kind));
}
const countOf = async (kind: Notification["kind"]) =>
  (await backend.database.db.select({ n: count() }).from(notifications).where(eq(notifications.kind, kind)))[0]!.n;

/** A signed-in person's inbox through the API, of one kind. */
async function inbox(as: string, kind: Notification["kind"], operator?: string) {
  const res = await backend.get(`/api/v1/notifications?pageSize=100&filter[kind]=${kind}`, {
    as,
    ...(operator ? { operator } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Notification[] }>().data;
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const row of await backend.database.db
    .select({ id: plans.id, code: plans.code, operator: plans.operatorCode })
    .from(plans))
    planId[`${row.operator}:${row.code}`] = row.id;
  sam = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: { id: string }[] }>().data[0]!;
});

afterAll(async () => {
  await backend?.close();
});

describe("a scheduled price change tells the holder of every line it reaches", () => {
  it("one notice per active or suspended line of the plan: new price, the line's own next cycle start; count = the preview's lines", async () => {
    const id = planId["ATT:POST_50GB"]!;
    // Every account with a line on the plan gets a holder (the seeded filler accounts have none), so
    // every line the preview counts has an inbox.
    const onPlan = await backend.database.db
      .select({ id: lines.id, accountId: lines.accountId })
      .from(lines)
      .where(eq(lines.planId, id));
    await backend.database.db
      .update(accounts)
      .set({ ownerUid: sql`'holder-' || ${accounts.id}::text` })
      .where(
        and(
          inArray(
            accounts.id,
            onPlan.map((l) => l.accountId),
          ),
          isNull(accounts.ownerUid),
        ),
      );
    // One line terminated (its holder is not told), one suspended (told).
    const others = onPlan.filter((l) => l.id !== onPlan[0]!.id);
    const [terminated, suspended] = others.slice(-2);
    await backend.database.db.update(lines).set({ status: "terminated" }).where(eq(lines.id, terminated!.id));
    await backend.database.db
      .update(lines)
      .set({ status: "suspended", suspendReason: "request" })
      .where(eq(lines.id, suspended!.id));
    // Another operator's line pointed at this plan (it must never be reached, nor counted).
    const [taylorLine] = await backend.database.db.select().from(lines).where(eq(lines.operatorCode, "TMO"));
    await backend.database.db.update(lines).set({ planId: id }).where(eq(lines.id, taylorLine!.id));

    try {
      const preview = await backend.send("POST", `/api/v1/plans/${id}/actions/change-price/preview`, {
        as: ADMIN,
        body: { price: usd(7200) },
      });
      expect(preview.statusCode, preview.body).toBe(200);
      const reached = preview.json<{ params: { lines: number } }>().params.lines;
      expect(reached).toBeGreaterThan(2);
      expect(await countOf("plan.price_changed")).toBe(0); // a preview tells nobody

      const res = await changePrice(id, { price: usd(7200), reason: "new network costs" });
      expect(res.statusCode, res.body).toBe(200);
      const changedAt = new Date(res.json<Plan>().priceChangedAt!);

      const notices = await noticesOf("plan.price_changed");
      expect(notices).toHaveLength(reached);
      const payingLines = await backend.database.db
        .select({ id: lines.id, msisdn: lines.msisdn, cycleDay: lines.cycleDay, ownerUid: accounts.ownerUid })
        .from(lines)
        .innerJoin(accounts, eq(accounts.id, lines.accountId))
        .where(
          and(eq(lines.operatorCode, "ATT"), eq(lines.planId, id), inArray(lines.status, ["active", "suspended"])),
        );
      expect(payingLines).toHaveLength(reached);
      for (const line of payingLines) {
        const notice = notices.find((n) => n.link === `/lines/show/${line.id}`);
        expect(notice, line.msisdn).toBeDefined();
        expect(notice).toMatchObject({ operatorCode: "ATT", recipientUid: line.ownerUid, readAt: null });
        expect(notice!.params).toEqual({
          planName: "Postpaid Extra 50 GB",
          msisdn: line.msisdn,
          amount: 7200,
          currency: "USD",
          date: newPriceStartsOn(line.cycleDay, changedAt),
        });
      }
      expect(notices.map((n) => n.link)).not.toContain(`/lines/show/${terminated!.id}`);
      expect(notices.map((n) => n.link)).toContain(`/lines/show/${suspended!.id}`);
      expect(notices.map((n) => n.link)).not.toContain(`/lines/show/${taylorLine!.id}`);
      expect(notices.every((n) => n.operatorCode === "ATT")).toBe(true);

      // Through the API: alex (a line on the plan, cycle day 12) reads his; sam (another plan) and
      // taylor (another operator) have none.
      const alexs = await inbox(ALEX, "plan.price_changed");
      expect(alexs).toHaveLength(1);
      expect(alexs[0]!.params).toMatchObject({
        msisdn: "+12025550102",
        amount: 7200,
        date: newPriceStartsOn(12, changedAt),
      });
      expect(await inbox(SAM, "plan.price_changed")).toHaveLength(0);
      expect(await inbox(TAYLOR, "plan.price_changed", "TMO")).toHaveLength(0);
    } finally {
      await backend.database.db.update(lines).set({ planId: taylorLine!.planId }).where(eq(lines.id, taylorLine!.id));
    }
  });

  it("a second change refused while the first is reaching lines notifies nobody; refused and malformed calls neither", async () => {
    const id = planId["ATT:POST_50GB"]!;
    const before = await countOf("plan.price_changed");
    expect(before).toBeGreaterThan(0);
    expectProblem(await changePrice(id, { price: usd(7500) }), 409, "price");
    const other = planId["ATT:POST_10GB"]!;
    expectProblem(await changePrice(other, { price: usd(4600) }, { as: AGENT }), 403);
    expectProblem(await changePrice(other, { price: usd(4600) }, { as: SAM }), 403);
    expectProblem(await changePrice(other, { price: usd(4600) }, { as: TMO_ADMIN, operator: "TMO" }), 404);
    expectProblem(
      await backend.send("POST", `/api/v1/plans/${other}/actions/change-price`, { body: { price: usd(4600) } }),
      401,
    );
    expectProblem(await changePrice(other, { price: usd(-1) }), 400, "price.amount");
    expectProblem(await changePrice(other, { price: usd(4500) }), 422, "price.amount");
    expect(await countOf("plan.price_changed")).toBe(before);
  });

  it("a line whose account nobody signs in for has no inbox and gets no notice; a draft nobody is on tells nobody", async () => {
    const id = planId["ATT:POST_10GB"]!;
    const owned = await backend.database.db
      .select({ n: count() })
      .from(lines)
      .innerJoin(accounts, eq(accounts.id, lines.accountId))
      .where(
        and(
          eq(lines.planId, id),
          inArray(lines.status, ["active", "suspended"]),
          sql`${accounts.ownerUid} is not null`,
        ),
      );
    const before = await countOf("plan.price_changed");
    expect((await changePrice(id, { price: usd(4700) })).statusCode).toBe(200);
    expect((await countOf("plan.price_changed")) - before).toBe(owned[0]!.n);

    const draft = planId["ATT:POST_FAMILY_DRAFT"]!;
    const beforeDraft = await countOf("plan.price_changed");
    expect((await changePrice(draft, { price: usd(11_000) })).statusCode).toBe(200);
    expect(await countOf("plan.price_changed")).toBe(beforeDraft);
  });
});

describe("the requester of an approval hears the decision", () => {
  const request = async (amount: number) => {
    const res = await backend.send("POST", `/api/v1/accounts/${sam.id}/actions/adjust`, {
      as: AGENT,
      body: { amount: usd(amount), reason: "long outage" },
    });
    expect(res.statusCode, res.body).toBe(202);
    return res.json<Approval>();
  };
  const decide = (
    id: string,
    action: "approve" | "reject",
    who: { as?: string; operator?: string },
    body: unknown = { reason: "checked the outage log" },
  ) => backend.send("POST", `/api/v1/approvals/${id}/actions/${action}`, { ...who, body });

  it("approved: the agent who asked is told, with the decision and the admin's reason; the holder hears only of the money", async () => {
    const approval = await request(7100);
    const res = await decide(approval.id, "approve", { as: ADMIN }, { reason: "outage confirmed" });
    expect(res.statusCode, res.body).toBe(200);
    const told = (await inbox(AGENT, "approval.decided")).filter((n) => n.link === `/approvals/show/${approval.id}`);
    expect(told).toHaveLength(1);
    expect(told[0]!.params).toEqual({
      decision: "approved",
      approvalKind: "adjustment",
      amount: 7100,
      currency: "USD",
      accountName: approval.accountName,
      reason: "outage confirmed",
      byRole: "admin",
    });
    const [row] = await backend.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.link, `/approvals/show/${approval.id}`));
    expect(row!.recipientUid).toBe(approval.requestedBy);
    expect(await inbox(SAM, "approval.decided")).toHaveLength(0);
    expect(await inbox(ADMIN, "approval.decided")).toHaveLength(0);
  });

  it("rejected: the agent is told it was rejected and why", async () => {
    const approval = await request(6200);
    expect((await decide(approval.id, "reject", { as: ADMIN }, { reason: "no outage on record" })).statusCode).toBe(
      200,
    );
    const told = (await inbox(AGENT, "approval.decided")).filter((n) => n.link === `/approvals/show/${approval.id}`);
    expect(told).toHaveLength(1);
    expect(told[0]!.params).toMatchObject({ decision: "rejected", reason: "no outage on record", amount: 6200 });
  });

  it("refused decisions tell nobody: another operator 404, not an admin 403, anonymous 401, malformed 400, decided twice 409", async () => {
    const approval = await request(5600);
    const before = await countOf("approval.decided");
    expectProblem(await decide(approval.id, "approve", { as: TMO_ADMIN, operator: "TMO" }), 404);
    expectProblem(await decide(approval.id, "approve", { as: AGENT }), 403);
    expectProblem(await decide(approval.id, "reject", { as: SAM }), 403);
    expectProblem(
      await backend.send("POST", `/api/v1/approvals/${approval.id}/actions/reject`, { body: { reason: "anonymous" } }),
      401,
    );
    expectProblem(await decide(approval.id, "reject", { as: ADMIN }, {}), 400, "reason");
    expect(await countOf("approval.decided")).toBe(before);
    expect((await decide(approval.id, "reject", { as: ADMIN })).statusCode).toBe(200);
    expectProblem(await decide(approval.id, "approve", { as: ADMIN }), 409, "status");
    expect(await countOf("approval.decided")).toBe(before + 1);
  });
});
