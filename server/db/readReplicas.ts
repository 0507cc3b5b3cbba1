import type { Pool, QueryConfig } from "pg";
import { DEFAULT_POOL_SIZE, type Db } from "./client";

// Reads that may lag (lists, search, the 360, meters, KPIs) go to PostgreSQL hot standbys; writes and
// everything inside a transaction stay on the primary. A poller compares each standby's replayed
// WAL position with the primary's recent positions, so "lag" is measured in time without trusting
// clocks or an idle primary's last commit time: a standby is as fresh as the newest primary sample
// it has replayed.

export interface ReadReplicaOptions {
  /** postgres:// URLs of the hot standbys (DATABASE_READ_URLS). */
  urls: string[];
  /** A standby further behind than this is skipped (default 10 s). */
  maxLagMs?: number;
  /** How often the standbys' positions are read (default 500 ms). */
  pollMs?: number;
  /** Connections to each standby (default: the primary's pool size). */
  poolSize?: number;
}

export interface ReplicaStatus {
  url: string;
  /** Answering, still a standby, and within the lag limit. */
  usable: boolean;
  /** How far behind the primary it was at the last poll (ms), when known. */
  lagMs: number | null;
  /** Reads it answered since start, and reads it failed that the primary answered instead. */
  served: number;
  failedOver: number;
}

export interface ReadRouter {
  /**
   * The handle for a read that may lag, for the person `who` (a uid) or nobody: a standby that is
   * usable and, after that person's last write, has replayed it; else the primary. Never use it for
   * a transaction (it refuses).
   */
  forReader(who: string | undefined): Db;
  /** `who`'s write has committed: their next reads must see it (read-your-writes). */
  wrote(who: string): void;
  status(): ReplicaStatus[];
  /** Reads the positions now rather than at the next tick (tests, and the first read after start). */
  poll(): Promise<void>;
  close(): Promise<void>;
}

/** host:port/database of a URL, without its user or password: what a status may show. */
const whereIs = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
};

export const DEFAULT_MAX_REPLICA_LAG_MS = 10_000;
const DEFAULT_POLL_MS = 500;

/** A pg_lsn ("16/B374D848") as a comparable number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

// Connection failures, a standby shutting down or starting, and a query cancelled because recovery
// needed its rows (40001 on a standby): the primary can answer instead.
const FAILOVER_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "57P01",
  "57P02",
  "57P03",
  "40001",
]);
export function isReplicaFailure(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code && (FAILOVER_CODES.has(code) || code.startsWith("08"))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message ?? "",
  );
}

interface Replica {
  url: string;
  pool: Pool;
  db: Db;
  up: boolean;
  /** The time of the newest primary sample this standby had replayed at the last poll. */
  caughtUpAt: number | null;
  served: number;
  failedOver: number;
}

/**
 * The router over `primary` (its pool and Drizzle handle) and the standbys at `options.urls`. The
 * standbys' pools are its own and closed with it.
 */
