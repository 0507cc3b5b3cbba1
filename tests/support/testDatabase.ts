import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type Database } from "../../server/db/client";
import { rowsOf } from "../../server/db/rowsOf";

/** The server that integration tests create throwaway databases on (trust auth). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

export async function postgresAnswers(url = TEST_DATABASE_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A new, empty database on the PostgreSQL server (not migrated): its URL, and drop() to remove it. */
export async function createThrowawayPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      // pg's Pool.end() resolves before its connections have said goodbye; dropping the database
      // under them would make them fail loudly, so wait (a while at most) until they are gone.
      const sessions = async () =>
        (
          await cleanup.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1", [
            name,
          ])
        ).rows[0]!.n;
      const deadline = Date.now() + 5_000;
      while ((await sessions()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on the PostgreSQL server, dropped again on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== "postgres") return openDatabase({ dataDir: "memory://" });
  const throwaway = await createThrowawayPostgresDatabase();
  const database = await openDatabase({ url: throwaway.url, dataDir: "" });
  return {
    ...database,
    async close() {
      await database.close();
      await throwaway.drop();
    },
  };
}

/**
 * Another handle on a test database, as a second backend instance would open: on PostgreSQL its
 * own pool and LISTEN connection on the same database (closing it drops nothing); on PGlite the
 * same embedded database, which one process alone can open (closing the handle leaves it open).
 */
export async function openAnotherHandle(database: Database): Promise<Database> {
  if (database.driver === "pglite") return { ...database, close: async () => {} };
  const rows = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${rows[0]!.name}`;
  return openDatabase({ url: url.toString(), dataDir: "" });
}
