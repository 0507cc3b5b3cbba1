import type { FastifyInstance } from "fastify";
import { and, count, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { auditEvents, bulkJobs, lines, notifications } from "../../server/db/schema";
import { runBulkJob } from "../../server/domain/bulkJobs/runner";
import type { EngineServices } from "../../server/engine/services";
import type { BulkJob } from "../../src/resources/bulkJobs";
import type { Line } from "../../src/resources/lines";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { waitFor } from "../support/waitFor";
import { expectProblem } from "../support/problems";
import { stringContaining } from "../support/matchers";

// Bulk suspend / restore (issue 12, bulk work) on the real database (TEST_DB) and the Auth emulator:
// the job is written with its items, worked in the background one line per transaction, audited with
// the reason, the holders told; cancelled between items; resumed by a restarted backend without
// redoing what was done.
const JOBS = "/api/v1/bulk-jobs";

let backend: TestBackend;
let restarted: FastifyInstance | undefined;
let alexPrepaid: Line;
let alexPostpaid: Line;
let samLine: Line;
let tmoLineId: string;
/** What the worker needs of the app's services: the database (no live bus, no queue: the test drives it). */
let worker: EngineServices;

const jobCount = async () => (await backend.database.db.select({ n: count() }).from(bulkJobs))[0]!.n;
const start = (as: string, body: unknown, operator?: string) => backend.send("POST", JOBS, { as, body, operator });
async function startOk(body: unknown, as = AGENT): Promise<BulkJob> {
  const res = await start(as, body);
  expect(res.statusCode, res.body).toBe(202);
  return res.json<BulkJob>();
}
const getJob = async (id: string, as = AGENT) => (await backend.get(`${JOBS}/${id}`, { as })).json<BulkJob>();
const statusOf = async (id: string) =>
  (await backend.database.db.select({ status: lines.status }).from(lines).where(eq(lines.id, id)))[0]!.status;
async function resetLines() {
  await backend.database.db
    .update(lines)
    .set({ status: "active", suspendReason: null })
    .where(inArray(lines.id, [alexPrepaid.id, alexPostpaid.id, samLine.id]));
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const own = async (as: string, operator?: string) =>
    (await backend.get(`/api/v1/lines?sort=msisdn`, { as, operator })).json<{ data: Line[] }>().data;
  [alexPrepaid, alexPostpaid] = (await own(ALEX)) as [Line, Line];
  [samLine] = (await own(SAM)) as [Line];
  tmoLineId = (await own(TAYLOR, "TMO"))[0]!.id;
  worker = { db: backend.database.db } as unknown as EngineServices;
  await resetLines();
});

afterAll(async () => {
  await restarted?.close();
  await backend?.close();
});

describe("POST /bulk-jobs refuses", () => {
  it("an unauthenticated call (401), a subscriber (403), and writes nothing", async () => {
    const before = await jobCount();
    const anonymous = await backend.send("POST", JOBS, {
      body: { kind: "suspend-lines", lineIds: [samLine.id], reason: "fraud sweep" },
    });
    expectProblem(anonymous, 401);
    expectProblem(await start(ALEX, { kind: "suspend-lines", lineIds: [alexPrepaid.id], reason: "my own lines" }), 403);
    expectProblem(
      await start(TAYLOR, { kind: "suspend-lines", lineIds: [tmoLineId], reason: "my own lines" }, "TMO"),
      403,
    );
    expect(await jobCount()).toBe(before);
  });

  it("another operator's lines: 404 naming the line, nothing written", async () => {
    const before = await jobCount();
    expectProblem(
      await start(TMO_AGENT, { kind: "suspend-lines", lineIds: [tmoLineId, samLine.id], reason: "fraud sweep" }, "TMO"),
      404,
      "lineIds.1",
    );
    expectProblem(
      await start(AGENT, { kind: "suspend-lines", lineIds: [tmoLineId], reason: "fraud sweep" }),
      404,
      "lineIds.0",
    );
    expect(await jobCount()).toBe(before);
  });

  it("malformed input: 400 naming the field, nothing written", async () => {
    const before = await jobCount();
    expectProblem(
      await start(AGENT, { kind: "delete-lines", lineIds: [samLine.id], reason: "fraud sweep" }),
      400,
      "kind",
    );
    expectProblem(await start(AGENT, { kind: "suspend-lines", lineIds: [], reason: "fraud sweep" }), 400, "lineIds");
    expectProblem(
      await start(AGENT, { kind: "suspend-lines", lineIds: ["not-an-id"], reason: "fraud sweep" }),
      400,
      "lineIds.0",
    );
    expectProblem(
      await start(AGENT, { kind: "suspend-lines", lineIds: [samLine.id, samLine.id], reason: "fraud sweep" }),
      400,
      "lineIds",
    );
    expectProblem(await start(AGENT, { kind: "suspend-lines", lineIds: [samLine.id] }), 400, "reason");
    expectProblem(
      await start(AGENT, { kind: "suspend-lines", lineIds: [samLine.id], reason: "fraud sweep", extra: 1 }),
      400,
    );
    expect(await jobCount()).toBe(before);
  });
});

