import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { staffReads } from "../../server/db/schema";
import { logStaffRead } from "../../server/domain/accessLog/accessLog";
import { ProblemError } from "../../server/errors";
import type { Account } from "../../src/resources/accounts";
import type { AccessLogEntry } from "../../src/resources/accessLog";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { anyString } from "../support/matchers";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";

// The access log (issue 27 item 3), on TEST_DB (both databases): every staff read of a subscriber's
// data is logged once per staff member, subscriber and section in 10 minutes, parallel reads too;
// the subscriber reads their own at /me/access-log by the staff member's short name and team, never
// an email or uid; agents no longer read the audit trail.
const URL = "/api/v1/me/access-log";
let backend: TestBackend;
let samAccount: Account;

const db = () => backend.database.db;
const readsOf = (subscriberUid: string, section?: string) =>
  db()
    .select()
    .from(staffReads)
    .where(
      and(
        eq(staffReads.subscriberUid, subscriberUid),
        section === undefined ? undefined : eq(staffReads.section, section),
      ),
    );
const ok = async (url: string, as: string, operator?: string) => {
  const res = await backend.get(url, { as, operator });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res;
};
/** Moves every logged read `minutes` into the past: the clock's stand-in (no sleeping). */
const age = (minutes: number) =>
  db()
    .update(staffReads)
    .set({ readAt: sql`${staffReads.readAt} - make_interval(mins => ${minutes})` });
/** The 360's lines section: the lines of sam's account. */
const samLines = () => `/api/v1/lines?filter[accountId][eq]=${samAccount.id}`;
const mine = async (as: string, query = "", operator?: string) =>
  (await ok(`${URL}${query}`, as, operator)).json<{ data: AccessLogEntry[]; total: number }>();

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  [samAccount] = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data as [Account];
});
afterAll(async () => {
  await backend?.close();
});
beforeEach(async () => {
  await db().delete(staffReads);
});

