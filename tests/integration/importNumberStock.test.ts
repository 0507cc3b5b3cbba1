import { randomUUID } from "node:crypto";
import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkJobs, lines, numberInventory } from "../../server/db/schema";
import { runBulkJob } from "../../server/domain/bulkJobs/runner";
import { claimNumber, quarantineNumber } from "../../server/domain/numberInventory/inventory";
import type { EngineServices } from "../../server/engine/services";
import type { BulkJob } from "../../src/resources/bulkJobs";
import type { Line } from "../../src/resources/lines";
import { ADMIN, ALEX, SAM, TMO_ADMIN } from "../support/fixtures";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { expectProblem } from "../support/problems";

// The CSV import of lines takes its numbers from the operator's stock (issue 28): a row's number
// must be in the inventory and free, or reserved by the importer; any other row is refused naming
// the row and `msisdn`, and an imported line's number leaves the stock with it (in use by that line).
// On the real database (TEST_DB).
const JOBS = "/api/v1/bulk-jobs";
const HEADER = "accountId,msisdn,iccid,simType,planId,cycleDay";

let backend: TestBackend;
let worker: EngineServices;
let account: { id: string; planId: string };
const n = {
  good: "",
  mine: "",
  othersHold: "",
  resting: "",
  inUse: "",
  notOurs: "+12025559999",
  anotherOperators: "+13105551000",
};

let sims = 0;
const sim = () => `8901260${String(Date.now() % 1e6).padStart(6, "0")}${String(++sims).padStart(6, "0")}`;
const row = (msisdn: string) => `${account.id},${msisdn},${sim()},esim,${account.planId},5`;
const csvOf = (...numbers: string[]) => [HEADER, ...numbers.map(row)].join("\n");
// Asked as sam, who holds no number here (a person's list offers the numbers they hold too).
const freeIn = async (areaCode: string) => {
  const res = await backend.get(`/api/v1/number-inventory?areaCode=${areaCode}`, { as: SAM });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { msisdn: string }[] }>().data.map((x) => x.msisdn);
};
const stockRow = async (msisdn: string) =>
  (
    await backend.database.db
      .select()
      .from(numberInventory)
      .where(and(eq(numberInventory.operatorCode, "ATT"), eq(numberInventory.msisdn, msisdn)))
  )[0];
const reserve = (msisdn: string, as: string) =>
  backend.send("POST", `/api/v1/number-inventory/${encodeURIComponent(msisdn)}/actions/reserve`, { as });
const lineCount = async () => (await backend.database.db.select({ n: count() }).from(lines))[0]!.n;
const jobCount = async () => (await backend.database.db.select({ n: count() }).from(bulkJobs))[0]!.n;

beforeAll(async () => {
  backend = await startTestBackend();
  worker = { db: backend.database.db } as unknown as EngineServices;
  const own = await backend.get("/api/v1/lines?sort=msisdn", { as: ALEX });
  const first = own.json<{ data: Line[] }>().data[0]!;
  account = { id: first.accountId, planId: first.planId };
  const free = await freeIn("301");
  [n.good, n.mine, n.othersHold, n.resting, n.inUse] = free.slice(0, 5) as [string, string, string, string, string];
  expect((await reserve(n.mine, ADMIN)).statusCode).toBe(200);
  expect((await reserve(n.othersHold, ALEX)).statusCode).toBe(200);
  await quarantineNumber(backend.database.db, "ATT", n.resting);
  await claimNumber(backend.database.db, "ATT", n.inUse, [], null);
});

afterAll(async () => {
  await backend?.close();
});

