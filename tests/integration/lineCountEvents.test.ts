import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceEvent } from "../../src/resources/events";
import type { Account } from "../../src/resources/accounts";
import type { Subscriber } from "../../src/resources/subscribers";
import type { AvailableNumber } from "../../src/resources/numberInventory";
import { orders } from "../../server/db/schema";
import { runDueCancellations } from "../../server/domain/lines/scheduledCancellations";
import { runBulkJob } from "../../server/domain/bulkJobs/runner";
import type { EngineServices } from "../../server/engine/services";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { listenOn, openLiveStream, type LiveEventData, type LiveStream } from "../support/liveStream";
import { ADMIN, ALEX, SAM } from "../support/fixtures";

// The account page's and the care 360's "Lines" (`lineCount`, issue 28) stayed as they were when a
// line came or went: the engine sends a live event only for the record an action ran on, so the
// 360's record (subscribers) heard of no new line, not even a port-in's, and the account heard of no
// line cancelled (by its own action or the cycle-end job). Now both records' events go out whenever
// a line is added to or leaves the account, to staff and to the holder. On TEST_DB, over real HTTP.

let backend: TestBackend;
let base: string;
let account: Account;
let planId: string;
const streams: LiveStream[] = [];

async function open(as: string, resources = "accounts,subscribers") {
  const stream = await openLiveStream(base, resources, { token: await backend.tokenFor(as) });
  expect(stream.status).toBe(200);
  streams.push(stream);
  return stream;
}

/** The events the stream gets until it has one of each wanted `resource:id`, or fails. */
async function hears(stream: LiveStream, wanted: string[]): Promise<LiveEventData[]> {
  const heard: LiveEventData[] = [];
  const missing = new Set(wanted);
  while (missing.size) {
    const event = await stream.next(10_000);
    heard.push(event);
    for (const id of event.ids) missing.delete(`${event.resource}:${id}`);
  }
  return heard;
}

const counts = async () => ({
  account: (await backend.get(`/api/v1/accounts/${account.id}`, { as: ALEX })).json<Account>().lineCount,
  subscriber: (await backend.get(`/api/v1/subscribers/${account.id}`, { as: ADMIN })).json<Subscriber>().lineCount,
});

const addLine = (number: Record<string, unknown>) =>
  backend.send("POST", `/api/v1/accounts/${account.id}/actions/add-line`, {
    as: ALEX,
    body: { planId, number, sim: { simType: "esim" } },
  });

async function freeNumber(): Promise<string> {
  const res = await backend.get("/api/v1/number-inventory?areaCode=202", { as: ADMIN });
  return res.json<{ data: AvailableNumber[] }>().data[0]!.msisdn;
}

beforeAll(async () => {
  backend = await startTestBackend();
  base = await listenOn(backend.app);
  account = (await backend.get("/api/v1/accounts", { as: ALEX }))
    .json<{ data: Account[] }>()
    .data.find((a) => a.type === "postpaid")!;
  const plans = (await backend.get("/api/v1/plans?pageSize=100", { as: ADMIN })).json<{
    data: { id: string; kind: string; status: string }[];
  }>().data;
  planId = plans.find((p) => p.kind === "postpaid" && p.status === "active")!.id;
});

afterAll(async () => {
  streams.forEach((s) => s.close());
  await backend?.close();
});

