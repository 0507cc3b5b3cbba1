import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import { lines } from "../../server/db/schema";
import type { Account } from "../../src/resources/accounts";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TMO_AGENT } from "../support/fixtures";
import { expectProblem } from "../support/problems";
import { verifyDemoCallers } from "../support/callerVerification";

// The data behind the subscriber 360's money, usage and claims sections (issue 12 item 2): the
// resources' own list endpoints with the filters the sections send. The operator's agent sees the
// subscriber's records; another operator's agent sees nothing; a subscriber who sends the same
// filters with someone else's ids gets an empty page, never their records.
let backend: TestBackend;
let alexAccounts: Account[];
let samAccount: Account;
const lineIds: Record<string, string> = {};
let samClaimId = "";

type Page = { data: Record<string, unknown>[]; total: number };

async function page(url: string, as: string, operator?: string): Promise<Page> {
  const res = await backend.get(url, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}

const byAccount = (resource: string, accountId: string, sort: string) =>
  `/api/v1/${resource}?filter[accountId][eq]=${accountId}&sort=${sort}&page=1&pageSize=10`;
const byLines = (resource: string, ids: string[], sort: string) =>
  `/api/v1/${resource}?filter[lineId][in]=${ids.join(",")}&sort=${sort}&page=1&pageSize=10`;

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads these subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  alexAccounts = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data;
  [samAccount] = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data as [Account];
  for (const msisdn of ["+12025550101", "+12025550102", "+12025550103"]) {
    const [row] = await backend.database.db.select({ id: lines.id }).from(lines).where(eq(lines.msisdn, msisdn));
    lineIds[msisdn] = row!.id;
  }
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const records = [
    { id: `s-${randomUUID()}`, msisdn: "+12025550101", type: "data", startedAt: minutesAgo(2), quantity: 40 },
    { id: `s-${randomUUID()}`, msisdn: "+12025550102", type: "voice", startedAt: minutesAgo(1), quantity: 3 },
    { id: `s-${randomUUID()}`, msisdn: "+12025550103", type: "sms", startedAt: minutesAgo(1), quantity: 1 },
  ];
  const ingest = await backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { authorization: `ApiKey ${LOCAL_INGEST_KEY}`, "x-operator": "ATT" },
    payload: { records },
  });
  expect(ingest.statusCode, ingest.body).toBe(200);
  const claim = await backend.send("POST", "/api/v1/device-claims", {
    as: SAM,
    body: {
      lineId: lineIds["+12025550103"],
      incident: "damage",
      occurredOn: new Date().toISOString().slice(0, 10),
      description: "The screen cracked when it fell.",
    },
  });
  expect(claim.statusCode, claim.body).toBe(201);
  samClaimId = claim.json<{ id: string }>().id;
});

afterAll(async () => {
  await backend?.close();
});

