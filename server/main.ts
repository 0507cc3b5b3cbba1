import { loadServerConfig } from "./config";
import { openDatabase } from "./db/client";
import { attSeed, demoUsers } from "./db/seed/demoData";
import { seedOperator } from "./db/seed/seedDatabase";
import { seedStaff } from "./db/seed/seedStaff";
import { seedUsage } from "./db/seed/seedUsage";
import { createAdminAuth } from "./auth/firebaseAdmin";
import { seedAuthUsers } from "./auth/seedAuthUsers";
import { createTokenVerifier } from "./auth/tokenVerifier";
import { buildApp } from "./app";
import { createConfiguredFileStore } from "./files/configuredFileStore";
import { parseServiceKeys } from "./auth/serviceKeys";
import { createFeatureFlags } from "./lib/featureFlags";
import { createSecretBox, LOCAL_SECRETS_KEY } from "./lib/secretBox";

/** Starts the common backend from the environment (see README: configuration). */
async function main() {
  const config = loadServerConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const { app: firebaseAdminApp, auth } = createAdminAuth({ projectId: config.firebaseProjectId, emulatorHost: config.authEmulatorHost });
  // Production reads the project's live Remote Config template; offline (or locally) the repo's template and the defaults hold.
  const featureFlags = createFeatureFlags({ app: firebaseAdminApp });
  if (config.mode === "production" && !(await featureFlags.load())) console.warn("Remote Config not reached: feature flags keep the repo template's defaults.");
  const app = await buildApp({
    database,
    verifier: createTokenVerifier(auth, { cacheSeconds: config.tokenCacheSeconds }),
    auth,
    operator: config.operator,
    staticDir: config.staticDir,
    strictTransportSecurity: config.mode === "production",
    corsOrigins: config.corsOrigins,
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    secretsKey: config.secretsKey,
    ingestApiKeys: parseServiceKeys(config.ingestApiKeys, config.operator),
    jobs: true,
    minAppVersion: config.minAppVersion,
    crm: config.bitrix,
    featureFlags,
    fileStore: await createConfiguredFileStore(config.files, firebaseAdminApp),
    fileMaxBytes: config.files.maxBytes,
  });

  if (config.seedDemoData) {
    const { accountsCreated } = await seedOperator(database.db, attSeed, createSecretBox(config.secretsKey ?? LOCAL_SECRETS_KEY));
    const { created: staffCreated } = await seedStaff(database.db, demoUsers);
    const { created } = await seedAuthUsers(auth, demoUsers);
    const { counted: usageRecordsCounted } = await seedUsage(database.db, attSeed.code);
    app.log.info({ accountsCreated, staffCreated, authUsersCreated: created, usageRecordsCounted }, "demo data ready");
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ host: config.host, port: config.port });
  app.log.info({ mode: config.mode, database: database.driver, operator: config.operator }, "backend ready");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
