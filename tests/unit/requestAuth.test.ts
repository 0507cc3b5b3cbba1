import Fastify from "fastify";
import { verbatim } from "../../server/i18n/words";
import { describe, expect, it } from "vitest";
import { authenticateRequest, stillAllowed } from "../../server/auth/requestAuth";
import { createOperatorDirectory, type OperatorDirectory } from "../../server/auth/operatorSettings";
import type { TokenVerifier, VerifiedUser } from "../../server/auth/tokenVerifier";
import { ProblemError, sendProblem } from "../../server/errors";
import type { Db } from "../../server/db/client";

// The /api/v1 hook with a fake verifier (token text = uid) and fake operator settings.
const users: Record<string, Partial<VerifiedUser>> = {
  agent: { role: "agent", operator: "ATT" },
  "agent-2fa": { role: "agent", operator: "ATT", secondFactor: "phone" },
  admin: { role: "admin", operator: "ATT" },
  alex: { role: "subscriber", operator: "ATT" },
  newbie: {},
  "tmo-sub": { role: "subscriber", operator: "TMO" },
};
/** How each request asked for its verification, in order. */
const asked: { token: string; fresh: boolean }[] = [];
const verifier: TokenVerifier = {
  verify(token, options) {
    asked.push({ token, fresh: options?.fresh === true });
    const u = users[token];
    if (!u) return Promise.reject(new ProblemError(401, verbatim("bad token")));
    return Promise.resolve({
      uid: token,
      email: null,
      emailVerified: false,
      phoneNumber: null,
      role: null,
      operator: null,
      secondFactor: null,
      authTime: 1_800_000_000,
      issuedAt: 1_800_000_000,
      signInProvider: "password",
      ...u,
    });
  },
  forgetUser() {},
  forgetAll() {},
  cacheSeconds: 30,
};

function directory(settings: Record<string, Record<string, unknown>>): OperatorDirectory & { reads: number } {
  const d = {
    reads: 0,
    settings(code: string) {
      d.reads++;
      return Promise.resolve(settings[code] ?? null);
    },
    invalidate() {},
    invalidateAll() {},
  };
  return d;
}

async function appWith(operators: OperatorDirectory) {
  const app = Fastify();
  app.setErrorHandler((error, _req, reply) =>
    error instanceof ProblemError
      ? sendProblem(reply, error.status, error.detail, error.errors, error.type, error.headers)
      : reply.send(error),
  );
  app.addHook("onRequest", authenticateRequest(verifier, operators));
  app.get("/lines", () => Promise.resolve({ ok: true }));
  app.get("/me", { config: { allowWithoutRole: true, mfaExempt: true } }, (req) =>
    Promise.resolve({
      role: req.identity.role,
      principal: req.principal ?? null,
    }),
  );
  app.post("/me/claim", { config: { allowWithoutRole: true } }, () => Promise.resolve({ ok: true }));
  app.route({ method: ["PUT", "PATCH", "DELETE"], url: "/lines", handler: () => Promise.resolve({ ok: true }) });
  app.get("/lines/puk", { config: { secret: true } }, () => Promise.resolve({ ok: true }));
  return app;
}

const call = (
  app: Awaited<ReturnType<typeof appWith>>,
  url: string,
  token: string,
  operator = "ATT",
  method: "GET" | "POST" = "GET",
) => app.inject({ method, url, headers: { authorization: `Bearer ${token}`, "x-operator": operator } });

describe("staff MFA policy", () => {
  it("off: staff without a second factor pass", async () => {
    const app = await appWith(directory({ ATT: {} }));
    expect((await call(app, "/lines", "agent")).statusCode).toBe(200);
  });

  it("on: staff without a second factor get /problems/mfa-required except on exempt routes", async () => {
    const app = await appWith(directory({ ATT: { requireStaffMfa: true } }));
    for (const token of ["agent", "admin"]) {
      const res = await call(app, "/lines", token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ type: "/problems/mfa-required", status: 403 });
      expect((await call(app, "/me", token)).statusCode).toBe(200);
      expect((await call(app, "/me/claim", token, "ATT", "POST")).json()).toMatchObject({
        type: "/problems/mfa-required",
      });
    }
    expect((await call(app, "/lines", "agent-2fa")).statusCode).toBe(200);
    expect((await call(app, "/lines", "alex")).statusCode).toBe(200);
  });

  it("only the literal true turns it on", async () => {
    const app = await appWith(directory({ ATT: { requireStaffMfa: "true" } }));
    expect((await call(app, "/lines", "agent")).statusCode).toBe(200);
  });

  it("one settings read a request: whether the operator exists and, for staff, its policy", async () => {
    const d = directory({ ATT: { requireStaffMfa: true } });
    const app = await appWith(d);
    await call(app, "/lines", "alex");
    expect(d.reads).toBe(1);
    await call(app, "/lines", "agent-2fa");
    expect(d.reads).toBe(2);
  });
});