describe("a bulk suspend", () => {
  it(
    "interrupted after one line, is resumed by a restarted backend without redoing it; each line audited with the reason, each holder told",
    { timeout: 90_000 },
    async () => {
      await resetLines();
      const ids = [alexPrepaid.id, samLine.id, alexPostpaid.id];
      const noticesBefore = (
        await backend.database.db
          .select({ n: count() })
          .from(notifications)
          .where(eq(notifications.kind, "line.suspended"))
      )[0]!.n;
      const job = await startOk({
        kind: "suspend-lines",
        lineIds: ids,
        reason: "lost shipment of SIMs",
        suspendReason: "lost",
      });
      expect(job).toMatchObject({ kind: "suspend-lines", status: "queued", total: 3, done: 0, failed: 0 });
      expect(job.items.map((i) => i.status)).toEqual(["pending", "pending", "pending"]);

      // The first backend works one line, then dies (the limit stands in for the kill).
      expect(await runBulkJob(worker, job.id, { limit: 1 })).toBe(1);
      const halfway = await getJob(job.id);
      expect(halfway).toMatchObject({ status: "running", done: 1, total: 3 });
      expect(halfway.items.map((i) => i.status)).toEqual(["succeeded", "pending", "pending"]);
      expect(await statusOf(alexPrepaid.id)).toBe("suspended");
      expect(await statusOf(samLine.id)).toBe("active");

      // A new backend process on the same database, with its job queue: it picks the job up on start.
      restarted = await buildApp({
        database: backend.database,
        verifier: createTokenVerifier(backend.auth),
        auth: backend.auth,
        operator: "ATT",
        logLevel: "silent",
        jobs: true,
      });
      await waitFor("the job to complete", async () => (await getJob(job.id)).status === "completed", {
        timeoutMs: 60_000,
        intervalMs: 200,
      });
      await restarted.close();
      restarted = undefined;

      const finished = await getJob(job.id, ADMIN);
      expect(finished).toMatchObject({ status: "completed", done: 3, failed: 0 });
      expect(finished.items.map((i) => i.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
      // Each item names its line's number and SIM, so the page shows numbers, not ids (issue 23).
      expect(finished.items.map((i) => [i.msisdn, i.iccid])).toEqual(
        [alexPrepaid, samLine, alexPostpaid].map((l) => [l.msisdn, l.iccid]),
      );
      for (const id of ids) expect(await statusOf(id)).toBe("suspended");
      // Each line changed once: one audit row each, with the job's reason and the agent as actor.
      const audits = await backend.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "lines.suspend"), like(auditEvents.requestId, `bulk-job:${job.id}:%`)));
      expect(audits.map((a) => a.targetId).sort()).toEqual([...ids].sort());
      expect(
        audits.every(
          (a) =>
            a.reason === "lost shipment of SIMs" &&
            a.actorRole === "agent" &&
            a.before?.status === "active" &&
            a.after?.status === "suspended",
        ),
      ).toBe(true);
      const noticesAfter = (
        await backend.database.db
          .select({ n: count() })
          .from(notifications)
          .where(eq(notifications.kind, "line.suspended"))
      )[0]!.n;
      expect(noticesAfter - noticesBefore).toBe(3);
      // The holder sees the line suspended with the reason code given.
      const sams = (await backend.get(`/api/v1/lines/${samLine.id}`, { as: SAM })).json<Line>();
      expect(sams).toMatchObject({ status: "suspended", suspendReason: "lost" });
    },
  );

  it("a bulk restore records a per-item failure for a line not in the state it needs", async () => {
    await resetLines();
    await backend.database.db
      .update(lines)
      .set({ status: "suspended", suspendReason: "request" })
      .where(eq(lines.id, samLine.id));
    const job = await startOk(
      { kind: "restore-lines", lineIds: [alexPrepaid.id, samLine.id], reason: "customer called back" },
      ADMIN,
    );
    await runBulkJob(worker, job.id);
    const done = await getJob(job.id);
    expect(done).toMatchObject({ status: "completed", done: 2, failed: 1 });
    expect(done.items[0]).toMatchObject({ status: "failed", error: stringContaining("suspended") });
    expect(done.items[1]).toMatchObject({ status: "succeeded", error: null });
    expect(await statusOf(samLine.id)).toBe("active");
  });
});

