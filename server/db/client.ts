import { fileURLToPath } from "node:url";
import { mkdirSync } from "node:fs";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import type { Client as PgClient, Pool as PgPool } from "pg";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Either driver behind one type: routes and domain code never know which database they talk to. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /**
   * What LISTEN needs, which a pooled connection cannot give: on PostgreSQL a new dedicated client
   * on the same server and database (not yet connected; the caller connects and ends it), on PGlite
   * the instance itself, whose listen() delivers NOTIFY sent within that instance. Absent on stand-ins
   * built by tests, where events then stay within the process.
   */
  notifications?: { driver: "postgres"; newClient(): PgClient } | { driver: "pglite"; client: PGlite };
  /**
   * Plain SQL text with $1… parameters, for libraries that bring their own queries (the job queue).
   * Without parameters it may hold several statements. Never inside a Drizzle transaction on PGlite:
   * its one connection waits for that transaction to end.
   */
  executeSql?(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** The primary's connection pool on PostgreSQL (read replicas fall back to it); absent on PGlite. */
  pool?: PgPool;
  close(): Promise<void>;
}

/** PostgreSQL connections per backend process unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/** The migrations, in drizzle's folder layout (the test suites also name their migrated templates after them). */
export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Opens the database and applies pending migrations. `url` (a postgres:// URL) selects a
 * PostgreSQL server; otherwise PGlite keeps its files in `dataDir` ("memory://" keeps nothing).
 * `image`, on PGlite, is a data directory dumped by PGlite's `dumpDataDir` to start from instead of an
 * empty cluster (the test suites open hundreds of databases: initdb costs ~1.4 s, loading ~0.5 s).
 */
export async function openDatabase(options: {
  url?: string;
  dataDir: string;
  poolSize?: number;
  image?: Blob;
}): Promise<Database> {
  if (options.url) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? DEFAULT_POOL_SIZE });
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    const url = options.url;
    const newClient = () => new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 10_000 });
    return {
      db: db as unknown as Db,
      driver: "postgres",
      notifications: { driver: "postgres", newClient },
      executeSql: (text, values) => pool.query(text, values),
      pool,
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { fuzzystrmatch } = await import("@electric-sql/pglite/contrib/fuzzystrmatch");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { readDatesAsText } = await import("./pgliteParsers");
  if (!options.dataDir.startsWith("memory://")) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create(options.dataDir, {
    extensions: { pg_trgm, fuzzystrmatch },
    ...(options.image ? { loadDataDir: options.image } : {}),
  });
  const { drizzleClient, ownParsers } = readDatesAsText(client);
  const db = drizzle({ client: drizzleClient, schema });
  await migrate(db, { migrationsFolder });
  const own = { parsers: ownParsers };
  return {
    db: db as unknown as Db,
    driver: "pglite",
    notifications: { driver: "pglite", client },
    // PGlite's extended protocol takes one statement; several (a library's migration) go through exec.
    executeSql: async (text, values) =>
      values?.length ? client.query(text, values, own) : ((await client.exec(text, own)).at(-1) ?? { rows: [] }),
    close: () => client.close(),
  };
}
