import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, ledgerEntries, lines, notifications, orders, plans } from "../../server/db/schema";
import { readAccountMoney } from "../../server/domain/money/accountMoney";
import { postLedgerEntry } from "../../server/domain/money/ledger";
import { runDuePlanChanges, SCHEDULED_PLAN_CHANGES_JOB } from "../../server/domain/plans/scheduledChanges";
import { domainJobs } from "../../server/domain/jobs";
import type { Line } from "../../src/resources/lines";
import type { Plan } from "../../src/resources/plans";
import type { Meter } from "../../src/resources/usage";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";

// Plans and plan changes (issue 10): the catalog subscribers see, and lines/{id}/actions/change-plan
// with its preview, the ledger, the order and its timeline, next-cycle orders run by the job; on the
// real database (TEST_DB).
let backend: TestBackend;
const planId: Record<string, string> = {};
const lineId: Record<string, string> = {};
const accountId: Record<string, string> = {};

interface Quote {
  summary: string;
  params?: Record<string, unknown>;
  lines: { label: string; params?: Record<string, unknown>; amount?: { amount: number; currency: string } }[];
  total: { amount: number; currency: string } | null;
}
interface Problem {
  type: string;
  status: number;
  detail: string;
  errors?: { path: string; message: string }[];
  shortfall?: { amount: number; currency: string };
}

async function changePlan(
  line: string,
  body: Record<string, unknown>,
  options: { as?: string; preview?: boolean; operator?: string; key?: string; language?: string } = {},
) {
  return backend.send("POST", `/api/v1/lines/${lineId[line]}/actions/change-plan${options.preview ? "/preview" : ""}`, {
    token: await signInWithPassword(options.as ?? ALEX),
    operator: options.operator,
    body,
    headers: {
      ...(options.key ? { "idempotency-key": options.key } : {}),
      ...(options.language ? { "accept-language": options.language } : {}),
    },
  });
}

/** Days left in the line's cycle (today included) and its length, from its meters: the test's own arithmetic. */
async function cycleOf(line: string) {
  const meter = (await backend.get(`/api/v1/lines/${lineId[line]}/meters`, { as: ADMIN })).json<Meter[]>()[0]!;
  const start = Date.parse(`${meter.cycleStart}T00:00:00Z`);
  const end = Date.parse(`${meter.cycleEnd}T00:00:00Z`);
  return {
    cycleEnd: meter.cycleEnd,
    cycleDays: Math.round((end - start) / 86_400_000),
    remaining: Math.ceil((end - Date.now()) / 86_400_000),
  };
}

const balanceOf = async (account: string) =>
  (await readAccountMoney(backend.database.db, [accountId[account]!])).get(accountId[account]!)!.balance!.amount;
const planOf = async (line: string) =>
  (await backend.database.db.select({ planId: lines.planId }).from(lines).where(eq(lines.id, lineId[line]!)))[0]!
    .planId;

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const row of await backend.database.db.select().from(plans)) planId[row.code] = row.id;
  for (const msisdn of ["+12025550101", "+12025550102", "+12025550103", "+13105550199"]) {
    const [row] = await backend.database.db
      .select({ id: lines.id, accountId: lines.accountId })
      .from(lines)
      .where(eq(lines.msisdn, msisdn));
    lineId[msisdn] = row!.id;
    accountId[msisdn] = row!.accountId;
  }
});

afterAll(async () => {
  await backend?.close();
});

describe("the plan catalog", () => {
  it("subscribers see the active plans only; staff see retired and draft ones too", async () => {
    const alex = (await backend.get("/api/v1/plans?pageSize=50", { as: ALEX })).json<{ data: Plan[] }>();
    expect(alex.data.every((p) => p.status === "active")).toBe(true);
    expect(alex.data.map((p) => p.code)).not.toContain("PRE_2GB_LEGACY");
    expect((await backend.get(`/api/v1/plans/${planId.PRE_2GB_LEGACY}`, { as: ALEX })).statusCode).toBe(404);
    const agent = (await backend.get("/api/v1/plans?pageSize=50", { as: AGENT })).json<{ data: Plan[] }>();
    expect(agent.data.map((p) => p.status)).toEqual(expect.arrayContaining(["active", "retired", "draft"]));
  });
});