describe("claims naming an operator that does not exist", () => {
  it("are refused at the door with 403 naming it, for reads and writes, with or without a role required", async () => {
    const app = await appWith(directory({ ATT: {} }));
    for (const [method, url] of [
      ["GET", "/lines"],
      ["GET", "/me"],
      ["POST", "/me/claim"],
    ] as const) {
      const res = await call(app, url, "tmo-sub", "TMO", method);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<{ detail: string }>().detail).toMatch(/no operator TMO/);
    }
  });
});

describe("routes that allow a user without a role", () => {
  it("accept a user without claims for a known operator, and set no principal", async () => {
    const app = await appWith(directory({ ATT: {} }));
    const res = await call(app, "/me", "newbie");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ role: null, principal: null });
    expect((await call(app, "/me", "newbie", "ZZZ")).statusCode).toBe(403);
    expect((await call(app, "/lines", "newbie")).statusCode).toBe(403);
  });

  it("claims, when present, must match X-Operator", async () => {
    const app = await appWith(directory({ ATT: {}, TMO: {} }));
    expect((await call(app, "/me", "tmo-sub", "ATT")).statusCode).toBe(403);
    expect((await call(app, "/me", "tmo-sub", "TMO")).statusCode).toBe(200);
  });
});

describe("operator settings cache", () => {
  it("reads once per ttl and again after invalidate", async () => {
    let now = 0;
    let selects = 0;
    const fakeDb = {
      select: () => ({
        from: () => ({
          where: () => ({
            limit: () => {
              selects++;
              return Promise.resolve([{ settings: { requireStaffMfa: true } }]);
            },
          }),
        }),
      }),
    } as unknown as Db;
    const d = createOperatorDirectory(fakeDb, { ttlMs: 3_000, now: () => now });
    await d.settings("ATT");
    await d.settings("ATT");
    expect(selects).toBe(1);
    now = 3_001;
    await d.settings("ATT");
    expect(selects).toBe(2);
    d.invalidate("ATT");
    expect(await d.settings("ATT")).toEqual({ requireStaffMfa: true });
    expect(selects).toBe(3);
  });
});

describe("fresh verification", () => {
  it("writes and routes marked secret are verified with Firebase now; other reads may use the cache", async () => {
    const app = await appWith(directory({ ATT: {} }));
    const freshness = async (method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE", url: string) => {
      asked.length = 0;
      const res = await app.inject({ method, url, headers: { authorization: "Bearer alex", "x-operator": "ATT" } });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      return asked.map((a) => a.fresh);
    };
    expect(await freshness("GET", "/lines")).toEqual([false]);
    expect(await freshness("HEAD", "/lines")).toEqual([false]);
    expect(await freshness("GET", "/lines/puk")).toEqual([true]);
    expect(await freshness("POST", "/me/claim")).toEqual([true]);
    for (const method of ["PUT", "PATCH", "DELETE"] as const) expect(await freshness(method, "/lines")).toEqual([true]);
  });
});

describe("an open session after an access change", () => {
  const user = (token: string) => verifier.verify(token);

  it("ends on a change of its own user, or when changes may have been missed", async () => {
    const d = directory({ ATT: {} });
    expect(await stillAllowed({ kind: "user", uid: "agent" }, await user("agent"), d)).toBe(false);
    expect(await stillAllowed({ kind: "user", uid: "admin" }, await user("agent"), d)).toBe(true);
    expect(await stillAllowed({ kind: "all" }, await user("alex"), d)).toBe(false);
  });

  it("after a policy change, ends only for staff the policy now refuses", async () => {
    const on = directory({ ATT: { requireStaffMfa: true }, TMO: { requireStaffMfa: true } });
    const change = { kind: "operator", operator: "ATT" } as const;
    expect(await stillAllowed(change, await user("agent"), on)).toBe(false);
    expect(await stillAllowed(change, await user("agent-2fa"), on)).toBe(true);
    expect(await stillAllowed(change, await user("alex"), on)).toBe(true);
    expect(await stillAllowed({ kind: "operator", operator: "TMO" }, await user("agent"), on)).toBe(true);
    expect(await stillAllowed(change, await user("agent"), directory({ ATT: {} }))).toBe(true);
  });
});
