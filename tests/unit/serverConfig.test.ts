const KEY = Buffer.alloc(32, 7).toString("base64");
import { describe, expect, it } from "vitest";
import { loadServerConfig } from "../../server/config";
import { parsePortalEnv } from "../../src/config/env";
import { loadPortalEnv } from "../../scripts/vite/portalEnv";

/** Every operator switch of the portal with a well-formed value (local HTTP allowed for scripts). */
const ALL_PORTAL_SWITCHES = {
  VITE_MAPS_PLACES_KEY: "AIzaSyExampleKey_123",
  VITE_CRM_CHAT_SCRIPT_URL: "https://chat.crm.example/widget.js",
  VITE_CRM_TRACKER_URL: "http://127.0.0.1:4100/tracker.js",
  VITE_CHAT_ACCESS_KEY: "site-key-42",
  VITE_TAG_MANAGER_ID: "GTM-ABC123",
  VITE_ANALYTICS_IDS: "G-XYZ789,AW-1234567",
  VITE_TAG_SCRIPT_ORIGIN: "https://tags.att.example",
  VITE_TOPUP_PAYMENT_SETTING: "",
  VITE_BITRIX_INTEGRATION_REQUIRED: "true",
};

describe("loadServerConfig", () => {
  it("defaults to local mode: emulator on 127.0.0.1:9099, embedded PGlite, demo data seeded", () => {
    const config = loadServerConfig({});
    expect(config).toMatchObject({
      mode: "local",
      host: "127.0.0.1",
      port: 8080,
      databaseUrl: undefined,
      dataDir: ".data/pglite",
      firebaseProjectId: "demo-att-portal",
      authEmulatorHost: "127.0.0.1:9099",
      operator: "ATT",
      seedDemoData: true,
      logLevel: "info",
      corsOrigins: [],
      tokenCacheSeconds: 30,
    });
  });

  it("TOKEN_CACHE_SECONDS: 0 turns the cache off; up to 300 seconds", () => {
    expect(loadServerConfig({ TOKEN_CACHE_SECONDS: "0" }).tokenCacheSeconds).toBe(0);
    expect(loadServerConfig({ TOKEN_CACHE_SECONDS: "300" }).tokenCacheSeconds).toBe(300);
  });

  it("DATABASE_POOL_SIZE: 10 connections unless told, 2 to 500", () => {
    expect(loadServerConfig({}).poolSize).toBe(10);
    expect(loadServerConfig({ DATABASE_POOL_SIZE: "40" }).poolSize).toBe(40);
  });

  it("USAGE_RETENTION_MONTHS: 13 months of raw usage unless told", () => {
    expect(loadServerConfig({}).usageRetentionMonths).toBe(13);
    expect(loadServerConfig({ USAGE_RETENTION_MONTHS: "25" }).usageRetentionMonths).toBe(25);
    expect(loadServerConfig({}).usageDailyRetentionMonths).toBe(25);
    expect(loadServerConfig({ USAGE_DAILY_RETENTION_MONTHS: "37" }).usageDailyRetentionMonths).toBe(37);
  });

  it("DATABASE_READ_URLS: none unless told; comma-separated postgres:// standbys of DATABASE_URL's primary", () => {
    expect(loadServerConfig({}).readUrls).toEqual([]);
    const primary = { DATABASE_URL: "postgres://portal@db-primary:5432/portal" };
    expect(
      loadServerConfig({
        ...primary,
        DATABASE_READ_URLS: " postgres://portal@db-replica-1/portal, postgresql://portal@db-replica-2/portal ,",
      }).readUrls,
    ).toEqual(["postgres://portal@db-replica-1/portal", "postgresql://portal@db-replica-2/portal"]);
    expect(() => loadServerConfig({ ...primary, DATABASE_READ_URLS: "db-replica-1:5432" })).toThrow(
      /DATABASE_READ_URLS\.0: postgres:\/\/ URLs, separated by commas/,
    );
    // PGlite has no standbys.
    expect(() => loadServerConfig({ DATABASE_READ_URLS: "postgres://portal@db-replica-1/portal" })).toThrow(
      /DATABASE_READ_URLS: needs DATABASE_URL/,
    );
  });

  it("TRUST_PROXY: never every entry; true is one hop, a number is hops, else proxy addresses and CIDRs", () => {
    const trust = (TRUST_PROXY?: string) =>
      loadServerConfig(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).trustProxy;
    expect([trust(), trust("false"), trust(""), trust("0")]).toEqual([false, false, false, false]);
    expect([trust("true"), trust("1"), trust("3")]).toEqual([1, 1, 3]);
    expect(trust("10.0.0.0/8, 127.0.0.1,::1, fd00::/8,loopback")).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
    for (const bad of ["yes", "10.0.0.0/33", "10.0.0.300", "proxy.example", "11", "10.0.0.1/8/1"]) {
      expect(() => loadServerConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it("local mode uses the emulator host and port it is given", () => {
    const config = loadServerConfig({ APP_MODE: "local", FIREBASE_AUTH_EMULATOR_HOST: "localhost:9199", PORT: "0" });
    expect(config.authEmulatorHost).toBe("localhost:9199");
    expect(config.port).toBe(0);
  });

  it("local mode can turn seeding off and takes a PostgreSQL URL and CORS origins", () => {
    const config = loadServerConfig({
      SEED_DEMO_DATA: "false",
      DATABASE_URL: "postgres://u@db:5432/portal",
      CORS_ORIGINS: " http://a.example , ,http://b.example",
    });
    expect(config.seedDemoData).toBe(false);
    expect(config.databaseUrl).toBe("postgres://u@db:5432/portal");
    expect(config.corsOrigins).toEqual(["http://a.example", "http://b.example"]);
  });

  it("production mode refuses FIREBASE_AUTH_EMULATOR_HOST and names it", () => {
    expect(() => loadServerConfig({ APP_MODE: "production", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST: must not be set in production/,
    );
  });

  it("production mode without it has no emulator host and seeds nothing", () => {
    const config = loadServerConfig({
      APP_MODE: "production",
      FIREBASE_PROJECT_ID: "att-portal-prod",
      DATABASE_URL: "postgresql://db/portal",
      SECRETS_KEY: KEY,
    });
    expect(config.mode).toBe("production");
    expect(config.authEmulatorHost).toBeUndefined();
    expect(config.seedDemoData).toBe(false);
    expect(config.firebaseProjectId).toBe("att-portal-prod");
  });

  it("an empty FIREBASE_AUTH_EMULATOR_HOST counts as unset in production", () => {
    expect(
      loadServerConfig({ APP_MODE: "production", FIREBASE_AUTH_EMULATOR_HOST: "", SECRETS_KEY: KEY }).authEmulatorHost,
    ).toBeUndefined();
  });

  it("production mode needs its own SECRETS_KEY (the development key is public), 32 bytes of base64", () => {
    expect(() => loadServerConfig({ APP_MODE: "production" })).toThrow(/SECRETS_KEY: is required in production mode/);
    expect(() => loadServerConfig({ APP_MODE: "production", SECRETS_KEY: "c2hvcnQ=" })).toThrow(
      /SECRETS_KEY: 32 random bytes/,
    );
    expect(loadServerConfig({ APP_MODE: "production", SECRETS_KEY: KEY }).secretsKey).toBe(KEY);
    expect(loadServerConfig({}).secretsKey).toBeTruthy();
  });

  it.each(["abc", "-1", "65536", "80.5"])("PORT=%j is rejected and named", (port) => {
    expect(() => loadServerConfig({ PORT: port })).toThrow(/Invalid server configuration:[\s\S]*PORT/);
  });

  it.each([
    ["APP_MODE", "staging"],
    ["DATABASE_URL", "mysql://db/portal"],
    ["OPERATOR", "att"],
    ["LOG_LEVEL", "verbose"],
    ["SEED_DEMO_DATA", "yes"],
    ["TOKEN_CACHE_SECONDS", "-1"],
    ["TOKEN_CACHE_SECONDS", "2.5"],
    ["TOKEN_CACHE_SECONDS", "301"],
    ["TOKEN_CACHE_SECONDS", "soon"],
    ["DATABASE_POOL_SIZE", "1"],
    ["DATABASE_POOL_SIZE", "501"],
    ["DATABASE_POOL_SIZE", "many"],
    ["USAGE_RETENTION_MONTHS", "1"],
    ["USAGE_RETENTION_MONTHS", "13.5"],
    ["USAGE_RETENTION_MONTHS", "forever"],
  ])("%s=%j is rejected and named", (name, value) => {
    expect(() => loadServerConfig({ [name]: value })).toThrow(
      new RegExp(`^Invalid server configuration:[\\s\\S]*\\b${name}:`),
    );
  });
});

describe("loadServerConfig: the operator's switches", () => {
  it("by default: any app version, Bitrix off", () => {
    const config = loadServerConfig({});
    expect(config.minAppVersion).toBeUndefined();
    expect(config.bitrix).toBeUndefined();
  });

  it("MIN_APP_VERSION and the Bitrix webhook with its retry limit", () => {
    const config = loadServerConfig({
      MIN_APP_VERSION: "3.2.0",
      BITRIX_INTEGRATION_REQUIRED: "true",
      BITRIX_WEBHOOK_URL: "https://att.bitrix24.com/rest/1/secret/",
      CRM_OUTBOX_MAX_ATTEMPTS: "5",
    });
    expect(config.minAppVersion).toBe("3.2.0");
    expect(config.bitrix).toEqual({ webhookUrl: "https://att.bitrix24.com/rest/1/secret/", maxAttempts: 5 });
  });

  it("the sandbox's late capture: 15 s by default, a number of ms, or never (only when released)", () => {
    expect(loadServerConfig({}).sandboxGateway?.lateSuccessMs).toBe(15_000);
    expect(loadServerConfig({ SANDBOX_LATE_SUCCESS_MS: "500" }).sandboxGateway?.lateSuccessMs).toBe(500);
    expect(loadServerConfig({ SANDBOX_LATE_SUCCESS_MS: "never" }).sandboxGateway?.lateSuccessMs).toBeNull();
  });

  it("a webhook without the flag sends nothing: the flag decides", () => {
    expect(loadServerConfig({ BITRIX_WEBHOOK_URL: "https://att.bitrix24.com/rest/1/secret/" }).bitrix).toBeUndefined();
  });

  it.each([
    [{ MIN_APP_VERSION: "3.2" }, "MIN_APP_VERSION", /a version like 3.2.1/],
    [{ MIN_APP_VERSION: "v3.2.1" }, "MIN_APP_VERSION", /a version like 3.2.1/],
    [{ BITRIX_INTEGRATION_REQUIRED: "yes" }, "BITRIX_INTEGRATION_REQUIRED", /true or false/],
    [
      { BITRIX_INTEGRATION_REQUIRED: "true" },
      "BITRIX_WEBHOOK_URL",
      /required when BITRIX_INTEGRATION_REQUIRED is true/,
    ],
    [{ BITRIX_WEBHOOK_URL: "bitrix24" }, "BITRIX_WEBHOOK_URL", /https:\/\/ URL/],
    [
      { APP_MODE: "production", SECRETS_KEY: KEY, BITRIX_WEBHOOK_URL: "http://att.bitrix24.com/rest/1/s/" },
      "BITRIX_WEBHOOK_URL",
      /must be https/,
    ],
    [{ CRM_OUTBOX_MAX_ATTEMPTS: "0" }, "CRM_OUTBOX_MAX_ATTEMPTS", /at least 1/],
    [{ CRM_OUTBOX_MAX_ATTEMPTS: "many" }, "CRM_OUTBOX_MAX_ATTEMPTS", /a whole number/],
    [{ SANDBOX_LATE_SUCCESS_MS: "soon" }, "SANDBOX_LATE_SUCCESS_MS", /milliseconds \(0 to 3,600,000\) or never/],
    [{ SANDBOX_LATE_SUCCESS_MS: "-1" }, "SANDBOX_LATE_SUCCESS_MS", /0 to 3,600,000/],
  ])("%j stops the start with a message naming %s", (env, name, why) => {
    const start = () => loadServerConfig(env);
    expect(start).toThrow(new RegExp(`^Invalid server configuration:[\\s\\S]*\\b${name}: `));
    expect(start).toThrow(why);
  });
});

describe("parsePortalEnv", () => {
  it("defaults to the ATT build against the local emulator and same-origin API", () => {
    const env = parsePortalEnv({});
    expect(env).toMatchObject({
      VITE_OPERATOR: "ATT",
      VITE_API_URL: "",
      VITE_FIREBASE_PROJECT_ID: "demo-att-portal",
      VITE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      VITE_BITRIX_INTEGRATION_REQUIRED: false,
    });
  });

  it("accepts another operator, an API origin and flags", () => {
    const env = parsePortalEnv({
      VITE_OPERATOR: "TMO",
      VITE_API_URL: "https://api.example.com",
      VITE_BITRIX_INTEGRATION_REQUIRED: "true",
    });
    expect(env.VITE_OPERATOR).toBe("TMO");
    expect(env.VITE_API_URL).toBe("https://api.example.com");
    expect(env.VITE_BITRIX_INTEGRATION_REQUIRED).toBe(true);
  });

  it.each(["att", "A", "AT&T", "TOOLONGCODE"])("VITE_OPERATOR=%j is rejected and named", (value) => {
    expect(() => parsePortalEnv({ VITE_OPERATOR: value })).toThrow(
      /Invalid portal configuration:[\s\S]*VITE_OPERATOR: a carrier code like ATT/,
    );
  });

  it.each(["not a url", "api.example.com"])("VITE_API_URL=%j is rejected and named", (value) => {
    expect(() => parsePortalEnv({ VITE_API_URL: value })).toThrow(/Invalid portal configuration:[\s\S]*VITE_API_URL:/);
  });

  it("accepts every operator switch set to a well-formed value", () => {
    const env = parsePortalEnv(ALL_PORTAL_SWITCHES);
    expect(env.VITE_ANALYTICS_IDS).toBe("G-XYZ789,AW-1234567");
    expect(env.VITE_CRM_CHAT_SCRIPT_URL).toBe("https://chat.crm.example/widget.js");
  });

  it.each([
    ["VITE_TAG_MANAGER_ID", "UA-12345", /a container id like GTM-ABC123/],
    ["VITE_ANALYTICS_IDS", "G-XYZ789;G-OTHER1", /comma-separated ids/],
    ["VITE_ANALYTICS_IDS", "G-XYZ789,", /comma-separated ids/],
    ["VITE_CRM_CHAT_SCRIPT_URL", "http://chat.crm.example/widget.js", /https:\/\/ URL/],
    ["VITE_CRM_TRACKER_URL", "javascript:alert(1)", /https:\/\/ URL/],
    ["VITE_TAG_SCRIPT_ORIGIN", "ftp://tags.example", /https:\/\/ URL/],
    ["VITE_CHAT_ACCESS_KEY", "key with spaces", /letters, digits/],
    ["VITE_MAPS_PLACES_KEY", "short", /an API key/],
    ["VITE_BITRIX_INTEGRATION_REQUIRED", "yes", /VITE_BITRIX_INTEGRATION_REQUIRED:/],
  ])("%s=%j stops the build with a message naming it", (name, value, why) => {
    const attempt = () => parsePortalEnv({ ...ALL_PORTAL_SWITCHES, [name]: value });
    expect(attempt).toThrow(new RegExp(`^Invalid portal configuration:\\n  ${name}: `));
    expect(attempt).toThrow(why);
  });

  it("the build reads the environment through the same schema (vite.config.ts calls loadPortalEnv)", () => {
    const saved = process.env.VITE_TAG_MANAGER_ID;
    process.env.VITE_TAG_MANAGER_ID = "gtm-lowercase";
    try {
      expect(() => loadPortalEnv("production")).toThrow(/VITE_TAG_MANAGER_ID: a container id/);
    } finally {
      if (saved === undefined) delete process.env.VITE_TAG_MANAGER_ID;
      else process.env.VITE_TAG_MANAGER_ID = saved;
    }
  });

  it("names every bad variable at once", () => {
    let message = "";
    try {
      parsePortalEnv({ VITE_OPERATOR: "x", VITE_API_URL: "nope", VITE_AUTH_EMULATOR_HOST: "localhost" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/VITE_OPERATOR:/);
    expect(message).toMatch(/VITE_API_URL:/);
    expect(message).toMatch(/VITE_AUTH_EMULATOR_HOST: host:port/);
  });
});