describe("the cancel action", () => {
  it("stops a running job between items: done lines stay done, the rest are left alone", async () => {
    await resetLines();
    const job = await startOk({
      kind: "suspend-lines",
      lineIds: [alexPrepaid.id, samLine.id, alexPostpaid.id],
      reason: "wrong batch picked",
    });
    await runBulkJob(worker, job.id, { limit: 1 });
    expectProblem(await backend.send("POST", `${JOBS}/${job.id}/actions/cancel`, { as: ALEX }), 403);
    expectProblem(
      await backend.send("POST", `${JOBS}/${job.id}/actions/cancel`, { as: TMO_AGENT, operator: "TMO" }),
      404,
    );
    expectProblem(await backend.send("POST", `${JOBS}/${job.id}/actions/cancel`), 401);
    const res = await backend.send("POST", `${JOBS}/${job.id}/actions/cancel`, { as: AGENT });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "cancelled", done: 1 });
    expect(await runBulkJob(worker, job.id)).toBe(0);
    const after = await getJob(job.id);
    expect(after.items.map((i) => i.status)).toEqual(["succeeded", "cancelled", "cancelled"]);
    expect(await statusOf(samLine.id)).toBe("active");
    expectProblem(await backend.send("POST", `${JOBS}/${job.id}/actions/cancel`, { as: AGENT }), 409, "status");
  });

  it("jobs are the operator's staff's only: a subscriber 403, another operator's staff 404", async () => {
    const [job] = await backend.database.db.select({ id: bulkJobs.id }).from(bulkJobs).limit(1);
    expectProblem(await backend.get(`${JOBS}/${job!.id}`, { as: ALEX }), 403);
    expectProblem(await backend.get(`${JOBS}/${job!.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    expect((await backend.get(JOBS, { as: TMO_AGENT, operator: "TMO" })).json<{ total: number }>().total).toBe(0);
    expectProblem(await backend.get(JOBS), 401);
  });
});

describe("a CSV import of lines and SIMs", () => {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
  const header = "accountId,msisdn,iccid,simType,planId,cycleDay";
  let csv: string;
  let newNumber: string;
  const lineCount = async () => (await backend.database.db.select({ n: count() }).from(lines))[0]!.n;

  beforeAll(async () => {
    // Imported numbers come from the operator's stock (issue 28; refusals in importNumberStock.test.ts).
    const stock = await backend.get("/api/v1/number-inventory?areaCode=202", { as: ADMIN });
    const free = stock.json<{ data: { msisdn: string }[] }>().data.map((n) => n.msisdn);
    const number = () => free.pop()!;
    newNumber = number();
    const iccid = `89${digits(17)}`;
    csv = [
      header,
      `${alexPrepaid.accountId},${newNumber},${iccid},physical,${alexPrepaid.planId},5`,
      `${alexPrepaid.accountId},202-555,${`89${digits(17)}`},physical,${alexPrepaid.planId},40`,
      `${alexPrepaid.accountId},${number()},${iccid},esim,${alexPrepaid.planId},5`,
      `"${alexPrepaid.accountId}",${samLine.msisdn},${`89${digits(17)}`},physical,${alexPrepaid.planId},7`,
      `00000000-0000-4000-8000-000000000000,${number()},${`89${digits(17)}`},physical,${alexPrepaid.planId},7`,
    ].join("\r\n");
  });

  it("a dry run lists every row's errors (row, field, message) and writes nothing", async () => {
    const before = { jobs: await jobCount(), lines: await lineCount() };
    const res = await start(AGENT, { kind: "import-lines", csv, dryRun: true, reason: "new SIM stock" });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{
      dryRun: true;
      total: number;
      valid: number;
      errors: { row: number; field: string; message: string }[];
    }>();
    expect(answer).toMatchObject({ dryRun: true, total: 5, valid: 1 });
    const where = answer.errors.map((e) => `${e.row}:${e.field}`);
    expect(where, JSON.stringify(answer.errors)).toEqual(
      expect.arrayContaining(["3:msisdn", "3:cycleDay", "4:iccid", "5:msisdn", "6:accountId"]),
    );
    expect(answer.errors.find((e) => e.row === 4)?.message).toMatch(/row 2/);
    expect(where.some((w) => w.startsWith("2:"))).toBe(false);
    expect({ jobs: await jobCount(), lines: await lineCount() }).toEqual(before);
  });

  it("refuses a file it cannot read, a subscriber and another operator's staff's view, writing nothing", async () => {
    const before = await jobCount();
    expectProblem(
      await start(AGENT, {
        kind: "import-lines",
        csv: "msisdn,iccid\n+12025550199,8900000000000000000",
        reason: "new SIM stock",
      }),
      400,
      "csv",
    );
    expectProblem(
      await start(AGENT, { kind: "import-lines", csv: `${header}\n"open`, reason: "new SIM stock" }),
      400,
      "csv",
    );
    expectProblem(await start(AGENT, { kind: "import-lines", reason: "new SIM stock" }), 400, "csv");
    expectProblem(await start(ALEX, { kind: "import-lines", csv, dryRun: true, reason: "new SIM stock" }), 403);
    expectProblem(
      await backend.send("POST", JOBS, { body: { kind: "import-lines", csv, reason: "new SIM stock" } }),
      401,
    );
    expect(await jobCount()).toBe(before);
  });

  it("the real run keeps the bad rows as failed items and creates the valid ones in the background, audited", async () => {
    const job = await startOk({ kind: "import-lines", csv, reason: "new SIM stock" }, ADMIN);
    expect(job).toMatchObject({ kind: "import-lines", total: 5, done: 4, failed: 4 });
    expect(await backend.database.db.select().from(lines).where(eq(lines.msisdn, newNumber))).toHaveLength(0);
    await runBulkJob(worker, job.id);
    const done = await getJob(job.id, ADMIN);
    expect(done).toMatchObject({ status: "completed", done: 5, failed: 4 });
    expect(done.items.map((i) => i.status)).toEqual(["succeeded", "failed", "failed", "failed", "failed"]);
    expect(done.items[0]).toMatchObject({ targetId: "row 2", msisdn: newNumber });
    const [created] = await backend.database.db.select().from(lines).where(eq(lines.msisdn, newNumber));
    expect(created).toMatchObject({ status: "pending", accountId: alexPrepaid.accountId, cycleDay: 5 });
    const audits = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.import"), eq(auditEvents.targetId, created!.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.reason).toBe("new SIM stock");
  });
});

