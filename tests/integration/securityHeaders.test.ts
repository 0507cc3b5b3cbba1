import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECURITY_POLICY_FILE } from "../../src/config/contentSecurityPolicy";
import {
  API_CONTENT_SECURITY_POLICY,
  PERMISSIONS_POLICY,
  STRICT_TRANSPORT_SECURITY,
} from "../../server/securityHeaders";
import { readPortalBuild } from "../../server/static";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX } from "../support/fixtures";

// Every response of the real backend carries the security headers: the portal's HTML with the
// policy its build wrote, everything else (assets, API answers, problems, 404s) with a policy that
// allows nothing. HSTS only in production mode.

/** A stand-in for the build's own policy: the test checks that this exact text is what the HTML gets. */
const PORTAL_POLICY = "default-src 'self'; script-src 'self' 'sha256-test'; frame-ancestors 'none'";

/** A built portal in miniature: index.html, one hashed asset and the build's policy file. */
function fakeBuild(withPolicy = true): string {
  const dir = mkdtempSync(join(tmpdir(), "portal-build-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>Portal</title><div id=root></div>");
  writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log('portal');");
  if (withPolicy)
    writeFileSync(join(dir, SECURITY_POLICY_FILE), JSON.stringify({ contentSecurityPolicy: PORTAL_POLICY }));
  return dir;
}

function expectCommonHeaders(res: LightMyRequestResponse, what: string) {
  expect(res.headers["x-content-type-options"], what).toBe("nosniff");
  expect(res.headers["x-frame-options"], what).toBe("DENY");
  expect(res.headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  expect(res.headers["permissions-policy"], what).toBe(PERMISSIONS_POLICY);
}

const build = fakeBuild();
const builds = [build];
let local: TestBackend;
let production: TestBackend;

beforeAll(async () => {
  local = await startTestBackend({ staticDir: build });
  production = await startTestBackend({ staticDir: build, strictTransportSecurity: true });
});
afterAll(async () => {
  await local?.close();
  await production?.close();
  for (const dir of builds) rmSync(dir, { recursive: true, force: true });
});

/** Each kind of response the backend gives, as a request and what it must answer. */
const responses: {
  what: string;
  send: (b: TestBackend) => Promise<LightMyRequestResponse>;
  status: number;
  html: boolean;
}[] = [
  {
    what: "the portal at /login (a client route)",
    send: (b) => b.app.inject({ method: "GET", url: "/login" }),
    status: 200,
    html: true,
  },
  { what: "the portal at / ", send: (b) => b.app.inject({ method: "GET", url: "/" }), status: 200, html: true },
  {
    what: "index.html itself",
    send: (b) => b.app.inject({ method: "GET", url: "/index.html" }),
    status: 200,
    html: true,
  },
  {
    what: "a HEAD of a client route",
    send: (b) => b.app.inject({ method: "HEAD", url: "/lines" }),
    status: 200,
    html: true,
  },
  {
    what: "a hashed asset",
    send: (b) => b.app.inject({ method: "GET", url: "/assets/index-abc123.js" }),
    status: 200,
    html: false,
  },
  {
    what: "a missing asset (404)",
    send: (b) => b.app.inject({ method: "GET", url: "/assets/index-gone.js" }),
    status: 404,
    html: false,
  },
  { what: "health", send: (b) => b.app.inject({ method: "GET", url: "/api/health" }), status: 200, html: false },
  { what: "OpenAPI", send: (b) => b.app.inject({ method: "GET", url: "/api/openapi.json" }), status: 200, html: false },
  { what: "an API list", send: (b) => b.get("/api/v1/lines", { as: ALEX }), status: 200, html: false },
  { what: "an API call without a token (401)", send: (b) => b.get("/api/v1/lines"), status: 401, html: false },
  {
    what: "an invalid query (400)",
    send: (b) => b.get("/api/v1/lines?pageSize=1000", { as: ALEX }),
    status: 400,
    html: false,
  },
  {
    what: "an unknown API route (404)",
    send: (b) => b.app.inject({ method: "POST", url: "/api/v1/nothing-here" }),
    status: 404,
    html: false,
  },
  {
    what: "a URL that cannot be decoded",
    send: (b) => b.app.inject({ method: "GET", url: "/api/v1/lines/%E0%A4%A" }),
    status: 400,
    html: false,
  },
  {
    what: "a body that is not JSON (400)",
    send: (b) =>
      b.send("POST", "/api/v1/device-claims", {
        as: ALEX,
        headers: { "content-type": "application/json" },
        body: "{not json",
      }),
    status: 400,
    html: false,
  },
];

describe.each([
  { mode: "local", backend: () => local, hsts: false },
  { mode: "production", backend: () => production, hsts: true },
])("in $mode mode", ({ backend, hsts }) => {
  it.each(responses)("$what carries the security headers", async ({ what, send, status, html }) => {
    const res = await send(backend());
    expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBe(status);
    expect(String(res.headers["content-type"]).startsWith("text/html"), what).toBe(html);
    expect(res.headers["content-security-policy"], what).toBe(html ? PORTAL_POLICY : API_CONTENT_SECURITY_POLICY);
    expectCommonHeaders(res, what);
    expect(res.headers["strict-transport-security"], what).toBe(hsts ? STRICT_TRANSPORT_SECURITY : undefined);
    if (status >= 400) expect(res.headers["content-type"], what).toMatch(/^application\/problem\+json/);
  });
});

it("a build without its policy file is refused, naming the file", () => {
  const incomplete = fakeBuild(false);
  builds.push(incomplete);
  expect(() => readPortalBuild(incomplete)).toThrow(SECURITY_POLICY_FILE);
});

/** Bytes sent as they are over a socket of their own (node:http refuses to send such requests); the whole answer, parsed. */
function sendBytes(
  port: number,
  bytes: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
  });
}

describe("requests Node's parser refuses before Fastify sees them (issue 26, item 8)", () => {
  let port: number;
  beforeAll(async () => {
    await production.app.listen({ host: "127.0.0.1", port: 0 });
    port = (production.app.server.address() as { port: number }).port;
  });

  it.each([
    {
      what: "a NUL in a header",
      bytes: Buffer.from("GET /api/v1/lines HTTP/1.1\r\nHost: x\r\nX-Operator: AT\0T\r\n\r\n", "latin1"),
    },
    {
      what: "a raw 0xFF in the path",
      bytes: Buffer.concat([
        Buffer.from("GET /api/v1/lines/", "latin1"),
        Buffer.from([0xff]),
        Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"),
      ]),
    },
  ])("$what: a 400 problem with the same security headers as every other answer", async ({ what, bytes }) => {
    const res = await sendBytes(port, bytes);
    expect(res.status, what).toBe(400);
    expect(res.headers["content-type"], what).toMatch(/^application\/problem\+json/);
    expect(res.headers["content-security-policy"], what).toBe(API_CONTENT_SECURITY_POLICY);
    expect(res.headers["x-content-type-options"], what).toBe("nosniff");
    expect(res.headers["x-frame-options"], what).toBe("DENY");
    expect(res.headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
    expect(res.headers["permissions-policy"], what).toBe(PERMISSIONS_POLICY);
    expect(res.headers["strict-transport-security"], what).toBe(STRICT_TRANSPORT_SECURITY);
    expect(res.headers["cache-control"], what).toBe("no-store");
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, detail: "The request is not valid HTTP." });
  });
});