export async function createReadRouter(
  primary: { db: Db; pool: Pool },
  options: ReadReplicaOptions,
): Promise<ReadRouter> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const schema = await import("./schema");
  const maxLagMs = options.maxLagMs ?? DEFAULT_MAX_REPLICA_LAG_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  /** The primary's WAL position over the last maxLagMs (oldest first). */
  const samples: { at: number; lsn: bigint }[] = [];
  /** When each person's last write committed, while some standby may not have it yet. */
  const lastWrite = new Map<string, number>();

  // Drizzle is handed this rather than the standby's pool: a read that the standby cannot answer
  // (down, shutting down, cancelled by recovery) is answered by the primary, and the standby is
  // skipped until the poller sees it again. "Pool" in the class name makes Drizzle ask connect()
  // for a transaction, which is refused: transactions belong on the primary.
  class FailoverReadPool {
    constructor(private readonly replica: Omit<Replica, "db">) {}
    async query(config: QueryConfig | string, values?: unknown[]) {
      try {
        const result = await this.replica.pool.query(config as QueryConfig, values);
        this.replica.served += 1;
        return result;
      } catch (error) {
        if (!isReplicaFailure(error)) throw error;
        this.replica.up = false;
        this.replica.failedOver += 1;
        return primary.pool.query(config as QueryConfig, values);
      }
    }
    connect(): never {
      throw new Error("A transaction on a read replica: run it on the primary (services.db).");
    }
  }

  const replicas: Replica[] = options.urls.map((url) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: 2_000,
      idleTimeoutMillis: 30_000,
    });
    // A standby that goes away takes its idle connections with it; that is the poller's news, not a crash.
    pool.on("error", () => {});
    const replica = { url, pool, up: false, caughtUpAt: null, served: 0, failedOver: 0 } as Omit<Replica, "db">;
    const db = drizzle(new FailoverReadPool(replica) as unknown as Pool, { schema }) as unknown as Db;
    return Object.assign(replica, { db });
  });

  // The insert position, not pg_current_wal_lsn() (the write position): with synchronous_commit off a
  // commit returns before its WAL is written, and a sample that missed it would let a standby without
  // the write pass as having it. No standby can be past the insert position, so the error is safe.
  const positionOfPrimary = async () => {
    const at = Date.now();
    const { rows } = await primary.pool.query<{ lsn: string }>("select pg_current_wal_insert_lsn()::text as lsn");
    samples.push({ at, lsn: lsnBytes(rows[0]!.lsn) });
    while (samples.length > 1 && samples[0]!.at < at - maxLagMs - pollMs) samples.shift();
  };
  const positionOf = async (replica: Replica) => {
    try {
      const { rows } = await replica.pool.query<{ standby: boolean; replayed: string | null }>(
        "select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed",
      );
      const { standby, replayed } = rows[0]!;
      // A promoted standby no longer follows this primary: reading it could miss writes.
      if (!standby || !replayed) return Object.assign(replica, { up: false, caughtUpAt: null });
      const position = lsnBytes(replayed);
      const newest = samples.findLast((sample) => sample.lsn <= position);
      Object.assign(replica, { up: true, caughtUpAt: newest?.at ?? null });
    } catch {
      Object.assign(replica, { up: false });
    }
  };
  let polling: Promise<void> | undefined;
  const poll = () =>
    (polling ??= (async () => {
      try {
        await positionOfPrimary();
        await Promise.all(replicas.map(positionOf));
        const now = Date.now();
        for (const [who, at] of lastWrite) if (at < now - maxLagMs - pollMs) lastWrite.delete(who);
      } catch {
        // The primary not answering is every request's problem, reported there; keep the last view.
      } finally {
        polling = undefined;
      }
    })());
  const timer = setInterval(() => void poll(), pollMs);
  timer.unref();
  await poll();

  const usable = (replica: Replica, now: number) =>
    replica.up && replica.caughtUpAt !== null && now - replica.caughtUpAt <= maxLagMs;
  let next = 0;
  return {
    forReader(who) {
      const now = Date.now();
      const wroteAt = who ? lastWrite.get(who) : undefined;
      // After a write, only a standby that had replayed a primary position sampled after it has the write.
      const candidates = replicas.filter(
        (replica) => usable(replica, now) && (wroteAt === undefined || replica.caughtUpAt! > wroteAt),
      );
      if (!candidates.length) return primary.db;
      next = (next + 1) % candidates.length;
      return candidates[next]!.db;
    },
    wrote(who) {
      lastWrite.set(who, Date.now());
    },
    status() {
      const now = Date.now();
      return replicas.map((replica) => ({
        url: whereIs(replica.url),
        usable: usable(replica, now),
        lagMs: replica.up && replica.caughtUpAt !== null ? now - replica.caughtUpAt : null,
        served: replica.served,
        failedOver: replica.failedOver,
      }));
    },
    poll,
    async close() {
      clearInterval(timer);
      await polling;
      await Promise.all(replicas.map((replica) => replica.pool.end()));
    },
  };
}
