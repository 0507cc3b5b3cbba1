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

/** The SQL the engine runs for a subscriber's GET /lines/{id}, as text with $1… parameters in the order given. */
function lineQueryOf(database: Database, sample: { operator: string; uid: string; id: string }) {
  const { source } = linesModule;
  const built = (source.rows(database.db) as DynamicSelect)
    .where(and(source.scope({ ...sample, role: "subscriber" }, "own"), eq(source.id, sample.id)))
    .limit(1)
    .toSQL();
  // The bare handler fills the same parameters itself; make sure they are the ones drizzle put there.
  const expected = [sample.operator, sample.uid, sample.id, 1];
  if (JSON.stringify(built.params) !== JSON.stringify(expected))
    throw new Error(`unexpected parameters ${JSON.stringify(built.params)}`);
  return built.sql;
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
  const text = lineQueryOf(database, { operator: "ATT", uid, id: own.id });

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
    const { rows } = await plainQuery(text, [user.operator, user.uid, request.params.id, 1]);
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
