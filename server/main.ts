import { LOCAL_SANDBOX_API_KEY, loadServerConfig } from "./config";
import { sandboxGateway } from "./payments/sandbox/client";
import { startSandboxGateway } from "./payments/sandbox/server";
import { startPortingExchangeStandIn } from "./portingExchange/standIn";
import { operators } from "./db/schema";
import { eq } from "drizzle-orm";
import { topUpPaymentOf } from "#resources/topUps";
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
import { createReadRouter } from "./db/readReplicas";
import { maintainUsagePartitions } from "./domain/usage/partitions";

/** Starts the common backend from the environment (see README: configuration). */
async function main() {
  const config = loadServerConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: config.poolSize });
  // Hot standbys for reads that may lag; the router closes with the app (buildApp's onClose).
  const readReplicas =
    config.readUrls.length && database.pool
      ? await createReadRouter(
          { db: database.db, pool: database.pool },
          { urls: config.readUrls, poolSize: config.poolSize },
        )
      : undefined;
  const { app: firebaseAdminApp, auth } = createAdminAuth({
    projectId: config.firebaseProjectId,
    emulatorHost: config.authEmulatorHost,
  });
  // Production reads the project's live Remote Config template; offline (or locally) the repo's template and the defaults hold.
  const featureFlags = createFeatureFlags({ app: firebaseAdminApp });
  if (config.mode === "production" && !(await featureFlags.load()))
    console.warn("Remote Config not reached: feature flags keep the repo template's defaults.");
  // Local mode wires the sandbox card gateway (its own port); it runs when the operator's setting says "sandbox".
  const sandbox = config.sandboxGateway;
  const sandboxUrl = sandbox ? `http://127.0.0.1:${sandbox.port}` : undefined;
  const app = await buildApp({
    paymentGateways:
      sandbox && sandboxUrl
        ? {
            sandbox: sandboxGateway({
              url: sandboxUrl,
              apiKey: LOCAL_SANDBOX_API_KEY,
              webhookSecret: sandbox.webhookSecret,
            }),
          }
        : {},
    billPaymentGateway: config.billPaymentGateway,
    database,
    readReplicas,
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
    portingExchange: config.portingExchange,
    usageRetentionMonths: config.usageRetentionMonths,
    usageDailyRetentionMonths: config.usageDailyRetentionMonths,
  });
  // usage_records' months as of today, in case no backend ran the daily job for a while (another
  // instance doing it at this moment makes this one's attempt fail; the daily job catches up).
  await maintainUsagePartitions(database.db, {
    retentionMonths: config.usageRetentionMonths,
    dailyRetentionMonths: config.usageDailyRetentionMonths,
  }).catch((error: unknown) => app.log.warn({ err: error }, "usage months not maintained at start"));

  if (config.seedDemoData) {
    const { accountsCreated } = await seedOperator(
      database.db,
      attSeed,
      createSecretBox(config.secretsKey ?? LOCAL_SECRETS_KEY),
    );
    const { created: staffCreated } = await seedStaff(database.db, demoUsers);
    const { created } = await seedAuthUsers(auth, demoUsers);
    const { counted: usageRecordsCounted } = await seedUsage(database.db, attSeed);
    app.log.info({ accountsCreated, staffCreated, authUsersCreated: created, usageRecordsCounted }, "demo data ready");
  }

  let sandboxServer: Awaited<ReturnType<typeof startSandboxGateway>> | undefined;
  if (sandbox) {
    const [operator] = await database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, config.operator));
    // It runs for the bills' gateway (BILL_PAYMENT_GATEWAY, "sandbox" by default here) or the operator's top-up setting.
    if (topUpPaymentOf(operator?.settings) === "sandbox" || config.billPaymentGateway === "sandbox") {
      try {
        sandboxServer = await startSandboxGateway({
          port: sandbox.port,
          apiKey: LOCAL_SANDBOX_API_KEY,
          webhookSecret: sandbox.webhookSecret,
          webhook: `http://127.0.0.1:${config.port}/api/v1/payment-webhooks/sandbox`,
          lateSuccessMs: sandbox.lateSuccessMs,
          achSettleMs: sandbox.achSettleMs,
        });
        app.log.info({ url: sandboxServer.url }, "sandbox card gateway ready");
      } catch (error) {
        // Another local backend holds the port: this one runs without its own sandbox (payments through it fail).
        app.log.warn(
          { err: error, port: sandbox.port },
          "the sandbox card gateway could not start (set SANDBOX_GATEWAY_PORT)",
        );
      }
    }
  }

  // Local mode: the number portability exchange's stand-in (server/portingExchange/standIn.ts) on its own port.
  let portingStandIn: Awaited<ReturnType<typeof startPortingExchangeStandIn>> | undefined;
  if (config.portingStandIn && config.portingExchange) {
    try {
      portingStandIn = await startPortingExchangeStandIn({
        port: config.portingStandIn.port,
        apiKey: config.portingExchange.apiKey,
        webhookSecret: config.portingExchange.webhookSecret,
        webhook: `http://127.0.0.1:${config.port}/api/v1/porting-webhooks`,
        delayMs: config.portingStandIn.delayMs,
      });
      app.log.info({ url: portingStandIn.url }, "number portability exchange stand-in ready");
    } catch (error) {
      // Another local backend holds the port: port-ins stay queued and are retried until an exchange answers.
      app.log.warn(
        { err: error, port: config.portingStandIn.port },
        "the number portability exchange stand-in could not start (set PORTING_EXCHANGE_PORT)",
      );
    }
  }

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await sandboxServer?.close();
    await portingStandIn?.close();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { mode: config.mode, database: database.driver, readReplicas: readReplicas?.status(), operator: config.operator },
    "backend ready",
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