describe("the audit viewer's filters over what bulk jobs did", () => {
  const AUDIT = "/api/v1/audit-events";
  it("filters by actor, action, target and time range; refuses others and bad filters", async () => {
    const from = encodeURIComponent(new Date(Date.now() - 60 * 60 * 1000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 60 * 1000).toISOString());
    const query = `filter[actorUid]=demo-agent&filter[action]=lines.suspend&filter[targetId]=${samLine.id}&filter[createdAt][gte]=${from}&filter[createdAt][lte]=${to}&pageSize=100`;
    const res = await backend.get(`${AUDIT}?${query}`, { as: ADMIN });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json<{ data: { action: string; targetId: string; actorUid: string; reason: string }[] }>();
    expect(data.length).toBeGreaterThan(0);
    expect(
      data.every((e) => e.action === "lines.suspend" && e.targetId === samLine.id && e.actorUid === "demo-agent"),
    ).toBe(true);
    const future = encodeURIComponent(new Date(Date.now() + 60 * 60 * 1000).toISOString());
    expect(
      (
        await backend.get(`${AUDIT}?filter[action]=lines.suspend&filter[createdAt][gte]=${future}`, { as: ADMIN })
      ).json<{ total: number }>().total,
    ).toBe(0);
    expect(
      (await backend.get(`${AUDIT}?filter[action]=lines.suspend`, { as: "admin@tmo.example", operator: "TMO" })).json<{
        total: number;
      }>().total,
    ).toBe(0);
    expectProblem(await backend.get(`${AUDIT}?${query}`), 401);
    expectProblem(await backend.get(`${AUDIT}?${query}`, { as: ALEX }), 403);
    expectProblem(await backend.get(`${AUDIT}?filter[createdAt][gte]=yesterday`, { as: ADMIN }), 400);
  });
});