describe("balance and bills", () => {
  it("the operator's agent sees the account's balance, bills (with their PDF) and ledger; nothing of another account", async () => {
    let bills = 0;
    let entries = 0;
    for (const account of alexAccounts) {
      const shown = (await backend.get(`/api/v1/accounts/${account.id}`, { as: AGENT })).json<Account>();
      expect(shown.balance ?? shown.amountDue).not.toBeNull();
      const invoices = await page(byAccount("invoices", account.id, "-issuedAt"), AGENT);
      const ledger = await page(byAccount("ledger-entries", account.id, "-createdAt"), AGENT);
      expect(invoices.data.every((row) => row.accountId === account.id)).toBe(true);
      expect(ledger.data.every((row) => row.accountId === account.id)).toBe(true);
      bills += invoices.total;
      entries += ledger.total;
      for (const invoice of invoices.data.slice(0, 1)) {
        const pdf = await backend.get(`/api/v1/invoices/${String(invoice.id)}/pdf`, { as: AGENT });
        expect(pdf.statusCode).toBe(200);
        expect(pdf.headers["content-type"]).toMatch(/application\/pdf/);
        expectProblem(
          await backend.get(`/api/v1/invoices/${String(invoice.id)}/pdf`, { as: TMO_AGENT, operator: "TMO" }),
          404,
        );
        expectProblem(await backend.get(`/api/v1/invoices/${String(invoice.id)}/pdf`, { as: SAM }), 404);
      }
    }
    expect(bills).toBeGreaterThan(0);
    expect(entries).toBeGreaterThan(0);
  });

  it("another operator's agent: the account is 404 and the filtered lists are empty", async () => {
    const account = alexAccounts[0]!;
    expectProblem(await backend.get(`/api/v1/accounts/${account.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    for (const [resource, sort] of [
      ["invoices", "-issuedAt"],
      ["ledger-entries", "-createdAt"],
    ] as const) {
      for (const a of alexAccounts)
        expect((await page(byAccount(resource, a.id, sort), TMO_AGENT, "TMO")).total).toBe(0);
    }
  });

  it("a subscriber who sends another account's id in the staff filter gets an empty page, and 404 for the account", async () => {
    for (const a of alexAccounts) {
      expect((await page(byAccount("invoices", a.id, "-issuedAt"), SAM)).total).toBe(0);
      expect((await page(byAccount("ledger-entries", a.id, "-createdAt"), SAM)).total).toBe(0);
      expectProblem(await backend.get(`/api/v1/accounts/${a.id}`, { as: SAM }), 404);
    }
    // Their own account through the same filter still answers.
    expect(
      (await page(byAccount("ledger-entries", samAccount.id, "-createdAt"), SAM)).data.every(
        (row) => row.accountId === samAccount.id,
      ),
    ).toBe(true);
  });

  it("refuses a malformed filter naming it, and a caller without a token", async () => {
    expectProblem(
      await backend.get(`/api/v1/invoices?filter[accountId][eq]=not-a-uuid`, { as: AGENT }),
      400,
      "filter[accountId][eq]",
    );
    expectProblem(
      await backend.get(`/api/v1/ledger-entries?filter[accountId][startswith]=x`, { as: AGENT }),
      400,
      "filter[accountId][startswith]",
    );
    expectProblem(await backend.get(byAccount("invoices", samAccount.id, "-issuedAt")), 401);
  });
});

describe("recent usage of the account's lines", () => {
  it("the agent sees the records of all the account's lines at once, newest first", async () => {
    const alexLines = [lineIds["+12025550101"]!, lineIds["+12025550102"]!];
    const usage = await page(byLines("usage-records", alexLines, "-startedAt"), AGENT);
    expect(usage.total).toBeGreaterThanOrEqual(2);
    expect(new Set(usage.data.map((row) => row.lineId))).toEqual(new Set(alexLines));
    const started = usage.data.map((row) => String(row.startedAt));
    expect(started).toEqual([...started].sort().reverse());
  });

  it("another operator's agent sees none; a subscriber asking for another's lines sees none of them", async () => {
    const all = Object.values(lineIds);
    expect((await page(byLines("usage-records", all, "-startedAt"), TMO_AGENT, "TMO")).total).toBe(0);
    const asSam = await page(byLines("usage-records", all, "-startedAt"), SAM);
    expect(asSam.data.length).toBeGreaterThan(0);
    expect(asSam.data.every((row) => row.lineId === lineIds["+12025550103"])).toBe(true);
    expectProblem(
      await backend.get(`/api/v1/usage-records?filter[lineId][in]=x,y`, { as: AGENT }),
      400,
      "filter[lineId][in]",
    );
    expectProblem(await backend.get(byLines("usage-records", all, "-startedAt")), 401);
  });
});

describe("claims on the account's lines", () => {
  it("the agent finds the subscriber's claim by their line ids; another operator and another subscriber do not", async () => {
    const samLines = [lineIds["+12025550103"]!];
    const claims = await page(byLines("device-claims", samLines, "-createdAt"), AGENT);
    expect(claims.data.map((row) => row.id)).toContain(samClaimId);
    expect(claims.data.every((row) => row.lineId === samLines[0])).toBe(true);
    expect((await page(byLines("device-claims", samLines, "-createdAt"), TMO_AGENT, "TMO")).total).toBe(0);
    expect((await page(byLines("device-claims", samLines, "-createdAt"), ALEX)).total).toBe(0);
    expectProblem(await backend.get(`/api/v1/device-claims/${samClaimId}`, { as: ALEX }), 404);
    expectProblem(
      await backend.get(`/api/v1/device-claims?filter[lineId][in]=nope`, { as: AGENT }),
      400,
      "filter[lineId][in]",
    );
  });
});

describe("notifications sent and sign-in methods", () => {
  it("only the operator's staff: another operator's agent 404, a subscriber 403", async () => {
    expect(
      (await backend.get(`/api/v1/subscribers/${samAccount.id}/notifications?page=1&pageSize=10`, { as: AGENT }))
        .statusCode,
    ).toBe(200);
    expectProblem(
      await backend.get(`/api/v1/subscribers/${samAccount.id}/notifications?page=1&pageSize=10`, {
        as: TMO_AGENT,
        operator: "TMO",
      }),
      404,
    );
    expect([403, 404]).toContain(
      (await backend.get(`/api/v1/subscribers/${samAccount.id}/notifications`, { as: ALEX })).statusCode,
    );
    const identity = await backend.get(`/api/v1/subscribers/${samAccount.id}/identity`, { as: AGENT });
    expect(identity.statusCode, identity.body).toBe(200);
    // "password" names the email sign-in provider; no hash, salt or secret of it is ever sent.
    expect(identity.body).not.toMatch(/passwordHash|passwordSalt|"salt"|secret/i);
    expectProblem(
      await backend.get(`/api/v1/subscribers/${samAccount.id}/identity`, { as: TMO_AGENT, operator: "TMO" }),
      404,
    );
  });
});

describe("the family: the people on the account and its shared data", () => {
  it("the verified agent reads the account's people and meters as the Family section asks them; no one else does", async () => {
    const account = alexAccounts[0]!;
    const members = await backend.get(`/api/v1/accounts/${account.id}/members`, { as: AGENT });
    expect(members.statusCode, members.body).toBe(200);
    expect(Array.isArray(members.json<{ data: unknown[] }>().data)).toBe(true);
    const meters = await backend.get(`/api/v1/accounts/${account.id}/meters`, { as: AGENT });
    expect(meters.statusCode, meters.body).toBe(200);
    const body = meters.json<{ accountId: string; lines: { lineId: string }[] }>();
    expect(body.accountId).toBe(account.id);
    const held = await backend.database.db.select({ id: lines.id }).from(lines).where(eq(lines.accountId, account.id));
    expect(body.lines.map((l) => l.lineId).sort()).toEqual(held.map((l) => l.id).sort());
    for (const path of ["members", "meters"]) {
      const url = `/api/v1/accounts/${account.id}/${path}`;
      expectProblem(await backend.get(url, { as: TMO_AGENT, operator: "TMO" }), 404);
      expectProblem(await backend.get(url, { as: SAM }), 404);
      expectProblem(await backend.get(url), 401);
      expectProblem(await backend.get(`/api/v1/accounts/not-an-id/${path}`, { as: AGENT }), 400);
    }
  });
});
