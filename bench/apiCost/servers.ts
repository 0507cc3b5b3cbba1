// The two servers bench/api-cost.ts compares, in one process on one database (PGlite lives in its
// process): the portal's backend as server/main.ts builds it (logging at LOG_LEVEL, info by default),
// and a bare Fastify handler that runs the same SQL after the same token check. Started by the bench
// through fork(); it answers over IPC with the ports, a subscriber's token and one of their lines.
import { and, eq } from "drizzle-orm";
import Fastify from "fastify";
import type { Pool } from "pg";
import { buildApp } from "../../server/app";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { seedAuthUsers } from "../../server/auth/seedAuthUsers";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { openDatabase, type Database } from "../../server/db/client";
import { attSeed, demoUsers } from "../../server/db/seed/demoData";
import { seedOperator } from "../../server/db/seed/seedDatabase";
import { seedStaff } from "../../server/db/seed/seedStaff";
import { linesModule } from "../../server/domain/lines/module";
import { sourceScope } from "../../src/resources/access";
import { linesResource } from "../../src/resources/lines";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../../server/lib/secretBox";
import { EMULATOR_HOST, PROJECT_ID } from "../../tests/support/authEmulator";
import type { DynamicSelect } from "../../tests/support/dynamicSelect";
import { signInWithPassword } from "../../tests/support/testBackend";

export interface ServersReady {
  portalPort: number;
  barePort: number;
  token: string;
  lineId: string;
  driver: string;
}

const SUBSCRIBER = "alex@example.com";

interface LineSample {
  operator: string;
  uid: string;
  id: string;
}

/**
 * The SQL the engine runs for a subscriber's GET /lines/{id}, as text with $1… parameters, and the
 * order of its values. The scope is the one the declaration gives a subscriber's `show` (sourceScope:
 * "own+people" since account members, issue 28: the holder's lines, a manager's, a member's own), so
 * the bare handler runs the portal's query, not a cheaper one; each parameter is one of the sample's
 * values, found by building the query with two different samples.
 */
function lineQueryOf(database: Database) {
  const scope = sourceScope({ role: "subscriber" }, linesResource, "show");
  if (!scope) throw new Error("subscribers may not show a line");
  const { source } = linesModule;
  const build = (sample: LineSample) =>
    (source.rows(database.db) as DynamicSelect)
      .where(and(source.scope({ ...sample, role: "subscriber" }, scope), eq(source.id, sample.id)))
      .limit(1)
      .toSQL();
  const a = { operator: "OPA", uid: "uid-a", id: "00000000-0000-4000-8000-00000000000a" };
  const b = { operator: "OPB", uid: "uid-b", id: "00000000-0000-4000-8000-00000000000b" };
  const [builtA, builtB] = [build(a), build(b)];
  if (builtA.sql !== builtB.sql) throw new Error("the line query's text depends on its values");
  const order = builtA.params.map((value, i): keyof LineSample | number => {
    const key = (Object.keys(a) as (keyof LineSample)[]).find((k) => a[k] === value && b[k] === builtB.params[i]);
    if (key) return key;
    if (value === builtB.params[i] && typeof value === "number") return value; // the limit
    throw new Error(`unexpected parameter ${JSON.stringify(value)}`);
  });
  return {
    text: builtA.sql,
    values: (sample: LineSample) => order.map((part) => (typeof part === "number" ? part : sample[part])),
  };
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase(url ? { url, dataDir: "" } : { dataDir: "memory://" });
  await seedOperator(database.db, attSeed, createSecretBox(LOCAL_SECRETS_KEY));
  await seedStaff(database.db, demoUsers);
  const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
  await seedAuthUsers(auth, demoUsers);

  const portalVerifier = createTokenVerifier(auth);
  const portal = await buildApp({
    database,
    verifier: portalVerifier,
    auth,
    operator: "ATT",
    logLevel: process.env.LOG_LEVEL ?? "info",
  });
  await portal.listen({ host: "127.0.0.1", port: 0 });

  const token = await signInWithPassword(SUBSCRIBER);
  const uid = (await auth.getUserByEmail(SUBSCRIBER)).uid;
  const [own] = await (linesModule.source.rows(database.db) as DynamicSelect<{ id: string }>)
    .where(linesModule.source.scope({ uid, role: "subscriber", operator: "ATT" }, "own"))
    .limit(1);
  if (!own) throw new Error(`${SUBSCRIBER} has no line`);
  const lineQuery = lineQueryOf(database);

  // The bare handler: no logger, no hooks, no schemas; the same verifier (its own cache) and claims check, the same SQL.
  // It calls the driver with nothing added: on PGlite not executeSql, which asks for PGlite's own
  // date parsing per query (server/db/pgliteParsers.ts) and so pays the copy the portal no longer makes.
  // On PostgreSQL a named statement on the portal's own pool, as the portal's prepared reads are: an
  // unnamed one is planned again each time (1.3–1.6 ms here), which no competent handler would pay.
  const notifications = database.notifications;
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const plainQuery =
    notifications?.driver === "pglite"
      ? (sql: string, values: unknown[]) => notifications.client.query(sql, values)
      : (sql: string, values: unknown[]) => pool.query({ name: "bench-bare-line", text: sql, values });
  const bareVerifier = createTokenVerifier(auth);
  const bare = Fastify({ logger: false });
  bare.get<{ Params: { id: string } }>("/api/v1/lines/:id", async (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    if (!match) return reply.code(401).send({ status: 401 });
    const user = await bareVerifier.verify(match[1]!);
    if (!user.role || user.operator !== request.headers["x-operator"]) return reply.code(403).send({ status: 403 });
    const { rows } = await plainQuery(
      lineQuery.text,
      lineQuery.values({ operator: user.operator, uid: user.uid, id: request.params.id }),
    );
    if (!rows[0]) return reply.code(404).send({ status: 404 });
    return rows[0];
  });
  await bare.listen({ host: "127.0.0.1", port: 0 });

  const ready: ServersReady = {
    portalPort: (portal.server.address() as { port: number }).port,
    barePort: (bare.server.address() as { port: number }).port,
    token,
    lineId: own.id,
    driver: database.driver,
  };
  process.send!(ready);
  process.on("message", (message) => {
    // CPU time of this process: the bench reads it around each load, for the CPU one request costs.
    if (message === "cpu") return process.send!({ cpu: process.cpuUsage() });
    if (message !== "stop") return;
    void (async () => {
      await bare.close();
      await portal.close();
      await database.close();
      process.exit(0);
    })();
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
