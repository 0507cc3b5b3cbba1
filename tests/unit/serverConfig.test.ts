const KEY = Buffer.alloc(32, 7).toString("base64");
import { describe, expect, it } from "vitest";
import { loadServerConfig } from "../../server/config";
import { parsePortalEnv } from "../../src/config/env";

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
    const config = loadServerConfig({ APP_MODE: "production", FIREBASE_PROJECT_ID: "att-portal-prod", DATABASE_URL: "postgresql://db/portal", SECRETS_KEY: KEY });
    expect(config.mode).toBe("production");
    expect(config.authEmulatorHost).toBeUndefined();
    expect(config.seedDemoData).toBe(false);
    expect(config.firebaseProjectId).toBe("att-portal-prod");
  });

  it("an empty FIREBASE_AUTH_EMULATOR_HOST counts as unset in production", () => {
    expect(loadServerConfig({ APP_MODE: "production", FIREBASE_AUTH_EMULATOR_HOST: "", SECRETS_KEY: KEY }).authEmulatorHost).toBeUndefined();
  });

  it("production mode needs its own SECRETS_KEY (the development key is public), 32 bytes of base64", () => {
    expect(() => loadServerConfig({ APP_MODE: "production" })).toThrow(/SECRETS_KEY: is required in production mode/);
    expect(() => loadServerConfig({ APP_MODE: "production", SECRETS_KEY: "c2hvcnQ=" })).toThrow(/SECRETS_KEY: 32 random bytes/);
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
  ])("%s=%j is rejected and named", (name, value) => {
    expect(() => loadServerConfig({ [name]: value })).toThrow(new RegExp(`^Invalid server configuration:[\\s\\S]*\\b${name}:`));
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
    const env = parsePortalEnv({ VITE_OPERATOR: "TMO", VITE_API_URL: "https://api.example.com", VITE_BITRIX_INTEGRATION_REQUIRED: "true" });
    expect(env.VITE_OPERATOR).toBe("TMO");
    expect(env.VITE_API_URL).toBe("https://api.example.com");
    expect(env.VITE_BITRIX_INTEGRATION_REQUIRED).toBe(true);
  });

  it.each(["att", "A", "AT&T", "TOOLONGCODE"])("VITE_OPERATOR=%j is rejected and named", (value) => {
    expect(() => parsePortalEnv({ VITE_OPERATOR: value })).toThrow(/Invalid portal configuration:[\s\S]*VITE_OPERATOR: a carrier code like ATT/);
  });

  it.each(["not a url", "api.example.com"])("VITE_API_URL=%j is rejected and named", (value) => {
    expect(() => parsePortalEnv({ VITE_API_URL: value })).toThrow(/Invalid portal configuration:[\s\S]*VITE_API_URL:/);
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
