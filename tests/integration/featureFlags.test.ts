import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX, TAYLOR } from "../support/fixtures";

// The backend applies the same Remote Config flags as the portal: here (no internet, the repo's
// template, no live load) exactly the in-code defaults.
let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend?.close();
});

describe("GET /api/v1/feature-flags", () => {
  it.each([
    [ALEX, "ATT"],
    [ADMIN, "ATT"],
    [TAYLOR, "TMO"],
  ])("%s sees the defaults from the repo's template", async (as, operator) => {
    const res = await backend.get("/api/v1/feature-flags", { as, operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ flags: FEATURE_FLAG_DEFAULTS, source: "repo-template" });
  });

  it("answers 401 without a token and 403 for another operator's user", async () => {
    expect((await backend.send("GET", "/api/v1/feature-flags")).statusCode).toBe(401);
    expect((await backend.get("/api/v1/feature-flags", { as: TAYLOR, operator: "ATT" })).statusCode).toBe(403);
  });
});