describe("importing lines checks each row's number against the stock", () => {
  const all = () => csvOf(n.good, n.mine, n.othersHold, n.resting, n.inUse, n.notOurs, n.anotherOperators);

  it("a dry run accepts a free number and one the importer holds, and names the row and msisdn of every other", async () => {
    const dryRun = async (language: string) => {
      const res = await backend.send("POST", JOBS, {
        as: ADMIN,
        body: { kind: "import-lines", csv: all(), dryRun: true, reason: "new SIM stock" },
        headers: { "accept-language": language },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ total: number; valid: number; errors: { row: number; field: string; message: string }[] }>();
    };
    const before = { jobs: await jobCount(), lines: await lineCount() };
    const en = await dryRun("en");
    expect(en).toMatchObject({ total: 7, valid: 2 });
    expect(en.errors).toEqual([
      { row: 4, field: "msisdn", message: "reserved by someone else" },
      { row: 5, field: "msisdn", message: "recently released" },
      { row: 6, field: "msisdn", message: "already in use" },
      { row: 7, field: "msisdn", message: "not one of our numbers" },
      { row: 8, field: "msisdn", message: "not one of our numbers" },
    ]);
    expect((await dryRun("es")).errors.map((e) => e.message)).toEqual([
      "reservado por otra persona",
      "liberado hace poco",
      "ya está en uso",
      "no es uno de nuestros números",
      "no es uno de nuestros números",
    ]);
    // Nothing written, nothing taken from the stock.
    expect({ jobs: await jobCount(), lines: await lineCount() }).toEqual(before);
    expect(await freeIn("301")).toContain(n.good);
  });

  it("another operator's staff cannot import this operator's numbers, nor anyone without a token", async () => {
    const res = await backend.send("POST", JOBS, {
      as: TMO_ADMIN,
      operator: "TMO",
      body: { kind: "import-lines", csv: csvOf(n.good), dryRun: true, reason: "new SIM stock" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { errors } = res.json<{ errors: { row: number; field: string; message: string }[] }>();
    expect(errors).toContainEqual({ row: 2, field: "msisdn", message: "not one of our numbers" });
    expectProblem(
      await backend.send("POST", JOBS, { body: { kind: "import-lines", csv: csvOf(n.good), reason: "x" } }),
      401,
    );
    expectProblem(
      await backend.send("POST", JOBS, {
        as: ALEX,
        body: { kind: "import-lines", csv: csvOf(n.good), reason: "new SIM stock" },
      }),
      403,
    );
  });

  it("the accepted rows become pending lines whose numbers leave the stock in use by them; a replay doubles nothing", async () => {
    const key = randomUUID();
    const send = (csv: string, idempotencyKey = key) =>
      backend.send("POST", JOBS, {
        as: ADMIN,
        body: { kind: "import-lines", csv, reason: "new SIM stock" },
        headers: { "idempotency-key": idempotencyKey },
      });
    const csv = all();
    const first = await send(csv);
    expect(first.statusCode, first.body).toBe(202);
    const job = first.json<BulkJob>();
    expect(job).toMatchObject({ total: 7, failed: 5 });
    expect(job.items.filter((i) => i.status === "failed").map((i) => i.error)).toEqual([
      "msisdn: reserved by someone else",
      "msisdn: recently released",
      "msisdn: already in use",
      "msisdn: not one of our numbers",
      "msisdn: not one of our numbers",
    ]);
    await runBulkJob(worker, job.id);

    const created = await backend.database.db
      .select()
      .from(lines)
      .where(inArray(lines.msisdn, [n.good, n.mine]));
    expect(created.map((l) => l.status)).toEqual(["pending", "pending"]);
    for (const line of created)
      expect(await stockRow(line.msisdn)).toMatchObject({ status: "assigned", lineId: line.id, reservedBy: null });
    const offered = await freeIn("301");
    expect(offered).not.toContain(n.good);
    expect(offered).not.toContain(n.mine);
    // The refused rows' numbers are as they were.
    expect(await stockRow(n.othersHold)).toMatchObject({ status: "reserved", reservedBy: "demo-alex" });
    expect(await stockRow(n.resting)).toMatchObject({ status: "quarantined" });
    expect(await stockRow(n.notOurs)).toBeUndefined();

    // The same request again: the same answer, no second job, no line.
    const lineTotal = await lineCount();
    const jobTotal = await jobCount();
    const replay = await send(csv);
    expect(replay.statusCode).toBe(202);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json<BulkJob>().id).toBe(job.id);
    // The job worked again (a resumed worker): nothing left to do.
    expect(await runBulkJob(worker, job.id)).toBe(0);
    // The same file as a new import: its numbers are in use now, so every row is refused.
    const again = await send(csv, randomUUID());
    expect(again.statusCode, again.body).toBe(202);
    const second = again.json<BulkJob>();
    expect(second).toMatchObject({ total: 7, failed: 7 });
    for (const item of second.items.slice(0, 2))
      expect(item.error).toBe("msisdn: already a line of this operator; iccid: this SIM is already in use");
    await runBulkJob(worker, second.id);
    expect({ lines: await lineCount(), jobs: await jobCount() }).toEqual({ lines: lineTotal, jobs: jobTotal + 1 });
  });

  it("a number someone reserves after the file was accepted fails that row when the worker gets to it", async () => {
    const [late] = await freeIn("301");
    const res = await backend.send("POST", JOBS, {
      as: ADMIN,
      body: { kind: "import-lines", csv: csvOf(late!), reason: "new SIM stock" },
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json<BulkJob>();
    expect(job.failed).toBe(0);
    expect((await reserve(late!, ALEX)).statusCode).toBe(200);
    await runBulkJob(worker, job.id);
    const done = await backend.get(`${JOBS}/${job.id}`, { as: ADMIN });
    expect(done.json<BulkJob>().items[0]).toMatchObject({
      status: "failed",
      error: "msisdn: reserved by someone else",
    });
    expect(await backend.database.db.select().from(lines).where(eq(lines.msisdn, late!))).toHaveLength(0);
    expect(await stockRow(late!)).toMatchObject({ status: "reserved", reservedBy: "demo-alex" });
  });
});
