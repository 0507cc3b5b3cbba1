import type { LightMyRequestResponse } from "fastify";
import { and, count, eq, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, resourceDocuments } from "../../server/db/schema";
import { createEventBus, type EventBus, type ResourceEvent } from "../../server/live/eventBus";
import type { Line } from "../../src/resources/lines";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, SAM, AGENT, ADMIN, TAYLOR, TMO_AGENT, TMO_ADMIN } from "../support/fixtures";
import { expectProblem } from "../support/problems";
import { verifyDemoCallers } from "../support/callerVerification";
import { rowsOf } from "../../server/db/rowsOf";

// The generic API (server/routes/documents.ts) serving the declared device-claims resource, on the
// real database (TEST_DB) and the real Auth emulator; one backend for the file. Operator ATT: alex
// owns two lines, sam one; operator TMO: taylor's line (tests/support/fixtures.ts).
const UID = { alex: "demo-alex", sam: "demo-sam", agent: "demo-agent", admin: "demo-admin" };

const CLAIMS = "/api/v1/device-claims";
const NO_SUCH_ID = "9b2f6a53-0a53-4f4e-9a55-0d1e0b5a8a11";

interface Claim {
  id: string;
  lineId: string;
  incident: string;
  occurredOn: string;
  description: string;
  status: string;
  assessment: string | null;
  createdAt: string;
  updatedAt: string;
}
interface AuditRow {
  action: string;
  actorUid: string | null;
  actorRole: string | null;
  targetType: string;
  targetId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  reason: string | null;
}

let backend: TestBackend;
let bus: EventBus;
const heard: ResourceEvent[] = [];
let alexLines: string[];
let samLineId: string;
let tmoLineId: string;

/** A UTC calendar day `n` days before today (negative: after), as the schema compares it. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

const claimBody = (over: Record<string, unknown> = {}) => ({
  lineId: alexLines[0],
  incident: "damage",
  occurredOn: daysAgo(3),
  description: "Dropped the phone on the pavement and the screen cracked.",
  ...over,
});

/** A problem response (RFC 9457) with the given status; returns its body. */

/** A problem response whose `errors` name the given field (among others, possibly). */
function expectFieldProblem(res: LightMyRequestResponse, status: number, field: string) {
  const problem = expectProblem(res, status);
  expect(
    problem.errors?.map((e) => e.path),
    res.body,
  ).toContain(field);
  return problem;
}

