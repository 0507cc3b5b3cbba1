import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightMyRequestResponse } from "fastify";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX, SAM } from "../support/fixtures";

// Every authenticated answer says Cache-Control: no-store (issue 26, item 8): a subscriber's lines or
// an agent's search must not stay in a shared proxy or the browser's disk cache. Operations come from
// the OpenAPI document, so a route added later is checked without editing this file.

let backend: TestBackend;
let gets: string[];

beforeAll(async () => {
  backend = await startTestBackend();
  const document = (await backend.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
    paths: Record<string, Record<string, { parameters?: { in: string; required?: boolean }[] }>>;
  }>();
  // Every GET under /api/v1 that needs no path parameter and no required query parameter.
  gets = Object.entries(document.paths)
    .filter(
      ([path, operations]) =>
        path.startsWith("/api/v1/") &&
        !path.includes("{") &&
        operations.get &&
        !(operations.get.parameters ?? []).some((p) => p.in === "query" && p.required),
    )
    .map(([path]) => path);
});

afterAll(async () => {
  await backend?.close();
});

const noStore = (res: LightMyRequestResponse, what: string) =>
  expect(String(res.headers["cache-control"]), `${what}: ${res.statusCode}`).toMatch(/\bno-store\b/);

describe("Cache-Control of authenticated answers", () => {
  it("every GET of /api/v1 the document lists says no-store, to an admin and to a subscriber", async () => {
    expect(gets).toContain("/api/v1/lines");
    expect(gets.length).toBeGreaterThan(20);
    // The live channel never ends by itself; its headers are checked in liveEvents.test.ts.
    for (const path of gets.filter((p) => p !== "/api/v1/live")) {
      for (const as of [ADMIN, ALEX]) noStore(await backend.get(path, { as }), `GET ${path} as ${as}`);
    }
  });

  it("a record, a list with a search, a write and its refusals say no-store too", async () => {
    const lines = await backend.get("/api/v1/lines?q=0101", { as: ALEX });
    expect(lines.statusCode).toBe(200);
    noStore(lines, "a search");
    const line = lines.json<{ data: { id: string }[] }>().data[0]!;
    noStore(await backend.get(`/api/v1/lines/${line.id}`, { as: ALEX }), "a record");
    noStore(await backend.get(`/api/v1/lines/${line.id}`, { as: SAM }), "another's record (404)");
    noStore(await backend.get("/api/v1/lines"), "no token (401)");
    noStore(await backend.get("/api/v1/lines?pageSize=1000", { as: ALEX }), "a bad query (400)");
    noStore(
      await backend.send("PATCH", "/api/v1/me/profile", { as: ALEX, body: { displayName: 7 } }),
      "a refused write",
    );
    noStore(
      await backend.app.inject({ method: "GET", url: "/api/v1/nothing-here", headers: { authorization: "Bearer x" } }),
      "an unknown route",
    );
  });
});
