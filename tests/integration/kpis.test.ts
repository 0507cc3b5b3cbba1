import { and, count, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, invoices, ledgerEntries, lines, operators, tickets } from "../../server/db/schema";
import type { KpiReport } from "../../src/resources/kpis";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";

// The operator's KPIs (issue 12, item 8) on the real database: every figure moves by exactly what
// was written, days are the operator's own, only admins of that operator see them.
let backend: TestBackend;
let timezone: string;

/** A day in the operator's time zone, `offset` days from today. */
/**
 * The operator's calendar day `offset` days from today there. Days are counted on the calendar, not
 * as 24-hour steps back from now: across a DST change those land on the wrong day for an hour (40
 * days before 23:10 EST on Nov 26 is 00:10 EDT on Oct 18, one day short).
 */
const dayIn = (tz: string, offset = 0) => {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: tz }).format(new Date());
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + offset);
  return day.toISOString().slice(0, 10);
};

async function report(as = ADMIN, from = dayIn(timezone, -2), to = dayIn(timezone), operator?: string) {
  const res = await backend.get(`/api/v1/kpis?from=${from}&to=${to}`, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<KpiReport>();
}
const today = (r: KpiReport) => r.days.find((d) => d.day === dayIn(timezone))!;
const bucket = (r: KpiReport, key: string) => r.openTicketsByAge.find((b) => b.bucket === key)!.count;

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  [{ timezone }] = (await backend.database.db
    .select({ timezone: operators.timezone })
    .from(operators)
    .where(eq(operators.code, "ATT"))) as [{ timezone: string }];
});
afterAll(async () => {
  await backend?.close();
});

describe("GET /kpis", () => {
  it("lists every day of the period, with the lines created today and the lines active now", async () => {
    const r = await report();
    expect(r.days.map((d) => d.day)).toEqual([dayIn(timezone, -2), dayIn(timezone, -1), dayIn(timezone)]);
    expect(r).toMatchObject({ timezone, currency: "USD" });
    const db = backend.database.db;
    const [{ active }] = (await db
      .select({ active: count() })
      .from(lines)
      .where(and(eq(lines.operatorCode, "ATT"), eq(lines.status, "active")))) as [{ active: number }];
    const [{ all }] = (await db.select({ all: count() }).from(lines).where(eq(lines.operatorCode, "ATT"))) as [
      { all: number },
    ];
    expect(r.activeLines).toBe(active);
    // The test database was seeded just now: every ATT line is new today.
    expect(r.days.reduce((n, d) => n + d.newLines, 0)).toBe(all);
  });

  it("moves by exactly what happened: a top-up, a charge, a refund, a churned line, a paid bill and an old open ticket", async () => {
    const db = backend.database.db;
    const before = await report();
    const [account] = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.operatorCode, "ATT"), eq(accounts.type, "prepaid")))
      .limit(1);
    const entry = {
      operatorCode: "ATT",
      accountId: account!.id,
      currency: "USD",
      reason: "kpi test",
      actorRole: "admin",
    } as const;
    await db.insert(ledgerEntries).values([
      { ...entry, kind: "top_up", amount: 2_500 },
      { ...entry, kind: "charge", amount: 1_000 },
      { ...entry, kind: "refund", amount: 300 },
    ]);
    const [line] = await db
      .select({ id: lines.id })
      .from(lines)
      .where(and(eq(lines.operatorCode, "ATT"), eq(lines.status, "active")))
      .limit(1);
    await db.update(lines).set({ status: "terminated", updatedAt: new Date() }).where(eq(lines.id, line!.id));
    await db.insert(tickets).values({
      operatorCode: "ATT",
      accountId: account!.id,
      category: "billing",
      subject: "an old one",
      priority: "medium",
      createdBy: "kpi-test",
      createdByRole: "subscriber",
      createdAt: new Date(Date.now() - 5 * 86_400_000),
    });

    const after = await report();
    expect(today(after).topUps).toEqual({
      count: today(before).topUps.count + 1,
      amount: today(before).topUps.amount + 2_500,
    });
    expect(after.revenue.amount).toBe(before.revenue.amount + 700);
    expect(today(after).churnedLines).toBe(today(before).churnedLines + 1);
    expect(after.activeLines).toBe(before.activeLines - 1);
    expect(after.arpu.amount).toBe(Math.round(after.revenue.amount / after.activeLines));
    expect(bucket(after, "3to7d")).toBe(bucket(before, "3to7d") + 1);
    expect(bucket(after, "under1d")).toBe(bucket(before, "under1d"));
  });

  it("counts a bill on the day it was paid", async () => {
    const db = backend.database.db;
    const before = await report(ADMIN, dayIn(timezone, -40), dayIn(timezone));
    const [bill] = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.operatorCode, "ATT"), ne(invoices.status, "paid")))
      .limit(1);
    expect(bill).toBeDefined();
    await db.update(invoices).set({ status: "paid", paidAt: new Date() }).where(eq(invoices.id, bill!.id));
    const after = await report(ADMIN, dayIn(timezone, -40), dayIn(timezone));
    expect(today(after).payments).toEqual({
      count: today(before).payments.count + 1,
      amount: today(before).payments.amount + bill!.totalAmount,
    });
    expect(after.days).toHaveLength(41);
  });

  it("is for the operator's admins only, and each operator sees its own", async () => {
    expectProblem(await backend.get(`/api/v1/kpis?from=${dayIn(timezone, -1)}&to=${dayIn(timezone)}`), 401);
    expectProblem(
      await backend.get(`/api/v1/kpis?from=${dayIn(timezone, -1)}&to=${dayIn(timezone)}`, { as: ALEX }),
      403,
    );
    expectProblem(
      await backend.get(`/api/v1/kpis?from=${dayIn(timezone, -1)}&to=${dayIn(timezone)}`, { as: AGENT }),
      403,
    );
    const tmo = await report(TMO_ADMIN, dayIn(timezone, -1), dayIn(timezone), "TMO");
    const [{ active }] = (await backend.database.db
      .select({ active: count() })
      .from(lines)
      .where(and(eq(lines.operatorCode, "TMO"), eq(lines.status, "active")))) as [{ active: number }];
    expect(tmo.activeLines).toBe(active);
    expect(tmo.activeLines).not.toBe((await report()).activeLines);
    // An ATT admin naming TMO is refused: the token's operator decides.
    expect(
      (
        await backend.get(`/api/v1/kpis?from=${dayIn(timezone, -1)}&to=${dayIn(timezone)}`, {
          as: ADMIN,
          operator: "TMO",
        })
      ).statusCode,
    ).toBeGreaterThanOrEqual(400);
  });

  it("refuses a malformed period at the parameter that is wrong", async () => {
    const get = (query: string) => backend.get(`/api/v1/kpis?${query}`, { as: ADMIN });
    expectProblem(await get(`to=${dayIn(timezone)}`), 400, "from");
    expectProblem(await get(`from=2026-13-01&to=${dayIn(timezone)}`), 400, "from");
    expectProblem(await get("from=2026-11-10&to=2026-11-01"), 400, "to");
    expectProblem(await get("from=2025-01-01&to=2026-11-01"), 400, "to");
    expectProblem(await get(`from=${dayIn(timezone)}&to=${dayIn(timezone)}&extra=1`), 400);
  });
});
