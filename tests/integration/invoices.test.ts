import { and, eq } from "drizzle-orm";
import { ENGLISH_WORDS, SPANISH_LETTERS, SPANISH_WORDS, leakReport, leaksIn } from "../support/languageLeaks";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifications } from "../../server/db/schema";
import { taxOf } from "../../server/db/seed/seedMoney";
import { markOverdueBills } from "../../server/domain/money/billing";
import { closeCycles } from "../../server/domain/money/cycleClose";
import { domainJobs } from "../../server/domain/jobs";
import type { EngineServices } from "../../server/engine/services";
import type { Account } from "../../src/resources/accounts";
import type { Invoice } from "../../src/resources/invoices";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { pdfText } from "../support/pdfText";

// Postpaid bills (issue 9): the seeded history, the cycle close, overdue, void, and the PDF.
let backend: TestBackend;
let alexPostpaid: Account;
const usd = (amount: number) => ({ amount, currency: "USD" });
const dateIn = (tag: string) => (iso: string) =>
  new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));
/** A bill's date as the PDF writes it: "Nov 1, 2026" in English, "1 nov 2026" in Spanish. */
const usDate = dateIn("en-US");
const esDate = dateIn("es-US");

const billsOf = async (accountId: string, as = ALEX) => {
  const res = await backend.get(`/api/v1/invoices?filter[accountId]=${accountId}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Invoice[]; total: number }>();
};

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  alexPostpaid = (await backend.get("/api/v1/accounts", { as: ALEX }))
    .json<{ data: Account[] }>()
    .data.find((a) => a.type === "postpaid")!;
});

afterAll(async () => {
  await backend?.close();
});

describe("GET /invoices", () => {
  it("lists the postpaid account's three past bills, one overdue with its overage, taxed at the operator's 8.25 %, each beside the last one's total", async () => {
    const { data, total } = await billsOf(alexPostpaid.id);
    expect(total).toBe(3);
    expect(data.map((b) => b.status)).toEqual(["overdue", "paid", "paid"]);
    const plan = {
      kind: "plan",
      description: "Postpaid Extra 50 GB: monthly plan",
      amount: usd(6500),
      usageType: null,
      roamingZone: null,
    };
    for (const bill of data.slice(1)) {
      expect(bill.subtotal).toEqual(usd(6500));
      expect(bill.tax).toEqual(usd(536));
      expect(bill.total).toEqual(usd(7036));
      expect(bill.amountPaid).toEqual(usd(7036));
      expect(bill.amountDue).toEqual(usd(0));
      expect(bill.items).toEqual([plan]);
    }
    // The last cycle's bill lists the rating's overage (data roaming in Canada & Mexico) beside the plan.
    const last = data[0]!;
    expect(last.items).toEqual([
      plan,
      {
        kind: "overage",
        description: "1.5 GB of data beyond the allowance in Canada & Mexico",
        amount: usd(1500),
        usageType: "data",
        roamingZone: "canada_mexico",
      },
    ]);
    expect(last.subtotal).toEqual(usd(8000));
    expect(last.tax).toEqual(usd(660));
    expect(last.total).toEqual(usd(8660));
    expect(last.amountDue).toEqual(usd(8660));
    expect(last.previousTotal).toEqual(usd(7036));
    expect(data[2]!.previousTotal).toBeNull();
    expect(data[0]!.dueOn < new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it("a subscriber sees only their own bills; staff all of their operator's; another operator none", async () => {
    expect((await billsOf(alexPostpaid.id, SAM)).total).toBe(0);
    expect((await billsOf(alexPostpaid.id, AGENT)).total).toBe(3);
    const id = (await billsOf(alexPostpaid.id)).data[0]!.id;
    expectProblem(await backend.get(`/api/v1/invoices/${id}`, { as: SAM }), 404);
    expectProblem(await backend.get(`/api/v1/invoices/${id}`, { as: TAYLOR, operator: "TMO" }), 404);
    expect(
      (
        await backend.get(`/api/v1/invoices?filter[accountId]=${alexPostpaid.id}`, { as: TMO_ADMIN, operator: "TMO" })
      ).json<{ total: number }>().total,
    ).toBe(0);
    expectProblem(await backend.get(`/api/v1/invoices?filter[accountId]=${alexPostpaid.id}`), 401);
    expectProblem(await backend.get("/api/v1/invoices?filter[total]=1", { as: AGENT }), 400, "filter[total]");
    expectProblem(await backend.get("/api/v1/invoices?filter[status]=lost", { as: AGENT }), 400);
  });
});

describe("GET /invoices/{id}/pdf", () => {
  it("renders the bill: a PDF whose page shows the number, the items and the total", async () => {
    const bill = (await billsOf(alexPostpaid.id)).data[0]!;
    const res = await backend.get(`/api/v1/invoices/${bill.id}/pdf`, { as: ALEX });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(bytes);
    expect(text).toContain(bill.number);
    expect(text).toContain("Postpaid Extra 50 GB: monthly plan");
    expect(text).toMatch(/Usage beyond the allowance\nData beyond the allowance \(Canada & Mexico\)\n\$15\.00/);
    expect(text).toMatch(/Total\n\$86\.60/);
    // This cycle's total beside the last one's.
    expect(text).toMatch(/This bill\nLast bill\n\$86\.60\n\$70\.36/);
    expect((await PDFDocument.load(bytes)).getSubject()).toBe(`Total $86.60, due ${usDate(bill.dueOn)}`);
    const leaks = leaksIn("the English bill PDF", text, SPANISH_WORDS, SPANISH_LETTERS);
    expect(leaks, leakReport(leaks)).toEqual([]);
    expect(text).toContain(`Due\n${usDate(bill.dueOn)}`);
  });

  it("is in the language the request asks for (issue 25): Spanish headings, dates, amounts and plan names", async () => {
    const bill = (await billsOf(alexPostpaid.id)).data[0]!;
    const res = await backend.send("GET", `/api/v1/invoices/${bill.id}/pdf`, {
      as: ALEX,
      headers: { "accept-language": "es-MX,es;q=0.9,en;q=0.5" },
    });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain("FACTURA");
    expect(text).toContain(`Número de factura\n${bill.number}`);
    expect(text).toContain(`Vence\n${esDate(bill.dueOn)}`);
    expect(text).toContain(`Período\nDel ${esDate(bill.periodStart)} al ${esDate(bill.periodEnd)}`);
    // The catalog's Spanish plan name, the overage by type and zone, amounts as US Spanish writes them.
    expect(text).toContain("Pospago Extra 50 GB: plan mensual");
    expect(text).toMatch(
      /Consumo por encima de lo incluido\nDatos por encima de lo incluido \(Canadá y México\)\n\$15\.00\n1\.5 GB/,
    );
    expect(text).toMatch(/Impuestos \(8\.25 %\)\n\$6\.60/);
    expect(text).toMatch(/Esta factura\nFactura anterior\n\$86\.60\n\$70\.36/);
    // The walk's list of English words (issue 25 item 5), and the PDF's own headings.
    const leaks = leaksIn("the Spanish bill PDF", text, [
      ...ENGLISH_WORDS,
      "Bill",
      "Due",
      "Period",
      "Total due",
      "Last",
    ]);
    expect(leaks, leakReport(leaks)).toEqual([]);
    expect((await PDFDocument.load(res.rawPayload)).getSubject()).toBe(`Total $86.60, vence el ${esDate(bill.dueOn)}`);
  });

  it("is 404 to other subscribers and operators, 401 without a token, 400 for a bad id", async () => {
    const id = (await billsOf(alexPostpaid.id)).data[0]!.id;
    expect((await backend.get(`/api/v1/invoices/${id}/pdf`, { as: AGENT })).statusCode).toBe(200);
    expectProblem(await backend.get(`/api/v1/invoices/${id}/pdf`, { as: SAM }), 404);
    expectProblem(await backend.get(`/api/v1/invoices/${id}/pdf`, { as: TMO_ADMIN, operator: "TMO" }), 404);
    expectProblem(await backend.get(`/api/v1/invoices/${id}/pdf`), 401);
    expectProblem(await backend.get("/api/v1/invoices/not-a-uuid/pdf", { as: ALEX }), 400, "id");
  });
});

describe("closing a cycle", () => {
  it("bills the plan fee and every unbilled charge, taxed, due in 14 days; a second close bills nothing", async () => {
    const charged = await backend.send("POST", `/api/v1/accounts/${alexPostpaid.id}/actions/charge`, {
      as: AGENT,
      body: { amount: usd(999), reason: "roaming pass bought by phone" },
    });
    expect(charged.statusCode, charged.body).toBe(200);
    const before = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    const latest = (await billsOf(alexPostpaid.id)).data[0]!;
    // The next cycle day after the seeded bills.
    const nextIssue = new Date(`${latest.periodEnd}T12:00:00Z`);
    nextIssue.setUTCDate(nextIssue.getUTCDate() + 1);
    nextIssue.setUTCMonth(nextIssue.getUTCMonth() + 1);

    const first = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      asOf: nextIssue,
      accountIds: [alexPostpaid.id],
    });
    expect(first.issued).toHaveLength(1);
    const bill = (await backend.get(`/api/v1/invoices/${first.issued[0]!.invoiceId}`, { as: ALEX })).json<Invoice>();
    const subtotal = 6500 + 999;
    expect(bill).toMatchObject({
      status: "issued",
      subtotal: usd(subtotal),
      tax: usd(taxOf(subtotal, 825)),
      total: usd(subtotal + taxOf(subtotal, 825)),
      taxRateBps: 825,
    });
    expect(bill.items.map((i) => i.amount.amount).sort((a, b) => a - b)).toEqual([999, 6500]);
    expect(bill.periodStart).toBe(
      new Date(new Date(`${latest.periodEnd}T00:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10),
    );
    expect(bill.dueOn).toBe(
      new Date(Date.parse(`${nextIssue.toISOString().slice(0, 10)}T00:00:00Z`) + 14 * 86_400_000)
        .toISOString()
        .slice(0, 10),
    );
    const after = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    expect(after.amountDue).toEqual(usd(before.amountDue!.amount + bill.total.amount));
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "bill.issued")));
    expect(notices[0]?.params).toMatchObject({ total: bill.total.amount, currency: "USD", dueOn: bill.dueOn });

    const again = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      asOf: nextIssue,
      accountIds: [alexPostpaid.id],
    });
    expect(again).toEqual({ issued: [], skipped: 1 });
    expect((await billsOf(alexPostpaid.id)).total).toBe(4);

    // Past its due date the bill is overdue.
    const overdue = await markOverdueBills(backend.database.db, {
      asOf: new Date(Date.parse(`${bill.dueOn}T00:00:00Z`) + 86_400_000),
    });
    expect(overdue.map((o) => o.invoiceId)).toContain(bill.id);
    expect((await backend.get(`/api/v1/invoices/${bill.id}`, { as: ALEX })).json<Invoice>().status).toBe("overdue");
  });
});