describe("the records that count an account's lines hear of each line that comes or goes", () => {
  it("a port-in line added by the holder: the 360's record is told, and counts it", async () => {
    const staff = await open(ADMIN);
    const before = await counts();
    const res = await addLine({
      portIn: { msisdn: "+12025557712", carrierAccount: "A1", transferPin: "1234", zip: "20001" },
    });
    expect(res.statusCode, res.body).toBe(200);
    await hears(staff, [`subscribers:${account.id}`, `accounts:${account.id}`]);
    expect(await counts()).toEqual({ account: before.account + 1, subscriber: before.subscriber + 1 });
  });

  it("a line cancelled at once by its own action: the account (holder and staff) and the 360 are told", async () => {
    const added = await addLine({ msisdn: await freeNumber() });
    expect(added.statusCode, added.body).toBe(200);
    const lineId = added.json<{ result: { lineId: string } }>().result.lineId;
    const staff = await open(ADMIN);
    const holder = await open(ALEX, "accounts");
    const before = await counts();
    const res = await backend.send("POST", `/api/v1/lines/${lineId}/actions/cancel`, {
      as: ALEX,
      body: { when: "now" },
    });
    expect(res.statusCode, res.body).toBe(200);
    await hears(staff, [`subscribers:${account.id}`, `accounts:${account.id}`]);
    await hears(holder, [`accounts:${account.id}`]);
    expect(await counts()).toEqual({ account: before.account - 1, subscriber: before.subscriber - 1 });
  });

  it("a line ended by the cycle-end job: the same events, published after its commit", async () => {
    const added = await addLine({ msisdn: await freeNumber() });
    const lineId = added.json<{ result: { lineId: string } }>().result.lineId;
    const scheduled = await backend.send("POST", `/api/v1/lines/${lineId}/actions/cancel`, {
      as: ALEX,
      body: { when: "cycle-end" },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const orderId = scheduled.json<{ order: { id: string } }>().order.id;
    const [order] = await backend.database.db.select().from(orders).where(eq(orders.id, orderId));
    // Its day has come (the only terminate order waiting in this suite).
    await backend.database.db
      .update(orders)
      .set({ scheduledFor: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, order!.id));
    const published: ResourceEvent[] = [];
    const ran = await runDueCancellations(
      backend.database.db,
      { publish: (event) => (published.push(event), Promise.resolve()) },
      new Date(),
    );
    expect(ran).toBeGreaterThanOrEqual(1);
    const about = (resource: string) =>
      published.filter((e) => e.resource === resource && e.ids.includes(account.id) && e.type === "updated");
    expect(about("accounts")).toHaveLength(1);
    expect(about("subscribers")).toHaveLength(1);
    expect(about("accounts")[0]!.ownerUids).toEqual(["demo-alex"]);
  });

  it("a line imported from a CSV file: the new line, the account and the 360 are told when the worker adds it", async () => {
    const msisdn = await freeNumber();
    const csv = [
      "accountId,msisdn,iccid,simType,planId,cycleDay",
      `${account.id},${msisdn},89012604${String(Date.now()).slice(-11)},esim,${planId},5`,
    ].join("\n");
    const filed = await backend.send("POST", "/api/v1/bulk-jobs", {
      as: ADMIN,
      body: { kind: "import-lines", csv, reason: "new SIM stock" },
    });
    expect(filed.statusCode, filed.body).toBe(202);
    const published: ResourceEvent[] = [];
    const worker = {
      db: backend.database.db,
      events: { publish: (event: ResourceEvent) => (published.push(event), Promise.resolve()) },
    } as unknown as EngineServices;
    const before = await counts();
    await runBulkJob(worker, filed.json<{ id: string }>().id);
    const about = (resource: string) => published.filter((e) => e.resource === resource && e.ids.includes(account.id));
    expect(about("accounts")).toHaveLength(1);
    expect(about("subscribers")).toHaveLength(1);
    expect(about("accounts")[0]!.ownerUids).toEqual(["demo-alex"]);
    expect(published.some((e) => e.resource === "lines" && e.type === "created")).toBe(true);
    expect(await counts()).toEqual({ account: before.account + 1, subscriber: before.subscriber + 1 });
  });

  it("another subscriber hears nothing of it", async () => {
    const sam = await open(SAM, "accounts");
    const added = await addLine({ msisdn: await freeNumber() });
    expect(added.statusCode, added.body).toBe(200);
    await expect(sam.next(1_500)).rejects.toThrow(/No live event/);
  });
});
