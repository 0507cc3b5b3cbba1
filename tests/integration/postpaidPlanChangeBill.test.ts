import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceCharges, invoices, ledgerEntries, lines, plans } from "../../server/db/schema";
import { closeCycles } from "../../server/domain/money/cycleClose";
import type { Invoice } from "../../src/resources/invoices";
import type { Meter } from "../../src/resources/usage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX } from "../support/fixtures";

// Issue 24: a postpaid plan change made now, mid-cycle, reaches the bill (the known gap of docs/money.md:
// a downgrade's credit never came off a bill, and the closing fee took the plan of the day, not the one
// the period started on). The bill of the period charges old × used days + new × remaining days; the
// preview shows the figures the change posts; a retry posts nothing twice; on the real database (TEST_DB).
let backend: TestBackend;
const planId: Record<string, string> = {};
const price: Record<string, number> = {};
let lineId: string;
let accountId: string;

interface Quote {
  lines: { label: string; amount?: { amount: number; currency: string } }[];
  total: { amount: number; currency: string } | null;
}

const changePlan = (body: Record<string, unknown>, options: { preview?: boolean; key?: string } = {}) =>
  backend.send("POST", `/api/v1/lines/${lineId}/actions/change-plan${options.preview ? "/preview" : ""}`, {
    as: ALEX,
    body,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });

const meterCycle = async () => {
  const meter = (await backend.get(`/api/v1/lines/${lineId}/meters`, { as: ADMIN })).json<Meter[]>()[0]!;
  return { cycleStart: meter.cycleStart, cycleEnd: meter.cycleEnd };
};

const entriesOfOrder = (orderId: string) =>
  backend.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.referenceType, "order"), eq(ledgerEntries.referenceId, orderId)));

beforeAll(async () => {
  backend = await startTestBackend();
  for (const row of await backend.database.db.select().from(plans)) {
    planId[row.code] = row.id;
    price[row.code] = row.priceAmount;
  }
  const [row] = await backend.database.db
    .select({ id: lines.id, accountId: lines.accountId, planId: lines.planId })
    .from(lines)
    .where(eq(lines.msisdn, "+12025550102"));
  lineId = row!.id;
  accountId = row!.accountId;
  expect(row!.planId).toBe(planId.POST_50GB);
});

afterAll(async () => {
  await backend?.close();
});

