import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/resources/api";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX } from "../support/fixtures";

// MIN_APP_VERSION: a portal older than the backend's minimum gets 426 (problem+json naming the header)
// on every API path, signed in or not; the current one and callers without the header go through.
let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend({ minAppVersion: "3.2.1" });
});
afterAll(async () => {
  await backend?.close();
});

describe("minimum app version", () => {
  it.each(["3.2.0", "2.9.9", "garbage"])(
    "X-App-Version %s gets 426 upgrade-required, before any other check",
    async (version) => {
      // Without a token too: the old portal must learn to reload before it learns anything else.
      for (const as of [ALEX, undefined]) {
        const res = await backend.send("GET", "/api/v1/lines", { as, headers: { "x-app-version": version } });
        expect(res.statusCode, res.body).toBe(426);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(res.headers["x-min-app-version"]).toBe("3.2.1");
        const problem = res.json<{ type: string; status: number; detail: string; errors: { path: string }[] }>();
        expect(problem.type).toBe(PROBLEM_TYPES.upgradeRequired);
        expect(problem.status).toBe(426);
        expect(problem.detail).toMatch(/reload/);
        expect(problem.errors.map((e) => e.path)).toEqual(["headers.x-app-version"]);
      }
    },
  );

  it("the same or a newer version is served as before", async () => {
    for (const version of ["3.2.1", "3.10.0"]) {
      const res = await backend.send("GET", "/api/v1/lines", { as: ALEX, headers: { "x-app-version": version } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it("a write from an old portal changes nothing", async () => {
    const before = (await backend.get("/api/v1/notifications", { as: ALEX })).json<{ total: number }>();
    const res = await backend.send("POST", "/api/v1/me/sign-out-everywhere", {
      as: ALEX,
      headers: { "x-app-version": "1.0.0" },
    });
    expect(res.statusCode).toBe(426);
    // Still signed in: the sign-out did not run.
    const after = await backend.get("/api/v1/notifications", { as: ALEX });
    expect(after.statusCode).toBe(200);
    expect(after.json<{ total: number }>().total).toBe(before.total);
  });

  it("callers that send no version (health checks, machines) are not portals and pass", async () => {
    const res = await backend.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    const old = await backend.app.inject({ method: "GET", url: "/api/health", headers: { "x-app-version": "1.0.0" } });
    expect(old.statusCode).toBe(426);
  });

  it("without MIN_APP_VERSION any version is served", async () => {
    const open = await backend.startAnotherInstance();
    const res = await open.send("GET", "/api/v1/lines", { as: ALEX, headers: { "x-app-version": "0.0.1" } });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe("the backend refuses to start with a bad switch, naming it", () => {
  it.each([
    [{ MIN_APP_VERSION: "three" }, /MIN_APP_VERSION: a version like 3.2.1/],
    [
      { BITRIX_INTEGRATION_REQUIRED: "true" },
      /BITRIX_WEBHOOK_URL: is required when BITRIX_INTEGRATION_REQUIRED is true/,
    ],
  ])("%j", (env, message) => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: { ...process.env, DATA_DIR: "memory://", PORT: "0", ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Invalid server configuration:/m);
    expect(run.stderr).toMatch(message);
  });
});
