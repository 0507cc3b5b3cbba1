import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../server/db/client";
import { startJobQueue, type JobDefinition, type JobQueue } from "../../server/jobs/jobQueue";
import { openTestDatabase, openAnotherHandle } from "../support/testDatabase";

// The job queue (pg-boss) on the portal's own database, PGlite or PostgreSQL (TEST_DB).
const log = { error: () => undefined, info: () => undefined };
let database: Database;
const queues: JobQueue[] = [];

async function start(jobs: readonly JobDefinition<object>[]) {
  const queue = await startJobQueue(database, jobs, { log, pollingIntervalSeconds: 0.5 });
  queues.push(queue);
  return queue;
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  for (const queue of queues) await queue.stop().catch(() => undefined);
  await database?.close();
});

describe("the job queue", () => {
  it("runs a job with its data, not before the time it was given", async () => {
    const ran: { data: unknown; at: number }[] = [];
    const queue = await start([
      {
        name: "test.echo",
        run: (data) => {
          ran.push({ data, at: Date.now() });
          return Promise.resolve();
        },
      },
    ]);
    const startAfter = new Date(Date.now() + 1500);
    await queue.send("test.echo", { hello: "world" }, { startAfter });
    await vi.waitFor(() => expect(ran).toHaveLength(1), { timeout: 20_000, interval: 100 });
    expect(ran[0]!.data).toEqual({ hello: "world" });
    expect(ran[0]!.at).toBeGreaterThanOrEqual(startAfter.getTime() - 1000); // pg-boss keeps whole seconds
  });

  it("keeps a job across a restart: sent by one queue, run by the next on the same database", async () => {
    const ran: unknown[] = [];
    const first = await start([{ name: "test.durable", run: () => Promise.resolve() }]);
    await first.send("test.durable", { n: 1 }, { startAfter: new Date(Date.now() + 60_000) });
    await first.send("test.durable", { n: 2 }, { startAfter: new Date(Date.now() + 1_000) });
    await first.stop();
    await start([
      {
        name: "test.durable",
        run: (data) => {
          ran.push(data);
          return Promise.resolve();
        },
      },
    ]);
    await vi.waitFor(() => expect(ran).toEqual([{ n: 2 }]), { timeout: 20_000, interval: 100 });
  });

  it("retries a job that failed", async () => {
    let attempts = 0;
    const queue = await start([
      {
        name: "test.flaky",
        retryLimit: 2,
        retryDelaySeconds: 1,
        run: () => {
          attempts++;
          return attempts < 2 ? Promise.reject(new Error("not yet")) : Promise.resolve();
        },
      },
    ]);
    await queue.send("test.flaky", {});
    await vi.waitFor(() => expect(attempts).toBe(2), { timeout: 30_000, interval: 100 });
  });

  // PostgreSQL only: two backends cannot share a PGlite database (one process holds it).
  it.skipIf(process.env.TEST_DB !== "postgres")(
    "starts on two backends at once on a database no queue has used yet",
    async () => {
      // Two instances deployed together: both create pg-boss's schema and queues at the same moment.
      const fresh = await openTestDatabase();
      const other = await openAnotherHandle(fresh);
      try {
        const both = await Promise.all(
          [fresh, other].map((db) =>
            startJobQueue(db, [{ name: "test.together", run: () => Promise.resolve() }], { log }),
          ),
        );
        for (const queue of both) await queue.stop();
      } finally {
        await other.close();
        await fresh.close();
      }
    },
  );

  it("keeps cron schedules in the database", async () => {
    await start([{ name: "test.sweep", cron: "*/5 * * * *", run: () => Promise.resolve() }]);
    const { rows } = await database.executeSql!("select name, cron from pgboss.schedule where name = $1", [
      "test.sweep",
    ]);
    expect(rows).toEqual([{ name: "test.sweep", cron: "*/5 * * * *" }]);
  });
});