async function create(as: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Claim> {
  const res = await backend.send("POST", CLAIMS, { as, body, headers });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Claim>();
}

async function list(query: string, as: string, operator?: string): Promise<{ data: Claim[]; total: number }> {
  const res = await backend.get(`${CLAIMS}${query ? `?${query}` : ""}`, { as, operator });
  expect(res.statusCode, `${query} as ${as}: ${res.body}`).toBe(200);
  return res.json<{ data: Claim[]; total: number }>();
}

/** POST an action; `{}` unless a body is given, as the portal sends it. */
const act = (id: string, action: string, as: string, body: Record<string, unknown> = {}, operator?: string) =>
  backend.send("POST", `${CLAIMS}/${id}/actions/${action}`, { as, body, operator });

/** The audit trail of one record, oldest first, as an admin reads it through the API. */
async function trail(targetId: string): Promise<AuditRow[]> {
  const res = await backend.get(`/api/v1/audit-events?filter[targetId]=${targetId}&sort=createdAt&pageSize=100`, {
    as: ADMIN,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AuditRow[] }>().data;
}

const countDocuments = async () => (await backend.database.db.select({ n: count() }).from(resourceDocuments))[0]!.n;
/** Audited writes (not the sign-ins the server records when a user's token is first seen). */
const countAudit = async () =>
  (
    await backend.database.db
      .select({ n: count() })
      .from(auditEvents)
      .where(ne(auditEvents.action, "identity.signed_in"))
  )[0]!.n;

/** Waits for the live event of a write (published through LISTEN/NOTIFY after commit). */
const expectEvent = (type: ResourceEvent["type"], id: string) =>
  vi.waitFor(
    () =>
      expect(
        heard.some(
          (e) => e.resource === "device-claims" && e.type === type && e.ids.includes(id) && e.operator === "ATT",
        ),
      ).toBe(true),
    {
      timeout: 5_000,
      interval: 20,
    },
  );

beforeAll(async () => {
  backend = await startTestBackend();
  // A second listener on the same database, as another backend instance would be.
  bus = createEventBus(backend.database);
  await bus.ready;
  bus.subscribe((event) => heard.push(event));
  const own = async (as: string, operator?: string) => {
    const res = await backend.get("/api/v1/lines?sort=msisdn", { as, operator });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Line[] }>().data.map((l) => l.id);
  };
  alexLines = await own(ALEX);
  const [sam] = await own(SAM);
  const [tmo] = await own(TAYLOR, "TMO");
  expect(alexLines).toHaveLength(2);
  expect(sam && tmo).toBeTruthy();
  samLineId = sam!;
  tmoLineId = tmo!;
});

afterAll(async () => {
  await bus?.close();
  await backend?.close();
});

describe("visibility", () => {
  it("a subscriber files a claim for their own line; only they and their operator's staff see it", async () => {
    const auditBefore = await countAudit();
    const claim = await create(ALEX, claimBody());
    expect(claim).toMatchObject({ lineId: alexLines[0], incident: "damage", status: "submitted", assessment: null });
    expect(claim.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(claim.createdAt))).toBe(false);
    await expectEvent("created", claim.id);
    expect(await countAudit()).toBe(auditBefore + 1);

    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: ALEX })).json()).toEqual(claim);
    expect((await list("pageSize=100", ALEX)).data.map((c) => c.id)).toContain(claim.id);
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: AGENT })).json()).toMatchObject({ id: claim.id });
    expect((await list("pageSize=100", AGENT)).data.map((c) => c.id)).toContain(claim.id);
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: ADMIN })).statusCode).toBe(200);

    // Another subscriber of the same operator.
    expectProblem(await backend.get(`${CLAIMS}/${claim.id}`, { as: SAM }), 404);
    const samSees = await list("pageSize=100", SAM);
    expect(samSees.data.map((c) => c.id)).not.toContain(claim.id);
    expect(samSees.data.every((c) => c.lineId === samLineId)).toBe(true);
    // Another operator's staff.
    expectProblem(await backend.get(`${CLAIMS}/${claim.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    expect((await list("pageSize=100", TMO_AGENT, "TMO")).data.map((c) => c.id)).not.toContain(claim.id);
    // Nobody.
    expectProblem(await backend.get(`${CLAIMS}/${claim.id}`), 401);
    expectProblem(await backend.get(CLAIMS), 401);
    expectProblem(await backend.send("POST", CLAIMS, { body: claimBody() }), 401);
  });

  it("a claim an agent files for a subscriber's line belongs to that subscriber", async () => {
    // The agent files it once alex, on the phone, verified himself as the caller (issue 27).
    const unverified = await backend.send("POST", CLAIMS, {
      as: AGENT,
      body: claimBody({ lineId: alexLines[1], incident: "malfunction" }),
    });
    expect(expectProblem(unverified, 403).type).toBe("/problems/caller-not-verified");
    await verifyDemoCallers(backend, [UID.alex]);
    const claim = await create(AGENT, claimBody({ lineId: alexLines[1], incident: "malfunction" }));
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: ALEX })).statusCode).toBe(200);
    expectProblem(await backend.get(`${CLAIMS}/${claim.id}`, { as: SAM }), 404);
    const [row] = await backend.database.db.select().from(resourceDocuments).where(eq(resourceDocuments.id, claim.id));
    expect(row).toMatchObject({
      operatorCode: "ATT",
      resource: "device-claims",
      ownerUid: UID.alex,
      createdBy: UID.agent,
    });
  });

  it("a subscriber cannot file a claim for someone else's line, another operator's line or a line that does not exist", async () => {
    const before = await countDocuments();
    for (const lineId of [samLineId, tmoLineId, NO_SUCH_ID, "not-a-uuid"]) {
      expectFieldProblem(await backend.send("POST", CLAIMS, { as: ALEX, body: claimBody({ lineId }) }), 400, "lineId");
    }
    // Staff of ATT cannot reach TMO's line either.
    expectFieldProblem(
      await backend.send("POST", CLAIMS, { as: AGENT, body: claimBody({ lineId: tmoLineId }) }),
      400,
      "lineId",
    );
    expect(await countDocuments()).toBe(before);
  });
});

describe("malformed input", () => {
  it("names each wrong, unknown or forbidden field and writes nothing", async () => {
    const { description: _omitted, ...withoutDescription } = claimBody();
    const cases: [string, Record<string, unknown>, number, string][] = [
      [ALEX, claimBody({ colour: "red" }), 400, "colour"],
      [ALEX, claimBody({ incident: "fire" }), 400, "incident"],
      [ALEX, claimBody({ occurredOn: "tomorrow" }), 400, "occurredOn"],
      [ALEX, claimBody({ occurredOn: daysAgo(-2) }), 400, "occurredOn"],
      [ALEX, claimBody({ description: "broken" }), 400, "description"],
      [ALEX, claimBody({ lineId: 42 }), 400, "lineId"],
      [ALEX, withoutDescription, 400, "description"],
      [ALEX, claimBody({ status: "approved" }), 403, "status"],
      [ALEX, claimBody({ id: NO_SUCH_ID }), 403, "id"],
      [ALEX, claimBody({ createdAt: new Date().toISOString() }), 403, "createdAt"],
      [ALEX, claimBody({ assessment: "Approved by myself." }), 403, "assessment"],
    ];
    const documentsBefore = await countDocuments();
    const auditBefore = await countAudit();
    for (const [as, body, status, field] of cases) {
      const res = await backend.send("POST", CLAIMS, { as, body });
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expectFieldProblem(res, status, field);
    }
    expectProblem(await backend.send("POST", CLAIMS, { as: ALEX, body: [claimBody()] }), 400);
    expect(await countDocuments()).toBe(documentsBefore);
    expect(await countAudit()).toBe(auditBefore);
  });

  it("a path id that is not a UUID is 400 on every route", async () => {
    expectFieldProblem(await backend.get(`${CLAIMS}/not-a-uuid`, { as: AGENT }), 400, "id");
    expectFieldProblem(
      await backend.send("PATCH", `${CLAIMS}/not-a-uuid`, { as: AGENT, body: { assessment: "Looks fine to me." } }),
      400,
      "id",
    );
    expectFieldProblem(await backend.send("DELETE", `${CLAIMS}/not-a-uuid`, { as: ADMIN }), 400, "id");
    expectFieldProblem(await act("not-a-uuid", "approve", AGENT), 400, "id");
    expectProblem(await backend.get(`${CLAIMS}/${NO_SUCH_ID}`, { as: AGENT }), 404);
  });
});

describe("list", () => {
  // Sam's claims, told apart from every other test's by a word in their descriptions.
  const MARK = "zebracase";
  let byIncident: Record<string, Claim>;
  const ids = (claims: Claim[]) => claims.map((c) => c.incident);
  const mine = async (query: string) => list(`q=${MARK}&${query}`, SAM);

  beforeAll(async () => {
    byIncident = {};
    for (const [incident, days, text] of [
      ["theft", 30, "taken from a café table"],
      ["damage", 10, "screen cracked after a fall"],
      ["loss", 5, "left on the night bus"],
      ["malfunction", 1, "battery swells and will not charge"],
    ] as const) {
      byIncident[incident] = await create(SAM, {
        lineId: samLineId,
        incident,
        occurredOn: daysAgo(days),
        description: `${MARK}: the phone was ${text}.`,
      });
    }
    expect((await act(byIncident.theft!.id, "approve", AGENT)).statusCode).toBe(200);
    expect((await act(byIncident.loss!.id, "withdraw", SAM)).statusCode).toBe(200);
  });

  it("filters by status, incident and date range in SQL", async () => {
    expect(ids((await mine("filter[status]=submitted&sort=occurredOn")).data)).toEqual(["damage", "malfunction"]);
    expect(ids((await mine("filter[status][ne]=submitted&sort=occurredOn")).data)).toEqual(["theft", "loss"]);
    expect(ids((await mine("filter[status][in]=approved,withdrawn&sort=occurredOn")).data)).toEqual(["theft", "loss"]);
    expect(ids((await mine("filter[incident][in]=theft,loss&sort=occurredOn")).data)).toEqual(["theft", "loss"]);
    expect(ids((await mine(`filter[occurredOn][between]=${daysAgo(12)},${daysAgo(4)}&sort=occurredOn`)).data)).toEqual([
      "damage",
      "loss",
    ]);
    expect(ids((await mine(`filter[occurredOn][gte]=${daysAgo(5)}&filter[incident]=loss`)).data)).toEqual(["loss"]);
    // Staff filter by line across subscribers.
    expect((await list(`q=${MARK}&filter[lineId]=${samLineId}`, AGENT)).total).toBe(4);
    expect((await list(`q=${MARK}&filter[lineId]=${alexLines[0]}`, AGENT)).total).toBe(0);
  });

  it("sorts, pages and searches", async () => {
    expect(ids((await mine("sort=occurredOn")).data)).toEqual(["theft", "damage", "loss", "malfunction"]);
    expect(ids((await mine("sort=-occurredOn")).data)).toEqual(["malfunction", "loss", "damage", "theft"]);
    expect(ids((await mine("sort=-createdAt")).data)).toEqual(["malfunction", "loss", "damage", "theft"]);
    expect(ids((await mine("")).data)).toEqual(["malfunction", "loss", "damage", "theft"]); // default sort: -createdAt
    const page = await mine("sort=occurredOn&pageSize=3&page=2");
    expect(page.total).toBe(4);
    expect(ids(page.data)).toEqual(["malfunction"]);
    expect(ids((await list("q=SWELLS", SAM)).data)).toEqual(["malfunction"]);
    expect((await list("q=%25", SAM)).total).toBe(0); // a literal %, not a wildcard
    expect((await list(`q=${MARK}`, ALEX)).total).toBe(0); // sam's claims stay sam's
    expect((await list(`q=${MARK}`, TMO_AGENT, "TMO")).total).toBe(0);
  });

  it("refuses undeclared filters, operators and sorts, naming the parameter", async () => {
    const cases: [string, string][] = [
      ["filter[description]=x", "filter[description]"],
      ["filter[status][gt]=a", "filter[status][gt]"],
      ["filter[incident]=fire", "filter[incident]"],
      ["filter[occurredOn][between]=2024-01-01", "filter[occurredOn][between]"],
      ["sort=description", "sort"],
      ["pageSize=1000", "pageSize"],
      ["colour=red", "colour"],
    ];
    for (const [query, parameter] of cases) {
      expectFieldProblem(await backend.get(`${CLAIMS}?${query}`, { as: AGENT }), 400, parameter);
    }
  });
});

describe("edit", () => {
  it("an agent records an assessment, audited with before and after; subscribers may not edit", async () => {
    const claim = await create(ALEX, claimBody());
    const res = await backend.send("PATCH", `${CLAIMS}/${claim.id}`, {
      as: AGENT,
      body: { assessment: "Accidental damage is covered." },
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = res.json<Claim>();
    expect(edited).toMatchObject({
      id: claim.id,
      assessment: "Accidental damage is covered.",
      status: "submitted",
      description: claim.description,
      createdAt: claim.createdAt,
    });
    expect(Date.parse(edited.updatedAt)).toBeGreaterThan(Date.parse(claim.updatedAt));
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: ALEX })).json()).toMatchObject({
      assessment: "Accidental damage is covered.",
    });
    await expectEvent("updated", claim.id);

    const [, edit] = await trail(claim.id);
    expect(edit).toMatchObject({
      action: "device-claims.edit",
      actorUid: UID.agent,
      actorRole: "agent",
      targetType: "device-claims",
      targetId: claim.id,
    });
    expect(edit!.before).toMatchObject({ id: claim.id, assessment: null });
    expect(edit!.after).toMatchObject({ id: claim.id, assessment: "Accidental damage is covered." });

    expectProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, {
        as: ALEX,
        body: { description: "Actually it fell into the sea." },
      }),
      403,
    );
    expectProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, { as: ALEX, body: { assessment: "Covered, obviously." } }),
      403,
    );
    expectFieldProblem(await backend.send("PATCH", `${CLAIMS}/${claim.id}`, { as: AGENT, body: {} }), 400, "body");
    expectFieldProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, { as: AGENT, body: { status: "approved" } }),
      403,
      "status",
    );
    expectFieldProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, { as: AGENT, body: { lineId: alexLines[1] } }),
      403,
      "lineId",
    );
    expectFieldProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, { as: AGENT, body: { colour: "red" } }),
      400,
      "colour",
    );
    expectFieldProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, { as: AGENT, body: { occurredOn: daysAgo(-2) } }),
      400,
      "occurredOn",
    );
    expectProblem(
      await backend.send("PATCH", `${CLAIMS}/${claim.id}`, {
        as: TMO_AGENT,
        operator: "TMO",
        body: { assessment: "Not ours to judge." },
      }),
      404,
    );
    expectProblem(
      await backend.send("PATCH", `${CLAIMS}/${NO_SUCH_ID}`, { as: AGENT, body: { assessment: "Nothing to assess." } }),
      404,
    );
    // None of the refused edits changed the record or the trail.
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: AGENT })).json()).toEqual(edited);
    expect(await trail(claim.id)).toHaveLength(2);
  });
});

describe("actions", () => {
  it("staff approve a submitted claim once; subscribers may not", async () => {
    const claim = await create(ALEX, claimBody());
    expectProblem(await act(claim.id, "approve", ALEX), 403);
    expectProblem(await act(claim.id, "approve", SAM), 403);
    expectProblem(await act(claim.id, "approve", TMO_AGENT, undefined, "TMO"), 404);
    expectProblem(await act(NO_SUCH_ID, "approve", AGENT), 404);

    const res = await act(claim.id, "approve", AGENT);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: claim.id, status: "approved" });
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: ALEX })).json()).toMatchObject({ status: "approved" });
    await expectEvent("updated", claim.id);

    // Only while submitted.
    expectFieldProblem(await act(claim.id, "approve", ADMIN), 409, "status");
    expectFieldProblem(await act(claim.id, "reject", AGENT, { reason: "Changed my mind." }), 409, "status");
    expectFieldProblem(await act(claim.id, "withdraw", ALEX), 409, "status");

    const rows = await trail(claim.id);
    expect(rows.map((r) => r.action)).toEqual(["device-claims.create", "device-claims.approve"]);
    expect(rows[1]).toMatchObject({ actorUid: UID.agent, actorRole: "agent", targetId: claim.id, reason: null });
    expect(rows[1]!.before).toMatchObject({ status: "submitted" });
    expect(rows[1]!.after).toMatchObject({ status: "approved" });
  });

  it("reject requires a reason, which the audit trail keeps", async () => {
    const claim = await create(ALEX, claimBody());
    expectFieldProblem(await act(claim.id, "reject", AGENT), 400, "reason");
    expectFieldProblem(await act(claim.id, "reject", AGENT, { reason: "no" }), 400, "reason");
    expectProblem(await act(claim.id, "reject", AGENT, { reason: "Not covered.", colour: "red" }), 400);
    expectProblem(await act(claim.id, "reject", ALEX, { reason: "I reject my own claim." }), 403);
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: AGENT })).json()).toMatchObject({ status: "submitted" });

    const res = await act(claim.id, "reject", ADMIN, { reason: "Theft needs a police report." });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "rejected" });
    const [, rejected] = await trail(claim.id);
    expect(rejected).toMatchObject({
      action: "device-claims.reject",
      actorUid: UID.admin,
      actorRole: "admin",
      reason: "Theft needs a police report.",
    });
    expect(rejected!.after).toMatchObject({ status: "rejected" });
  });

  it("a subscriber withdraws their own submitted claim, nobody else's", async () => {
    const claim = await create(ALEX, claimBody());
    expectProblem(await act(claim.id, "withdraw", SAM), 404);
    expectProblem(await act(claim.id, "withdraw", AGENT), 403);
    const res = await act(claim.id, "withdraw", ALEX);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: claim.id, status: "withdrawn" });
    expect((await trail(claim.id))[1]).toMatchObject({
      action: "device-claims.withdraw",
      actorUid: UID.alex,
      actorRole: "subscriber",
    });
    expectProblem(await act(claim.id, "withdraw", ALEX), 409);
  });

  it("an action needs no body at all (its reason is optional)", async () => {
    // curl -X POST .../actions/approve: no body, no content-type.
    const claim = await create(ALEX, claimBody());
    const res = await backend.send("POST", `${CLAIMS}/${claim.id}/actions/approve`, { as: AGENT });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "approved" });
    expectFieldProblem(
      await backend.send("POST", `${CLAIMS}/${claim.id}/actions/reject`, { as: AGENT }),
      400,
      "reason",
    );
  });

  it("of concurrent approvals and withdrawals exactly one wins; the rest are 409", async () => {
    const claim = await create(ALEX, claimBody());
    await Promise.all([backend.tokenFor(AGENT), backend.tokenFor(ALEX)]);
    const who = Array.from({ length: 10 }, (_, i): [string, string] =>
      i % 2 === 0 ? ["approve", AGENT] : ["withdraw", ALEX],
    );
    const results = await Promise.all(who.map(([action, as]) => act(claim.id, action, as)));
    const statuses = results.map((r) => r.statusCode);
    expect(
      statuses.filter((s) => s === 200),
      statuses.join(","),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 409),
      statuses.join(","),
    ).toHaveLength(9);
    const winner = who[statuses.indexOf(200)]![0];
    const final = (await backend.get(`${CLAIMS}/${claim.id}`, { as: AGENT })).json<Claim>();
    expect(final.status).toBe(winner === "approve" ? "approved" : "withdrawn");
    const rows = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, claim.id), sql`${auditEvents.action} <> 'device-claims.create'`));
    expect(rows.map((r) => r.action)).toEqual([`device-claims.${winner}`]);
  });
});

describe("delete", () => {
  it("only an admin deletes; the trail keeps what the record held", async () => {
    const claim = await create(ALEX, claimBody({ description: "The phone stopped charging after an update." }));
    expectProblem(await backend.send("DELETE", `${CLAIMS}/${claim.id}`, { as: ALEX }), 403);
    expectProblem(await backend.send("DELETE", `${CLAIMS}/${claim.id}`, { as: AGENT }), 403);
    expectProblem(await backend.send("DELETE", `${CLAIMS}/${claim.id}`, { as: TMO_ADMIN, operator: "TMO" }), 404);
    expect((await backend.get(`${CLAIMS}/${claim.id}`, { as: ALEX })).statusCode).toBe(200);

    const res = await backend.send("DELETE", `${CLAIMS}/${claim.id}`, { as: ADMIN });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(claim);
    expectProblem(await backend.get(`${CLAIMS}/${claim.id}`, { as: ADMIN }), 404);
    expectProblem(await backend.send("DELETE", `${CLAIMS}/${claim.id}`, { as: ADMIN }), 404);
    expect((await list("pageSize=100", ALEX)).data.map((c) => c.id)).not.toContain(claim.id);
    await expectEvent("deleted", claim.id);

    const rows = await trail(claim.id);
    expect(rows.map((r) => r.action)).toEqual(["device-claims.create", "device-claims.delete"]);
    expect(rows[0]).toMatchObject({ actorUid: UID.alex, actorRole: "subscriber", before: null });
    expect(rows[0]!.after).toMatchObject({ id: claim.id, status: "submitted" });
    expect(rows[1]).toMatchObject({
      actorUid: UID.admin,
      actorRole: "admin",
      targetType: "device-claims",
      after: null,
    });
    expect(rows[1]!.before).toEqual(claim);
  });
});

describe("idempotency", () => {
  it("the same Idempotency-Key and body create one record; a different body with it is 422", async () => {
    const key = "claim-key-0001-alex";
    const body = claimBody({ incident: "theft", description: "Stolen from my bag on the train." });
    const before = await countDocuments();
    const first = await backend.send("POST", CLAIMS, { as: ALEX, body, headers: { "idempotency-key": key } });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const second = await backend.send("POST", CLAIMS, { as: ALEX, body, headers: { "idempotency-key": key } });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
    expect(await countDocuments()).toBe(before + 1);
    const id = first.json<Claim>().id;
    expect((await trail(id)).map((r) => r.action)).toEqual(["device-claims.create"]);

    const other = await backend.send("POST", CLAIMS, {
      as: ALEX,
      body: { ...body, incident: "loss" },
      headers: { "idempotency-key": key },
    });
    expectFieldProblem(other, 422, "idempotency-key");
    // Keys are the caller's own: sam may use the same one.
    await create(SAM, { ...body, lineId: samLineId }, { "idempotency-key": key });
    expect(await countDocuments()).toBe(before + 2);
  });

  it("a first request that failed releases its key for a retry", async () => {
    const key = "claim-key-0002-alex";
    const bad = await backend.send("POST", CLAIMS, {
      as: ALEX,
      body: claimBody({ lineId: samLineId }),
      headers: { "idempotency-key": key },
    });
    expectFieldProblem(bad, 400, "lineId");
    const retry = await backend.send("POST", CLAIMS, {
      as: ALEX,
      body: claimBody(),
      headers: { "idempotency-key": key },
    });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
    expectFieldProblem(
      await backend.send("POST", CLAIMS, { as: ALEX, body: claimBody(), headers: { "idempotency-key": "short" } }),
      400,
      "idempotency-key",
    );
  });
});

describe("indexes", () => {
  it("the declared expression indexes and the search fields' trigram indexes exist, partial on the resource", async () => {
    const rows = rowsOf<{ indexname: string; indexdef: string }>(
      await backend.database.db.execute(
        sql`select indexname, indexdef from pg_indexes where tablename = 'resource_documents' and indexname like 'resource_documents_device_claims_%' order by indexname`,
      ),
    );
    expect(rows.map((r) => r.indexname)).toEqual([
      "resource_documents_device_claims_assessment_trgm_idx",
      "resource_documents_device_claims_description_trgm_idx",
      "resource_documents_device_claims_lineid_idx",
      "resource_documents_device_claims_status_idx",
    ]);
    const search = rows.find((r) => r.indexname.endsWith("_description_trgm_idx"))!.indexdef;
    expect(search).toMatch(
      /USING gin \(\(\(data ->> 'description'::text\)\) gin_trgm_ops\) WHERE \(resource = 'device-claims'::text\)/,
    );
    const status = rows.find((r) => r.indexname.endsWith("_status_idx"))!.indexdef;
    expect(status).toMatch(/\(operator_code, \(\(data ->> 'status'::text\)\)\)/);
    expect(status).toMatch(/WHERE \(resource = 'device-claims'::text\)/);
  });
});