describe("staff reads are logged once per staff member, subscriber, section and 10 minutes", () => {
  it("the 360 head, a section listed for the account, sign-in methods and notices: one row each however often", async () => {
    for (let i = 0; i < 3; i++) {
      await ok(`/api/v1/subscribers/${samAccount.id}`, AGENT);
      await ok(samLines(), AGENT);
      await ok(`/api/v1/subscribers/${samAccount.id}/identity`, AGENT);
      await ok(`/api/v1/subscribers/${samAccount.id}/notifications`, AGENT);
    }
    const rows = await readsOf("demo-sam");
    expect(rows.map((r) => r.section).sort()).toEqual(["identity", "lines", "notifications", "subscribers"]);
    for (const row of rows)
      expect(row).toMatchObject({ operatorCode: "ATT", staffUid: "demo-agent", staffRole: "agent" });
  });

  it("parallel reads of one section leave exactly one row", async () => {
    const reads = Array.from({ length: 8 }, (_, i) =>
      i % 2 ? ok(`/api/v1/subscribers/${samAccount.id}`, AGENT) : ok(samLines(), AGENT),
    );
    await Promise.all(reads);
    expect(await readsOf("demo-sam", "subscribers")).toHaveLength(1);
    expect(await readsOf("demo-sam", "lines")).toHaveLength(1);
  });

  it("parallel calls of the function itself, many at once, insert one row", async () => {
    const read = {
      operator: "ATT",
      staffUid: "demo-agent",
      staffRole: "agent" as const,
      subscriberUids: ["demo-sam"],
      section: "lines",
    };
    await Promise.all(Array.from({ length: 12 }, () => logStaffRead(db(), read)));
    expect(await readsOf("demo-sam", "lines")).toHaveLength(1);
  });

  it("another staff member's read is a row of its own; a read 11 minutes later is a second row, 9 minutes later is not", async () => {
    await ok(`/api/v1/subscribers/${samAccount.id}`, AGENT);
    await ok(`/api/v1/subscribers/${samAccount.id}`, ADMIN);
    expect((await readsOf("demo-sam", "subscribers")).map((r) => r.staffRole).sort()).toEqual(["admin", "agent"]);

    await age(9);
    await ok(`/api/v1/subscribers/${samAccount.id}`, AGENT);
    expect(await readsOf("demo-sam", "subscribers")).toHaveLength(2);

    await age(2); // 11 minutes since the first reads
    await ok(`/api/v1/subscribers/${samAccount.id}`, AGENT);
    const agentRows = (await readsOf("demo-sam", "subscribers")).filter((r) => r.staffUid === "demo-agent");
    expect(agentRows).toHaveLength(2);
  });

  it("a search or an unfiltered list of many subscribers is not a read of anyone's data; a subscriber's own reads are not visits", async () => {
    await ok("/api/v1/subscribers?q=Sam", AGENT);
    await ok("/api/v1/lines", AGENT);
    await ok(`/api/v1/lines?filter[status][in]=active,suspended`, AGENT);
    await ok(samLines(), SAM);
    await ok("/api/v1/lines", SAM);
    await ok(`/api/v1/accounts/${samAccount.id}`, SAM);
    expect(await db().select().from(staffReads)).toEqual([]);
  });

  it("another operator's agent reads nothing of sam's, and so logs nothing", async () => {
    expectProblem(await backend.get(`/api/v1/subscribers/${samAccount.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    expect(await readsOf("demo-sam")).toEqual([]);
  });

  it("fails closed: a read that cannot be logged answers 503, not the data", async () => {
    // A role the table refuses (its check) stands in for a database that cannot take the row.
    const refused = logStaffRead(db(), {
      operator: "ATT",
      staffUid: "demo-agent",
      staffRole: "subscriber" as never,
      subscriberUids: ["demo-sam"],
      section: "lines",
    });
    await expect(refused).rejects.toBeInstanceOf(ProblemError);
    await expect(refused).rejects.toMatchObject({ status: 503 });
  });
});

describe("GET /me/access-log", () => {
  it("the subscriber's own visits, newest first: the staff member's short name and team, never an email or uid", async () => {
    await ok(samLines(), AGENT);
    await age(1);
    await ok(`/api/v1/subscribers/${samAccount.id}/identity`, ADMIN);
    const res = await ok(URL, SAM);
    const { data, total } = res.json<{ data: AccessLogEntry[]; total: number }>();
    expect(total).toBe(2);
    expect(data).toEqual([
      {
        id: anyString(),
        at: anyString(),
        staffName: "Morgan A.",
        team: "supervisors",
        section: "identity",
      },
      { id: anyString(), at: anyString(), staffName: "Casey A.", team: "care", section: "lines" },
    ]);
    expect(Date.parse(data[0]!.at)).toBeGreaterThan(Date.parse(data[1]!.at));
    for (const secret of ["agent@att.example", "admin@att.example", "demo-agent", "demo-admin", "Casey Agent"])
      expect(res.body).not.toContain(secret);
  });

  it("pages: pageSize and page", async () => {
    await ok(samLines(), AGENT);
    await ok(`/api/v1/subscribers/${samAccount.id}`, AGENT);
    await ok(`/api/v1/subscribers/${samAccount.id}/identity`, AGENT);
    const first = await mine(SAM, "?page=1&pageSize=2");
    const second = await mine(SAM, "?page=2&pageSize=2");
    expect(first.total).toBe(3);
    expect(first.data).toHaveLength(2);
    expect(second.data).toHaveLength(1);
    expect(new Set([...first.data, ...second.data].map((e) => e.section)).size).toBe(3);
  });

  it("each subscriber sees only their own; another operator's subscriber sees nothing of this one's", async () => {
    await ok(samLines(), AGENT);
    await db().insert(staffReads).values({
      operatorCode: "TMO",
      staffUid: "tmo-agent",
      staffRole: "agent",
      subscriberUid: "demo-sam",
      section: "invoices",
    });
    expect((await mine(SAM)).data.map((e) => e.section)).toEqual(["lines"]);
    expect(await mine(ALEX)).toEqual({ data: [], total: 0 });
    expect(await mine(TAYLOR, "", "TMO")).toEqual({ data: [], total: 0 });
  });

  it("401 without a token, 403 for staff, 400 at the parameter for malformed paging", async () => {
    expectProblem(await backend.get(URL), 401);
    for (const as of [AGENT, ADMIN]) expectProblem(await backend.get(URL, { as }), 403);
    for (const query of ["page=0", "page=x", "page=1.5"])
      expectProblem(await backend.get(`${URL}?${query}`, { as: SAM }), 400, "page");
    for (const query of ["pageSize=0", "pageSize=101", "pageSize=many"])
      expectProblem(await backend.get(`${URL}?${query}`, { as: SAM }), 400, "pageSize");
  });
});

describe("the audit trail and the access log are the admins'", () => {
  it("an agent gets 403 on /audit-events, an admin 200", async () => {
    expectProblem(await backend.get("/api/v1/audit-events", { as: AGENT }), 403);
    await ok("/api/v1/audit-events", ADMIN);
  });

  it("admins read the staff reads by name (GET /staff-reads); agents and subscribers get 403; another operator's admin sees none", async () => {
    await ok(samLines(), AGENT);
    const { data } = (await ok("/api/v1/staff-reads", ADMIN)).json<{ data: Record<string, unknown>[] }>();
    expect(data).toEqual([
      {
        id: anyString(),
        readAt: anyString(),
        staffUid: "demo-agent",
        staffName: "Casey Agent",
        staffRole: "agent",
        subscriberUid: "demo-sam",
        subscriberName: "Sam Chen",
        section: "lines",
      },
    ]);
    for (const as of [AGENT, SAM]) expectProblem(await backend.get("/api/v1/staff-reads", { as }), 403);
    const other = (await ok("/api/v1/staff-reads", "admin@tmo.example", "TMO")).json<{ total: number }>();
    expect(other.total).toBe(0);
  });
});
