import PgBoss from "pg-boss";
import type { Database } from "../db/client";
import { isConcurrentCreation } from "../db/pgErrors";

/** A job: its name, what it does with its data, and when it runs on its own (cron, in UTC). */
export interface JobDefinition<Data extends object = Record<string, unknown>> {
  name: string;
  /** What it answers is kept with the job (pg-boss's `output`): a part of the daily job keeps its counters there. */
  run(data: Data): Promise<unknown>;
  /** Every run of this cron expression also runs the job (with `{}`), on one instance at a time. */
  cron?: string;
  /** Retries after a failure, before the job is given up (and logged), the first after `retryDelaySeconds`, then doubling. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long a run may take before it counts as lost and is retried (pg-boss's default: 15 minutes). */
  expireInSeconds?: number;
  /** Jobs of this name run at once on each instance (1 unless told): one pg-boss worker each. */
  workers?: number;
}

export interface JobQueue {
  /** Runs `name` with `data` once, at `startAfter` or as soon as a worker is free. */
  send(name: string, data: object, options?: { startAfter?: Date }): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * Background work, durable across restarts: pg-boss keeps jobs and schedules in the database the
 * portal already uses (its own `pgboss` schema), so a job sent before a crash runs after it, and a
 * cron job runs once per tick however many backends are up. On PGlite, pg-boss talks through the
 * same embedded instance; jobs are never sent inside a Drizzle transaction (see Database.executeSql),
 * so work that must not be lost is also kept in the domain's own tables and swept by a cron job.
 */
export async function startJobQueue(
  database: Pick<Database, "executeSql">,
  jobs: readonly JobDefinition<object>[],
  options: {
    log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
    pollingIntervalSeconds?: number;
  },
): Promise<JobQueue> {
  const executeSql = database.executeSql;
  if (!executeSql) throw new Error("The job queue needs a database that runs plain SQL (Database.executeSql)");
  const boss = await startedAlongsideOthers(() => {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => executeSql(text, values) },
      schema: "pgboss",
      supervise: true,
      schedule: jobs.some((job) => job.cron),
      migrate: true,
    });
    boss.on("error", (error) => options.log.error({ err: error }, "job queue error"));
    return boss;
  });
  for (const job of jobs) {
    await againIfRaced(() =>
      boss.createQueue(job.name, {
        name: job.name,
        retryLimit: job.retryLimit ?? 3,
        retryDelay: job.retryDelaySeconds ?? 5,
        retryBackoff: true,
        ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
      }),
    );
    for (let worker = 0; worker < (job.workers ?? 1); worker++)
      await boss.work<object>(
        job.name,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
        async ([item]) => (item ? await job.run(item.data) : undefined),
      );
    if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: "UTC" });
    else await boss.unschedule(job.name).catch(() => undefined);
  }
  options.log.info({ jobs: jobs.map((j) => j.name) }, "job queue ready");
  return {
    send: (name, data, sendOptions = {}) =>
      boss.send(name, data, sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}

/**
 * Asks again when two backends creating pg-boss's schema or the same queue met (deployed together,
 * or a release that adds a job): the second then finds what the first made.
 */
async function againIfRaced<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isConcurrentCreation(error)) throw error;
      // Apart a little, so the two do not meet again at once.
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

/** A pg-boss started, made anew for each try: one whose start failed part way is not started again. */
async function startedAlongsideOthers(make: () => PgBoss): Promise<PgBoss> {
  return againIfRaced(async () => {
    const boss = make();
    try {
      await boss.start();
      return boss;
    } catch (error) {
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      throw error;
    }
  });
}
