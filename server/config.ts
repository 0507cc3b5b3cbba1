import { z } from "zod";
import { DEFAULT_OPERATOR, OPERATOR_CODE_PATTERN } from "#config/operator";
import { LOCAL_SECRETS_KEY } from "./lib/secretBox";
import { DEFAULT_TOKEN_CACHE_SECONDS } from "./auth/tokenVerifier";
import { LOCAL_INGEST_KEY } from "./auth/serviceKeys";
import { APP_VERSION_PATTERN } from "#config/appVersion";
import { parseTrustProxy, type TrustedProxies } from "./lib/trustProxy";
import { DEFAULT_POOL_SIZE } from "./db/client";
import { DEFAULT_USAGE_DAILY_RETENTION_MONTHS, DEFAULT_USAGE_RETENTION_MONTHS } from "./domain/usage/partitions";

/** Local mode's webhook secret for the sandbox card gateway (public: development only). */
export const LOCAL_WEBHOOK_SECRET = "local-sandbox-webhook-secret";
/** Local mode's API key the backend calls the sandbox gateway with. */
export const LOCAL_SANDBOX_API_KEY = "sk_sandbox_local";
/** Local mode's API key for the number portability exchange's stand-in, and the secret it signs answers with (public: development only). */
export const LOCAL_PORTING_API_KEY = "local-porting-exchange-key";
export const LOCAL_PORTING_WEBHOOK_SECRET = "local-porting-webhook-secret";

/**
 * The backend's environment. "local" is the embedded default (Auth emulator, PGlite, demo data);
 * "production" verifies real Firebase signatures and refuses the emulator.
 */