describe("POST /lines/{id}/actions/change-plan", () => {
  it("previews a change now as a quote: credit for the old plan's unused days, charge for the new plan's, half-up to the cent; nothing changes", async () => {
    const { remaining, cycleDays } = await cycleOf("+12025550101");
    const res = await changePlan("+12025550101", { planId: planId.PRE_UNL, effective: "now" }, { preview: true });
    expect(res.statusCode, res.body).toBe(200);
    const quote = res.json<Quote>();
    const credit = Math.round((3500 * remaining) / cycleDays);
    const charge = Math.round((5000 * remaining) / cycleDays);
    expect(quote.lines.map((l) => l.amount)).toEqual([
      { amount: -credit, currency: "USD" },
      { amount: charge, currency: "USD" },
    ]);
    expect(quote.lines[0]!.params).toMatchObject({ days: remaining, cycleDays, plan: "Prepaid 15 GB" });
    expect(quote.total).toEqual({ amount: charge - credit, currency: "USD" });
    expect(await planOf("+12025550101")).toBe(planId.PRE_15GB);

    const next = (
      await changePlan("+12025550101", { planId: planId.PRE_UNL, effective: "next-cycle" }, { preview: true })
    ).json<Quote>();
    expect(next.total).toEqual({ amount: 0, currency: "USD" });
    expect(next.summary).toBe("resources.lines.preview.changePlanNextCycle");

    // In Spanish the quote names both plans as the catalog's Spanish does, as the plan picker beside it.
    const es = (
      await changePlan("+12025550101", { planId: planId.PRE_UNL, effective: "now" }, { preview: true, language: "es" })
    ).json<Quote>();
    expect(es.params).toMatchObject({ plan: "Prepago Ilimitado" });
    expect(es.lines.map((l) => l.params?.plan)).toEqual(["Prepago 15 GB", "Prepago Ilimitado"]);
  });

  it("refuses, changing nothing: the same plan 409, a postpaid plan on a prepaid line 422 saying an agent can do it, a retired plan 422, bad input 400 at the field", async () => {
    const same = await changePlan("+12025550101", { planId: planId.PRE_15GB, effective: "now" });
    expect(same.statusCode, same.body).toBe(409);
    expect(same.json<Problem>().errors?.[0]?.path).toBe("planId");

    const kind = await changePlan("+12025550101", { planId: planId.POST_10GB, effective: "now" });
    expect(kind.statusCode, kind.body).toBe(422);
    expect(kind.json<Problem>().detail).toMatch(/care agent can do it/);
    expect(kind.json<Problem>().errors?.[0]?.path).toBe("planId");

    const retired = await changePlan("+12025550101", { planId: planId.PRE_2GB_LEGACY, effective: "now" });
    expect(retired.statusCode, retired.body).toBe(422);

    for (const [body, path] of [
      [{ planId: randomUUID(), effective: "now" }, "planId"],
      [{ planId: "basic", effective: "now" }, "planId"],
      [{ planId: planId.PRE_UNL, effective: "tomorrow" }, "effective"],
      [{ effective: "now" }, "planId"],
    ] as const) {
      const res = await changePlan("+12025550101", body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.path)).toContain(path);
    }
    const otherOperatorsPlan = await changePlan("+12025550101", { planId: planId.TMO_PRE, effective: "now" });
    expect(otherOperatorsPlan.statusCode).toBe(400);

    expect(await planOf("+12025550101")).toBe(planId.PRE_15GB);
    expect(await backend.database.db.select().from(orders).where(eq(orders.lineId, lineId["+12025550101"]!))).toEqual(
      [],
    );
  });

  it("who may: 401 without a token, 404 on another subscriber's line, 403 from another operator, staff only with a reason", async () => {
    const url = `/api/v1/lines/${lineId["+12025550101"]}/actions/change-plan`;
    expect((await backend.send("POST", url, { body: { planId: planId.PRE_UNL } })).statusCode).toBe(401);
    expect((await changePlan("+12025550101", { planId: planId.PRE_UNL }, { as: SAM })).statusCode).toBe(404);
    expect((await changePlan("+12025550101", { planId: planId.PRE_UNL }, { as: TAYLOR })).statusCode).toBe(403);
    expect(
      (await changePlan("+12025550101", { planId: planId.PRE_UNL }, { as: TAYLOR, operator: "TMO" })).statusCode,
    ).toBe(404);
    const noReason = await changePlan("+12025550101", { planId: planId.PRE_UNL }, { as: AGENT });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<Problem>().errors?.[0]?.path).toBe("reason");
  });

  it("now, prepaid: moves the line, charges the net through the ledger once (Idempotency-Key replays), places a completed order and tells the holder", async () => {
    const before = await balanceOf("+12025550101");
    const { remaining, cycleDays } = await cycleOf("+12025550101");
    const net = Math.round((5000 * remaining) / cycleDays) - Math.round((3500 * remaining) / cycleDays);
    const key = randomUUID();
    const res = await changePlan("+12025550101", { planId: planId.PRE_UNL, effective: "now" }, { key });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<Line & { order: { id: string; type: string; state: string } }>();
    expect(answer.planId).toBe(planId.PRE_UNL);
    expect(answer.planName).toBe("Prepaid Unlimited");
    expect(answer.order).toMatchObject({ type: "change_plan", state: "completed" });
    expect(await balanceOf("+12025550101")).toBe(before - net);

    const replay = await changePlan("+12025550101", { planId: planId.PRE_UNL, effective: "now" }, { key });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(await balanceOf("+12025550101")).toBe(before - net);

    const entries = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.referenceId, answer.order.id));
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([["charge", net]]);
    const [order] = await backend.database.db.select().from(orders).where(eq(orders.id, answer.order.id));
    expect(order!.timeline.map((s) => s.state)).toEqual(["acknowledged", "in_progress", "completed"]);
    expect(order!.details).toMatchObject({
      fromPlanId: planId.PRE_15GB,
      toPlanId: planId.PRE_UNL,
      remainingDays: remaining,
      cycleDays,
      net,
    });
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "plan.changed")));
    expect(notices.map((n) => n.params.planName)).toEqual(["Prepaid Unlimited"]);
    // The meters follow the new plan: unlimited data.
    const meters = (await backend.get(`/api/v1/lines/${lineId["+12025550101"]}/meters`, { as: ALEX })).json<Meter[]>();
    expect(meters.find((m) => m.type === "data")!.allowance).toBeNull();
  });

  it("now, prepaid, balance short: 422 naming the shortfall (top up first), and nothing changes", async () => {
    const balance = await balanceOf("+12025550103");
    if (balance > 0) {
      await backend.database.db.transaction((tx) =>
        postLedgerEntry(tx, {
          operatorCode: "ATT",
          accountId: accountId["+12025550103"]!,
          kind: "charge",
          amount: balance,
          currency: "USD",
          reason: "test: spend it all",
          actorUid: null,
          actorRole: "system",
        }),
      );
    }
    const res = await changePlan("+12025550103", { planId: planId.PRE_UNL, effective: "now" }, { as: SAM });
    expect(res.statusCode, res.body).toBe(422);
    const problem = res.json<Problem>();
    expect(problem.errors?.[0]?.path).toBe("amount");
    expect(problem.shortfall?.amount).toBeGreaterThan(0);
    expect(await planOf("+12025550103")).toBe(planId.PRE_5GB);
    expect(await backend.database.db.select().from(orders).where(eq(orders.lineId, lineId["+12025550103"]!))).toEqual(
      [],
    );
  });

  it("now, postpaid, by an agent on behalf: an unbilled charge, the agent's reason on the order and in the audit trail", async () => {
    const res = await changePlan(
      "+12025550102",
      { planId: planId.POST_PREMIUM, effective: "now", reason: "customer asked on the phone" },
      { as: AGENT },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { order } = res.json<{ order: { id: string } }>();
    const [row] = await backend.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ requestedByRole: "agent", reason: "customer asked on the phone", state: "completed" });
    const entries = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.referenceId, order.id));
    expect(entries.map((e) => [e.kind, e.actorRole])).toEqual([["charge", "agent"]]);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.change-plan"), eq(auditEvents.targetId, lineId["+12025550102"]!)));
    expect(audit.map((a) => a.reason)).toEqual(["customer asked on the phone"]);
  });

  it("next cycle: no charge now, an acknowledged order due at the cycle start that the job carries out (once), a second change refused meanwhile", async () => {
    const before = await balanceOf("+12025550103");
    const { cycleEnd } = await cycleOf("+12025550103");
    const res = await changePlan("+12025550103", { planId: planId.PRE_15GB, effective: "next-cycle" }, { as: SAM });
    expect(res.statusCode, res.body).toBe(200);
    const { order } = res.json<{ order: { id: string; state: string } }>();
    expect(order.state).toBe("acknowledged");
    expect(await planOf("+12025550103")).toBe(planId.PRE_5GB);
    expect(await balanceOf("+12025550103")).toBe(before);
    const [placed] = await backend.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(placed).toMatchObject({ effective: "next_cycle", scheduledFor: new Date(`${cycleEnd}T00:00:00Z`) });

    const again = await changePlan("+12025550103", { planId: planId.PRE_UNL, effective: "now" }, { as: SAM });
    expect(again.statusCode).toBe(409);

    const events = {
      published: [] as unknown[],
      publish: (e: unknown) => {
        events.published.push(e);
        return Promise.resolve();
      },
    };
    expect(await runDuePlanChanges(backend.database.db, events, new Date())).toBe(0);
    const atCycleStart = new Date(Date.parse(`${cycleEnd}T00:00:00Z`) + 60_000);
    expect(await runDuePlanChanges(backend.database.db, events, atCycleStart)).toBe(1);
    expect(await runDuePlanChanges(backend.database.db, events, atCycleStart)).toBe(0);
    expect(await planOf("+12025550103")).toBe(planId.PRE_15GB);
    const [done] = await backend.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(done!.timeline.map((s) => [s.state, s.byRole])).toEqual([
      ["acknowledged", "subscriber"],
      ["in_progress", "system"],
      ["completed", "system"],
    ]);
    expect(events.published).toEqual(
      expect.arrayContaining([expect.objectContaining({ resource: "lines", ids: [lineId["+12025550103"]] })]),
    );
  });

  it("the job runs every minute through the durable job queue", () => {
    const job = domainJobs({} as never).find((j) => j.name === SCHEDULED_PLAN_CHANGES_JOB);
    expect(job?.cron).toBe("* * * * *");
  });
});