describe("the daily billing jobs", () => {
  it("are scheduled every day and close every postpaid account's last cycle once", async () => {
    // Other domains schedule their own jobs (plan changes); these are billing's.
    const jobs = domainJobs({ db: backend.database.db } as EngineServices).filter((j) => j.name.startsWith("billing."));
    // One daily job: the carrier's day (server/domain/billingRuns/run.ts), cycle close and overdue marking included.
    // It shares itself out as parts, each a job of its own with no schedule (server/domain/money/billingJobs.ts).
    expect(jobs.map((j) => [j.name, j.cron])).toEqual([
      ["billing.run-day", "10 0 * * *"],
      ["billing.run-day-part", undefined],
    ]);
    const countBills = async () =>
      (await backend.get("/api/v1/invoices?pageSize=1", { as: ADMIN })).json<{ total: number }>().total;
    const before = await countBills();
    // Without a queue on this instance (as here) it runs the day itself.
    await jobs[0]!.run({});
    const after = await countBills();
    // The seeded postpaid accounts without a bill for their last cycle got one (Alex's was billed already or just now).
    expect(after).toBeGreaterThan(before + 10);
    await jobs[0]!.run({});
    expect(await countBills()).toBe(after);
  });
});

describe("POST /invoices/{id}/actions/void", () => {
  it("an admin voids a bill with a reason: it is no longer due; nobody else may, and not twice", async () => {
    const bill = (await billsOf(alexPostpaid.id)).data.find((b) => b.status === "overdue")!;
    const before = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    expectProblem(
      await backend.send("POST", `/api/v1/invoices/${bill.id}/actions/void`, {
        as: AGENT,
        body: { reason: "billing error" },
      }),
      403,
    );
    expectProblem(
      await backend.send("POST", `/api/v1/invoices/${bill.id}/actions/void`, {
        as: ALEX,
        body: { reason: "billing error" },
      }),
      403,
    );
    expectProblem(
      await backend.send("POST", `/api/v1/invoices/${bill.id}/actions/void`, { as: ADMIN, body: {} }),
      400,
      "reason",
    );
    expectProblem(
      await backend.send("POST", `/api/v1/invoices/${bill.id}/actions/void`, {
        as: TMO_ADMIN,
        operator: "TMO",
        body: { reason: "other operator" },
      }),
      404,
    );
    const res = await backend.send("POST", `/api/v1/invoices/${bill.id}/actions/void`, {
      as: ADMIN,
      body: { reason: "billed twice for the same month" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "void", voidReason: "billed twice for the same month" });
    const after = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    expect(after.amountDue).toEqual(usd(before.amountDue!.amount - bill.total.amount));
    expectProblem(
      await backend.send("POST", `/api/v1/invoices/${bill.id}/actions/void`, { as: ADMIN, body: { reason: "again" } }),
      409,
      "status",
    );
  });
});
