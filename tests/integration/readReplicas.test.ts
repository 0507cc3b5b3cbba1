import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase } from "../../server/db/client";
import { createReadRouter, type ReadRouter } from "../../server/db/readReplicas";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";
import { postgresBinaries, startPrimaryWithStandby, type PrimaryWithStandby } from "../support/hotStandby";
import { sendNetworkUsage } from "../support/networkUsage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { waitFor } from "../support/waitFor";

// Issue 30, item 2: DATABASE_READ_URLS. A real hot standby (pg_basebackup + streaming replication)
// of a primary of the test's own; the portal's reads that may lag go to it, with read-your-writes
// for the writer, a lagging standby skipped, and a standby stopped mid-run costing no request.
const MAX_LAG_MS = 5_000;

describe.skipIf(process.env.TEST_DB !== "postgres" || !postgresBinaries())("read replicas (a real hot standby)", () => {
  let clusters: PrimaryWithStandby;
  let router: ReadRouter;
  let backend: TestBackend;
  let primarySql: pg.Client;
  let alexAccountId: string;

  const standby = () => router.status()[0]!;
  const standbyUsable = () => waitFor("the standby to be usable", () => standby().usable, { timeoutMs: 30_000 });
  const ticketSubjects = async (as: string) => {
    const res = await backend.get("/api/v1/tickets?pageSize=100", { as });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: { subject: string }[] }>().data.map((ticket) => ticket.subject);
  };

  beforeAll(async () => {
    clusters = await startPrimaryWithStandby();
    const database = await openDatabase({ url: clusters.primaryUrl, dataDir: "" });
    router = await createReadRouter(
      { db: database.db, pool: database.pool! },
      { urls: [clusters.standbyUrl], maxLagMs: MAX_LAG_MS, pollMs: 100, poolSize: 4 },
    );
    backend = await startTestBackend({ readReplicas: router }, { database });
    primarySql = new pg.Client({ connectionString: clusters.primaryUrl });
    await primarySql.connect();
    await standbyUsable();
    // The seed went to the primary straight through the database (no request marks a writer), and a
    // busy machine replays it later: the reads below wait until the standby holds it.
    const { rows } = await primarySql.query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn");
    const standbySql = new pg.Client({ connectionString: clusters.standbyUrl });
    await standbySql.connect();
    try {
      await waitFor(
        "the standby to replay the seed",
        async () =>
          (
            await standbySql.query<{ done: boolean }>("select pg_last_wal_replay_lsn() >= $1::pg_lsn as done", [
              rows[0]!.lsn,
            ])
          ).rows[0]!.done || undefined,
        { timeoutMs: 60_000 },
      );
    } finally {
      await standbySql.end();
    }
    const accounts = await backend.get("/api/v1/accounts", { as: ALEX });
    expect(accounts.statusCode, accounts.body).toBe(200);
    alexAccountId = accounts.json<{ data: { id: string }[] }>().data[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await primarySql?.end();
    await backend?.close();
    await clusters?.close();
  });

  it("serves lists and the 360 from the standby, and skips it once it lags past the limit", async () => {
    expect((await backend.get("/api/health")).json()).toMatchObject({ readReplicas: { configured: 1, usable: 1 } });
    const before = standby().served;
    const list = await backend.get("/api/v1/subscribers?q=Rivera", { as: ADMIN });
    expect(list.statusCode, list.body).toBe(200);
    expect(standby().served).toBeGreaterThan(before);

    const plans = (await backend.get("/api/v1/plans", { as: ALEX })).json<{ data: { id: string; name: string }[] }>();
    const plan = plans.data[0]!;
    await clusters.pauseReplay();
    try {
      // Written on the primary behind the portal's back: nobody's write, so no one is owed it at once.
      await primarySql.query("update plans set name = name || ' (renamed)' where id = $1", [plan.id]);
      const stale = await backend.get(`/api/v1/plans/${plan.id}`, { as: ALEX });
      expect(stale.statusCode, stale.body).toBe(200);
      expect(stale.json<{ name: string }>().name, "read from the paused standby").toBe(plan.name);
      // Past the lag limit the standby is skipped and the primary answers.
      const { value: fresh } = await waitFor(
        "the lagging standby to be skipped",
        async () => {
          const res = await backend.get(`/api/v1/plans/${plan.id}`, { as: ALEX });
          const name = res.json<{ name: string }>().name;
          return name.endsWith("(renamed)") && name;
        },
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      expect(fresh).toBe(`${plan.name} (renamed)`);
      expect(standby().usable).toBe(false);
    } finally {
      await clusters.resumeReplay();
      await primarySql.query("update plans set name = $2 where id = $1", [plan.id, plan.name]);
    }
    await standbyUsable();
  });

  it("lets a writer read their own write at once while others may still read the standby's older view", async () => {
    await standbyUsable();
    await clusters.pauseReplay();
    try {
      const subject = `Read-your-writes ${Date.now()}`;
      const created = await backend.send("POST", "/api/v1/tickets", {
        as: ALEX,
        body: { accountId: alexAccountId, category: "billing", subject, message: "Is my bill right?" },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(await ticketSubjects(ALEX), "the writer reads their write back at once").toContain(subject);
      // Someone else, while the standby is within the lag limit, is answered by it, without the ticket.
      if (standby().usable) expect(await ticketSubjects(ADMIN)).not.toContain(subject);
    } finally {
      await clusters.resumeReplay();
    }
    await standbyUsable();
  });

  it("lets a subscriber read at once a change about them that someone else made (their meters after usage)", async () => {
    await standbyUsable();
    const [line] = (await backend.get("/api/v1/home", { as: ALEX })).json<{ lines: { id: string; msisdn: string }[] }>()
      .lines;
    const dataUsed = async () => {
      const res = await backend.get(`/api/v1/lines/${line!.id}/meters`, { as: ALEX });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ type: string; used: number }[]>().find((meter) => meter.type === "data")!.used;
    };
    // Until alex's own reads are the standby's (past his ticket of the test before).
    await waitFor("alex's reads to be served by the standby", async () => {
      const served = standby().served;
      await dataUsed();
      return standby().served > served;
    });
    const before = await dataUsed();
    const pausedAt = Date.now();
    await clusters.pauseReplay();
    try {
      // The network's usage comes with an API key: nobody's write, but the meters' event names alex.
      const ingested = await sendNetworkUsage(backend.app, [
        {
          id: `r-${Date.now()}`,
          msisdn: line!.msisdn,
          type: "data",
          startedAt: new Date().toISOString(),
          quantity: 7,
        },
      ]);
      expect(ingested.json()).toMatchObject({ counted: 1 });
      // The event reaches this instance through LISTEN after the commit; then alex reads the new figure.
      await waitFor("alex's meters to show the new usage", async () => (await dataUsed()) === before + 7, {
        timeoutMs: 30_000,
        intervalMs: 20,
      });
      // Long before the paused standby would be skipped for its lag: the read went past a usable standby.
      expect(Date.now() - pausedAt).toBeLessThan(MAX_LAG_MS);
    } finally {
      await clusters.resumeReplay();
    }
  });

  it("answers every read while the standby is stopped mid-run", async () => {
    await standbyUsable();
    const statuses: number[] = [];
    let stopped = false;
    const reader = async (as: string, url: string) => {
      // Until a few reads after the stop have been answered too.
      let afterStop = 0;
      while (afterStop < 10) {
        const res = await backend.get(url, { as });
        statuses.push(res.statusCode);
        if (stopped) afterStop += 1;
      }
    };
    const readers = [
      reader(ADMIN, "/api/v1/subscribers?q=Alex"),
      reader(AGENT, "/api/v1/plans"),
      reader(ALEX, "/api/v1/home"),
      reader(ALEX, "/api/v1/tickets"),
    ];
    const servedBefore = standby().served;
    await waitFor("reads served by the standby", () => standby().served - servedBefore > 20 && statuses.length >= 20, {
      timeoutMs: 30_000,
    });
    const answeredBeforeStop = statuses.length;
    await clusters.stopStandby();
    stopped = true;
    await Promise.all(readers);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(statuses.length).toBeGreaterThanOrEqual(answeredBeforeStop + 40);
    await waitFor("the stopped standby to be skipped", () => !standby().usable);
    const health = await backend.get("/api/health");
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: "ok", readReplicas: { configured: 1, usable: 0 } });
  });
});