export const serverEnvSchema = z
  .object({
    APP_MODE: z.enum(["local", "production"]).default("local"),
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    DATABASE_URL: z.union([z.literal(""), z.string().regex(/^postgres(ql)?:\/\//, "a postgres:// URL")]).default(""),
    /** Connections each backend process keeps to PostgreSQL (docs/scale.md sizes it against the server's max_connections). */
    DATABASE_POOL_SIZE: z.coerce
      .number("a whole number of connections")
      .int("a whole number of connections")
      .min(2, "at least 2")
      .max(500, "at most 500: past that, put PgBouncer in front instead")
      .default(DEFAULT_POOL_SIZE),
    /** Hot standbys for reads that may lag (docs/scale.md "Read replicas"): comma-separated postgres:// URLs. */
    DATABASE_READ_URLS: z
      .string()
      .default("")
      .transform((text) =>
        text
          .split(",")
          .map((url) => url.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, "postgres:// URLs, separated by commas"))),
    /** Months of raw usage records kept; older months are dropped by the daily job once billed (docs/scale.md). */
    USAGE_RETENTION_MONTHS: z.coerce
      .number("a whole number of months")
      .int("a whole number of months")
      .min(2, "at least 2: the current and the last cycle are still being billed")
      .max(120, "at most 120")
      .default(DEFAULT_USAGE_RETENTION_MONTHS),
    /** Months of the usage chart's daily sums kept (by their cycle's start); older months are dropped by the daily job. */
    USAGE_DAILY_RETENTION_MONTHS: z.coerce
      .number("a whole number of months")
      .int("a whole number of months")
      .min(2, "at least 2: the current and the last cycle are charted")
      .max(120, "at most 120")
      .default(DEFAULT_USAGE_DAILY_RETENTION_MONTHS),
    DATA_DIR: z.string().default(".data/pglite"),
    FIREBASE_PROJECT_ID: z.string().min(1).default("demo-att-portal"),
    FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
    OPERATOR: z.string().regex(OPERATOR_CODE_PATTERN).default(DEFAULT_OPERATOR),
    STATIC_DIR: z.string().default("dist"),
    SEED_DEMO_DATA: z.enum(["true", "false"]).optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Origins allowed to call the API from a browser (comma-separated); empty = same origin only. */
    CORS_ORIGINS: z.string().default(""),
    /** Behind reverse proxies: which may tell the client address in X-Forwarded-For (per-address rate limits); server/lib/trustProxy.ts. */
    TRUST_PROXY: z.string().default("false"),
    /** Base64 of 32 random bytes: seals secrets kept at rest (SIM PUKs). Local mode has a fixed development key. */
    SECRETS_KEY: z
      .string()
      .refine(
        (v) => Buffer.from(v, "base64").length === 32,
        "32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)",
      )
      .optional(),
    /**
     * How long a read may trust a cached token verification; writes and reads of secrets never do.
     * It bounds how late a revocation made outside the portal (Firebase console, another service)
     * reaches reads. 0 turns the cache off.
     */
    /** API keys of the usage mediation system: `OPERATOR:key` or a bare key of OPERATOR, comma-separated. Local mode: `local-ingest-key`. */
    INGEST_API_KEYS: z.string().optional(),
    TOKEN_CACHE_SECONDS: z.coerce
      .number("a whole number of seconds")
      .int("a whole number of seconds")
      .min(0, "0 (no cache) or more")
      .max(300, "at most 300: a longer cache would let revoked sessions read for too long")
      .default(DEFAULT_TOKEN_CACHE_SECONDS),
    /** Portals older than this version (X-App-Version) get 426 and are told to reload; empty: any version. */
    MIN_APP_VERSION: z
      .union([z.literal(""), z.string().regex(APP_VERSION_PATTERN, "a version like 3.2.1")])
      .default(""),
    /** "Bitrix integration required": device claims and contact requests become Bitrix24 CRM leads. Off: nothing leaves. */
    BITRIX_INTEGRATION_REQUIRED: z.enum(["true", "false", ""], "true or false").default("false"),
    /** The Bitrix24 inbound webhook base, e.g. https://att.bitrix24.com/rest/1/abcdef/ (crm.lead.add is called under it). */
    BITRIX_WEBHOOK_URL: z.union([z.literal(""), z.url("an https:// URL of the Bitrix24 inbound webhook")]).default(""),
    /** Deliveries of one CRM lead tried before it is dead-lettered (an admin can retry it from the outbox page). */
    /** Where uploaded files are kept when no Storage bucket is set (the local disk adapter). */
    FILES_DIR: z.string().min(1).default(".data/files"),
    /** A Firebase Storage bucket (e.g. att-portal.appspot.com): uploads go there instead of FILES_DIR. */
    FIREBASE_STORAGE_BUCKET: z
      .union([
        z.literal(""),
        z.string().regex(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, "a bucket name like my-project.appspot.com"),
      ])
      .default(""),
    /** The largest upload, in bytes (ID documents, claim attachments). */
    FILE_MAX_BYTES: z.coerce
      .number("a whole number of bytes")
      .int("a whole number of bytes")
      .min(1024, "at least 1024")
      .max(50 * 1024 * 1024, "at most 52428800 (50 MiB)")
      .default(10 * 1024 * 1024),
    /** Local mode: the port of the sandbox card gateway, started when the operator's top-up payment setting is "sandbox". */
    SANDBOX_GATEWAY_PORT: z.coerce.number("a port number").int("a port number").min(1).max(65535).default(8090),
    // When the sandbox's 4000…0119 charge succeeds by webhook: ms after it, or "never" (only on POST /v1/late-charges/release).
    SANDBOX_LATE_SUCCESS_MS: z
      .union(
        [
          z.literal("never"),
          z.coerce
            .number()
            .int("a whole number of milliseconds")
            .min(0, "0 to 3,600,000 ms, or never")
            .max(3_600_000, "0 to 3,600,000 ms, or never"),
        ],
        "a number of milliseconds (0 to 3,600,000) or never",
      )
      .default(15_000),
    /**
     * The operator's bill-payment gateway (cards and US bank accounts for postpaid bills), independent
     * of the operator's top-up payment setting. Local mode: "sandbox" unless set; production: none
     * unless set (bills then answer 422). A name this server is not wired to answers 503.
     */
    BILL_PAYMENT_GATEWAY: z
      .string()
      .regex(/^[a-z0-9_-]{0,40}$/, "a gateway name like sandbox, or empty for none")
      .optional(),
    // When the sandbox's bank debits (ACH) settle by webhook, and a returned one comes back as long after: ms, or "never" (only on POST /v1/ach/settle).
    SANDBOX_ACH_SETTLE_MS: z
      .union(
        [
          z.literal("never"),
          z.coerce
            .number()
            .int("a whole number of milliseconds")
            .min(0, "0 to 86,400,000 ms, or never")
            .max(86_400_000, "0 to 86,400,000 ms, or never"),
        ],
        "a number of milliseconds (0 to 86,400,000) or never",
      )
      .default(30_000),
    /** The shared secret card gateways sign their webhooks with (HMAC-SHA256). Local mode has a fixed development secret. */
    PAYMENT_WEBHOOK_SECRET: z.string().min(16, "at least 16 characters").optional(),
    /**
     * The number portability exchange (port-ins, issue 28): its base URL. Local mode: the stand-in
     * started beside the backend on PORTING_EXCHANGE_PORT unless set; production: none unless set
     * (port-ins then wait, queued, until one is configured).
     */
    PORTING_EXCHANGE_URL: z.union([z.literal(""), z.url("an http(s):// URL of the exchange")]).default(""),
    /** Local mode: the port of the exchange's stand-in, started when PORTING_EXCHANGE_URL is not set. */
    PORTING_EXCHANGE_PORT: z.coerce.number("a port number").int("a port number").min(1).max(65535).default(8091),
    /** The API key the backend calls the exchange with. Local mode has a fixed development key. */
    PORTING_EXCHANGE_API_KEY: z.string().min(8, "at least 8 characters").optional(),
    /** The shared secret the exchange signs its answers (webhooks) with. Local mode has a fixed development secret. */
    PORTING_WEBHOOK_SECRET: z.string().min(16, "at least 16 characters").optional(),
    /** The stand-in's answer time: how long the losing carrier takes to accept or reject a port. */
    PORTING_DELAY_MS: z.coerce
      .number("a whole number of milliseconds")
      .int("a whole number of milliseconds")
      .min(0, "0 to 3,600,000 ms")
      .max(3_600_000, "0 to 3,600,000 ms")
      .default(5_000),
    CRM_OUTBOX_MAX_ATTEMPTS: z.coerce
      .number("a whole number")
      .int("a whole number")
      .min(1, "at least 1")
      .max(50, "at most 50")
      .default(12),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_READ_URLS.length && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_READ_URLS"],
        message: "needs DATABASE_URL: read replicas are standbys of a PostgreSQL primary, not of PGlite",
      });
    }
    if (env.APP_MODE === "production" && env.FIREBASE_AUTH_EMULATOR_HOST) {
      ctx.addIssue({
        code: "custom",
        path: ["FIREBASE_AUTH_EMULATOR_HOST"],
        message:
          "must not be set in production mode: the Auth emulator's tokens are unsigned and anyone could forge one",
      });
    }
    if (env.BITRIX_INTEGRATION_REQUIRED === "true" && !env.BITRIX_WEBHOOK_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["BITRIX_WEBHOOK_URL"],
        message: "is required when BITRIX_INTEGRATION_REQUIRED is true",
      });
    }
    if (env.APP_MODE === "production" && env.BITRIX_WEBHOOK_URL.startsWith("http:")) {
      ctx.addIssue({
        code: "custom",
        path: ["BITRIX_WEBHOOK_URL"],
        message: "must be https:// in production mode: the URL carries the webhook's secret",
      });
    }
    const trustProxy = parseTrustProxy(env.TRUST_PROXY);
    if ("error" in trustProxy) ctx.addIssue({ code: "custom", path: ["TRUST_PROXY"], message: trustProxy.error });
    if (
      env.APP_MODE === "production" &&
      env.PORTING_EXCHANGE_URL &&
      !(env.PORTING_EXCHANGE_API_KEY && env.PORTING_WEBHOOK_SECRET)
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["PORTING_WEBHOOK_SECRET"],
        message: "and PORTING_EXCHANGE_API_KEY are required in production mode with PORTING_EXCHANGE_URL",
      });
    }
    if (env.APP_MODE === "production" && !env.SECRETS_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["SECRETS_KEY"],
        message: "is required in production mode: the development key is public",
      });
    }
  })
  .transform((env) => ({
    mode: env.APP_MODE,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL || undefined,
    poolSize: env.DATABASE_POOL_SIZE,
    readUrls: env.DATABASE_READ_URLS,
    usageRetentionMonths: env.USAGE_RETENTION_MONTHS,
    usageDailyRetentionMonths: env.USAGE_DAILY_RETENTION_MONTHS,
    dataDir: env.DATA_DIR,
    firebaseProjectId: env.FIREBASE_PROJECT_ID,
    // Local mode always talks to an emulator; 127.0.0.1:9099 unless told otherwise.
    authEmulatorHost: env.APP_MODE === "local" ? env.FIREBASE_AUTH_EMULATOR_HOST || "127.0.0.1:9099" : undefined,
    operator: env.OPERATOR,
    staticDir: env.STATIC_DIR,
    seedDemoData: env.SEED_DEMO_DATA ? env.SEED_DEMO_DATA === "true" : env.APP_MODE === "local",
    logLevel: env.LOG_LEVEL,
    corsOrigins: env.CORS_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    trustProxy: trustedProxiesOf(env.TRUST_PROXY),
    secretsKey: env.SECRETS_KEY ?? (env.APP_MODE === "local" ? LOCAL_SECRETS_KEY : undefined),
    tokenCacheSeconds: env.TOKEN_CACHE_SECONDS,
    ingestApiKeys: env.INGEST_API_KEYS ?? (env.APP_MODE === "local" ? LOCAL_INGEST_KEY : ""),
    minAppVersion: env.MIN_APP_VERSION || undefined,
    files: {
      dir: env.FILES_DIR,
      storageBucket: env.FIREBASE_STORAGE_BUCKET || undefined,
      maxBytes: env.FILE_MAX_BYTES,
    },
    // The sandbox gateway exists for development and tests only: never wired in production mode.
    sandboxGateway:
      env.APP_MODE === "local"
        ? {
            port: env.SANDBOX_GATEWAY_PORT,
            webhookSecret: env.PAYMENT_WEBHOOK_SECRET ?? LOCAL_WEBHOOK_SECRET,
            lateSuccessMs: env.SANDBOX_LATE_SUCCESS_MS === "never" ? null : env.SANDBOX_LATE_SUCCESS_MS,
            achSettleMs: env.SANDBOX_ACH_SETTLE_MS === "never" ? null : env.SANDBOX_ACH_SETTLE_MS,
          }
        : undefined,
    // Local mode without a URL: the stand-in on its port (server/main.ts starts it); production: only when configured.
    portingExchange:
      env.PORTING_EXCHANGE_URL || env.APP_MODE === "local"
        ? {
            url: env.PORTING_EXCHANGE_URL || `http://127.0.0.1:${env.PORTING_EXCHANGE_PORT}`,
            apiKey: env.PORTING_EXCHANGE_API_KEY ?? LOCAL_PORTING_API_KEY,
            webhookSecret: env.PORTING_WEBHOOK_SECRET ?? LOCAL_PORTING_WEBHOOK_SECRET,
          }
        : undefined,
    portingStandIn:
      env.APP_MODE === "local" && !env.PORTING_EXCHANGE_URL
        ? { port: env.PORTING_EXCHANGE_PORT, delayMs: env.PORTING_DELAY_MS }
        : undefined,
    billPaymentGateway: env.BILL_PAYMENT_GATEWAY ?? (env.APP_MODE === "local" ? "sandbox" : ""),
    bitrix:
      env.BITRIX_INTEGRATION_REQUIRED === "true"
        ? { webhookUrl: env.BITRIX_WEBHOOK_URL, maxAttempts: env.CRM_OUTBOX_MAX_ATTEMPTS }
        : undefined,
  }));

/** TRUST_PROXY once validated (the schema refused anything parseTrustProxy does not read). */
function trustedProxiesOf(text: string): TrustedProxies {
  const parsed = parseTrustProxy(text);
  return "value" in parsed ? parsed.value : false;
}

export type ServerConfig = z.output<typeof serverEnvSchema>;

export function loadServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const result = serverEnvSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid server configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
