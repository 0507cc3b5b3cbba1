import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { migrationsFolder, openDatabase, type Database } from "../../server/db/client";
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

/** A database's URL on the test server. */
function urlOf(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Waits (`ms` at most) until nobody is connected to the database `name`: pg's Pool.end() resolves
 * before its connections have said goodbye, and dropping, renaming or copying the database under
 * them would fail (or make them fail loudly).
 */
async function sessionsGone(admin: pg.Client, name: string, ms: number): Promise<void> {
  const sessions = async () =>
    (await admin.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1", [name]))
      .rows[0]!.n;
  const deadline = Date.now() + ms;
  while ((await sessions()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A new database on the PostgreSQL server: empty (not migrated), or a copy of `template`. Its URL,
 * and drop() to remove it.
 */
export async function createThrowawayPostgresDatabase(
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  return {
    url: urlOf(name),
    async drop() {
      const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await cleanup.connect();
      await sessionsGone(cleanup, name, 5_000);
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A migrated, empty PGlite database's image, made once per worker process (test files in a worker
 * share their modules): each file's database loads it instead of running initdb and every migration
 * again (~0.5 s against ~2 s, on every one of the integration files).
 */
let migratedPglite: Promise<Blob> | undefined;
function migratedPgliteImage(): Promise<Blob> {
  migratedPglite ??= (async () => {
    const database = await openDatabase({ dataDir: "memory://" });
    try {
      if (database.notifications?.driver !== "pglite") throw new Error("An in-memory database is PGlite");
      // Uncompressed: loading it is what is repeated.
      return await database.notifications.client.dumpDataDir("none");
    } finally {
      await database.close();
    }
  })();
  return migratedPglite;
}

/** What the migrations folder holds, as a short hash: a template made by other migrations is another template. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: "utf8" }).sort()) {
    const path = join(migrationsFolder, file);
    if (statSync(path).isFile()) hash.update(file).update(readFileSync(path));
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * The name of a migrated, empty database on the PostgreSQL server that test files copy (CREATE
 * DATABASE … TEMPLATE) instead of migrating their own (~0.1 s against ~0.45 s a file). It is named
 * after the migrations it holds and the day (migrations 0040 and 0042 make the usage months around
 * the day they run) and kept on the server: the first worker to need it makes it, under an advisory
 * lock the others wait on, renames it into place only once it is complete, and drops older ones.
 */
let postgresTemplate: Promise<string> | undefined;
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `portal_template_${migrationsHash()}_${new Date().toISOString().slice(0, 10).replaceAll("-", "")}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query("select pg_advisory_lock(hashtext('portal_test_template'))");
      const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
      if (found.rowCount === 0) {
        // Yesterday's, or another checkout's: one a run is copying at this moment stays (the drop fails).
        const older = await admin.query<{ datname: string }>(
          "select datname from pg_database where datname like 'portal\\_template\\_%' and datname <> $1",
          [name],
        );
        for (const { datname } of older.rows) await admin.query(`drop database if exists ${datname}`).catch(() => {});
        const making = `${name}_making`;
        await admin.query(`drop database if exists ${making} with (force)`);
        await admin.query(`create database ${making}`);
        const database = await openDatabase({ url: urlOf(making), dataDir: "", poolSize: 1 });
        await database.close();
        await sessionsGone(admin, making, 30_000);
        await admin.query(`alter database ${making} rename to ${name}`);
      }
    } finally {
      await admin.end();
    }
    return name;
  })();
  return postgresTemplate;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on the PostgreSQL server, dropped again on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== "postgres")
    return openDatabase({ dataDir: "memory://", image: await migratedPgliteImage() });
  const throwaway = await createThrowawayPostgresDatabase(await migratedPostgresTemplate());
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
  return openDatabase({ url: urlOf(rows[0]!.name), dataDir: "" });
}