describe("a postpaid plan change now, on the next bill", () => {
  it("a downgrade: the preview's credit is the entry posted (once, however often retried), and the period's bill charges the dearer plan's used days only", async () => {
    const body = { planId: planId.POST_10GB, effective: "now" };
    const preview = await changePlan(body, { preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const quote = preview.json<Quote>();
    const [credit, charge] = quote.lines.map((l) => l.amount?.amount ?? 0);
    expect(credit).toBeLessThan(0);
    expect(quote.total!.amount).toBe(credit! + charge!);
    expect(quote.total!.amount).toBeLessThan(0);
    expect(quote.lines.map((l) => l.label)).toContain("resources.lines.preview.creditOnNextBill");

    // The same change sent three times at once with one key: one order, one credit.
    const answers = await Promise.all([0, 1, 2].map(() => changePlan(body, { key: `downgrade-${lineId}` })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const orderIds = new Set(answers.map((a) => a.json<{ order: { id: string } }>().order.id));
    expect(orderIds.size).toBe(1);
    const [orderId] = [...orderIds];
    // A second change to the same plan under a new key changes nothing (409).
    expect((await changePlan(body, { key: `downgrade-again-${lineId}` })).statusCode).toBe(409);

    const entries = await entriesOfOrder(orderId!);
    expect(entries.map((e) => [e.kind, e.amount, e.balanceAfter])).toEqual([
      ["adjustment", -quote.total!.amount, null],
    ]);

    // The cycle closes on its last day: the period started on POST_50GB, so its fee is POST_50GB's,
    // and the downgrade's credit comes off it as a proration line.
    const { cycleStart, cycleEnd } = await meterCycle();
    const { issued } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [accountId],
      asOf: new Date(`${cycleEnd}T12:00:00Z`),
    });
    expect(issued).toHaveLength(1);
    const bill = (await backend.get(`/api/v1/invoices/${issued[0]!.invoiceId}`, { as: ALEX })).json<Invoice>();
    expect(bill.periodStart).toBe(cycleStart);
    const plan = bill.items.filter((i) => i.kind === "plan");
    expect(plan.map((i) => i.amount.amount)).toEqual([price.POST_50GB]);
    const proration = bill.items.filter((i) => i.kind === "proration");
    expect(proration.map((i) => i.amount.amount)).toEqual([quote.total!.amount]);
    // Old × used + new × remaining: the full dearer fee less the credit.
    expect(plan[0]!.amount.amount + proration[0]!.amount.amount).toBe(price.POST_50GB! + quote.total!.amount);
    expect(bill.subtotal.amount).toBe(bill.items.reduce((sum, i) => sum + i.amount.amount, 0));
    // Every entry the bill shows is collected by it once: the credit is never deducted again.
    const collected = await backend.database.db
      .select()
      .from(invoiceCharges)
      .where(eq(invoiceCharges.ledgerEntryId, entries[0]!.id));
    expect(collected.map((c) => c.invoiceId)).toEqual([bill.id]);

    // The next period started on POST_10GB: its fee is the cheaper plan's, and no credit is left.
    const after = new Date(Date.parse(`${cycleEnd}T12:00:00Z`) + 32 * 86_400_000);
    const { issued: next } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      accountIds: [accountId],
      asOf: after,
    });
    expect(next).toHaveLength(1);
    const nextBill = (await backend.get(`/api/v1/invoices/${next[0]!.invoiceId}`, { as: ALEX })).json<Invoice>();
    expect(nextBill.items.filter((i) => i.kind === "plan").map((i) => i.amount.amount)).toEqual([price.POST_10GB]);
    expect(nextBill.items.filter((i) => i.kind === "proration")).toEqual([]);
    // Closing again changes nothing.
    expect(
      (await closeCycles(backend.database.db, { operatorCode: "ATT", accountIds: [accountId], asOf: after })).issued,
    ).toEqual([]);
  });

  it("an upgrade is billed the same way: the period's fee is the plan it started on, plus the net proration charge", async () => {
    const preview = (
      await changePlan({ planId: planId.POST_PREMIUM, effective: "now" }, { preview: true })
    ).json<Quote>();
    expect(preview.total!.amount).toBeGreaterThan(0);
    expect(preview.lines.map((l) => l.label)).toContain("resources.lines.preview.chargeOnNextBill");
    const res = await changePlan({ planId: planId.POST_PREMIUM, effective: "now" });
    expect(res.statusCode, res.body).toBe(200);
    const orderId = res.json<{ order: { id: string } }>().order.id;
    const entries = await entriesOfOrder(orderId);
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([["charge", preview.total!.amount]]);

    // Far ahead: a period that started on POST_10GB (the line was on it then), the upgrade's charge unbilled till now.
    const asOf = new Date(Date.now() + 120 * 86_400_000);
    const { issued } = await closeCycles(backend.database.db, { operatorCode: "ATT", accountIds: [accountId], asOf });
    expect(issued).toHaveLength(1);
    const bill = (await backend.get(`/api/v1/invoices/${issued[0]!.invoiceId}`, { as: ALEX })).json<Invoice>();
    expect(bill.items.filter((i) => i.kind === "proration").map((i) => i.amount.amount)).toEqual([
      preview.total!.amount,
    ]);
    // That period started after the change: its fee is POST_PREMIUM's.
    expect(bill.items.filter((i) => i.kind === "plan").map((i) => i.amount.amount)).toEqual([price.POST_PREMIUM]);
    // Money conserved: what the bills of the account collected is exactly the entries posted, each once.
    const billsOf = await backend.database.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.accountId, accountId));
    const rows = await backend.database.db
      .select({ entry: invoiceCharges.ledgerEntryId })
      .from(invoiceCharges)
      .where(
        inArray(
          invoiceCharges.invoiceId,
          billsOf.map((b) => b.id),
        ),
      );
    expect(new Set(rows.map((r) => r.entry)).size).toBe(rows.length);
  });
});
