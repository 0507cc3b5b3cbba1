import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { isValidPhoneNumber } from "libphonenumber-js/min";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/resources/auditEvents";
import type { Me } from "../../src/resources/identity";
import { accounts, operators } from "../../server/db/schema";
import { EMULATOR_HOST } from "../support/authEmulator";
import {
  signInWithPassword,
  signInWithSecondFactor,
  signUpWithPassword,
  startTestBackend,
  type TestBackend,
} from "../support/testBackend";
import { ALEX, AGENT, ADMIN, TAYLOR, TMO_AGENT, TMO_ADMIN } from "../support/fixtures";
import { expectProblem } from "../support/problems";

// Identity and account security against the real database (TEST_DB) and the real Auth emulator.
// Demo users are shared with every other suite running at the same time, so nothing here revokes,
// disables or changes the claims of a demo user: those flows use throwaway users.
const PASSWORD = "Throwaway-2026!";

let backend: TestBackend;
const created: string[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freshEmail = (tag: string) => `${tag}-${randomUUID()}@example.test`;

const paths = (problem: { errors?: { path: string }[] }) => problem.errors?.map((e) => e.path) ?? [];

/** A user who signed up through the emulator (no claims), tracked for clean-up. */
async function signUp(tag: string) {
  const email = freshEmail(tag);
  const { uid, idToken } = await signUpWithPassword(email, PASSWORD);
  created.push(uid);
  return { uid, email, token: idToken };
}

/** A throwaway user made with firebase-admin, with claims. */
async function adminMade(
  tag: string,
  claims: Record<string, string>,
  extra: { phoneNumber?: string; mfaPhone?: string } = {},
) {
  const email = freshEmail(tag);
  const user = await backend.auth.createUser({
    email,
    password: PASSWORD,
    emailVerified: true,
    ...(extra.phoneNumber ? { phoneNumber: extra.phoneNumber } : {}),
    ...(extra.mfaPhone
      ? { multiFactor: { enrolledFactors: [{ factorId: "phone", phoneNumber: extra.mfaPhone }] } }
      : {}),
  });
  created.push(user.uid);
  await backend.auth.setCustomUserClaims(user.uid, claims);
  return { uid: user.uid, email };
}

async function auditEvents(query: string, as = ADMIN, operator?: string) {
  const res = await backend.get(`/api/v1/audit-events?${query}`, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AuditEvent[]; total: number }>();
}

/**
 * A Google sign-in through the emulator's signInWithIdp, which takes Google's identity as an
 * unsigned ID token. (The portal's Google popup and redirect also need Google's gapi script from
 * apis.google.com, which cannot load on this network.)
 */
async function googleSignIn(sub: string, email: string): Promise<{ idToken: string; localId: string }> {
  const res = await fetch(
    `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        postBody: `id_token=${encodeURIComponent(JSON.stringify({ sub, email, email_verified: true, name: "Gia Google" }))}&providerId=google.com`,
        requestUri: "http://localhost",
        returnSecureToken: true,
      }),
    },
  );
  const body = (await res.json()) as {
    idToken?: string;
    localId?: string;
    providerId?: string;
    error?: { message: string };
  };
  expect(body.providerId, body.error?.message).toBe("google.com");
  return { idToken: body.idToken!, localId: body.localId! };
}

async function insertAccount(values: { operatorCode?: string; email?: string | null; phone?: string | null }) {
  const [row] = await backend.database.db
    .insert(accounts)
    .values({
      operatorCode: values.operatorCode ?? "ATT",
      ownerUid: null,
      name: "Unclaimed Holder",
      email: values.email ?? null,
      phone: values.phone ?? null,
      type: "prepaid",
    })
    .returning({ id: accounts.id });
  return row!.id;
}

const ownerOf = async (id: string) =>
  (await backend.database.db.select({ owner: accounts.ownerUid }).from(accounts).where(eq(accounts.id, id)))[0]
    ?.owner ?? null;

/** A fresh valid US number; random enough that parallel suites on one emulator never pick the same. */
const uniqueNumbers = (() => {
  const used = new Set<string>();
  return () => {
    for (;;) {
      const digits = () => String(Math.floor(Math.random() * 1e7)).padStart(7, "0");
      const n = `+1${[213, 312, 415, 617, 646, 718][Math.floor(Math.random() * 6)]}${digits()}`;
      if (!used.has(n) && isValidPhoneNumber(n)) {
        used.add(n);
        return n;
      }
    }
  };
})();

beforeAll(async () => {
  backend = await startTestBackend({
    rateLimits: {
      smsPerIp: { max: 4, windowMs: 60 * 60_000 },
      authPerIp: { max: 6, windowMs: 60_000 },
      claimPerUid: { max: 3, windowMs: 60_000 },
    },
  });
});

afterAll(async () => {
  if (backend) {
    // Never leave the policy on, whatever happened above.
    await backend.database.db.update(operators).set({ settings: sql`${operators.settings} - 'requireStaffMfa'` });
    await Promise.all(created.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
    await backend.close();
  }
});

describe("GET /api/v1/me", () => {
  it("401 without a token or with a bad one", async () => {
    expectProblem(await backend.get("/api/v1/me"), 401);
    expectProblem(await backend.get("/api/v1/me", { token: "a.b.c" }), 401);
  });

  it("a subscriber: claims, verified email, providers and owned accounts", async () => {
    const res = await backend.get("/api/v1/me", { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      uid: "demo-alex",
      email: ALEX,
      emailVerified: true,
      phoneNumber: null,
      role: "subscriber",
      operator: "ATT",
      secondFactor: null,
      mfaRequired: false,
      mfaEnrolled: false,
      providers: ["password"],
      accountsOwned: 2,
    } satisfies Me);
  });

  it("a signed-in user without a role yet gets an answer (role and operator null)", async () => {
    const user = await signUp("me-norole");
    const res = await backend.get("/api/v1/me", { token: user.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      uid: user.uid,
      email: user.email,
      emailVerified: false,
      role: null,
      operator: null,
      accountsOwned: 0,
      providers: ["password"],
    });
    // Everywhere else a role is still required.
    expectProblem(await backend.get("/api/v1/lines", { token: user.token }), 403);
  });

  it("X-Operator is still required and must be a known operator; claims must match it", async () => {
    const user = await signUp("me-operator");
    const missing = expectProblem(await backend.get("/api/v1/me", { token: user.token, operator: null }), 400);
    expect(paths(missing)).toEqual(["X-Operator"]);
    expectProblem(await backend.get("/api/v1/me", { token: user.token, operator: "NOPE" }), 403);
    expectProblem(await backend.get("/api/v1/me", { as: ALEX, operator: "TMO" }), 403);
    expectProblem(await backend.get("/api/v1/me", { as: TAYLOR, operator: "ATT" }), 403);
  });

  it("providers include phone for a user with a phone number", async () => {
    const phone = uniqueNumbers();
    const user = await adminMade("me-phone", { role: "subscriber", operator: "ATT" }, { phoneNumber: phone });
    const res = await backend.get("/api/v1/me", { token: await signInWithPassword(user.email, PASSWORD) });
    expect(res.json()).toMatchObject({ phoneNumber: phone, providers: ["password", "phone"] });
  });
});

describe("POST /api/v1/me/claim", () => {
  it("401 without a token", async () => {
    expectProblem(await backend.send("POST", "/api/v1/me/claim"), 401);
  });

  it("does not link by an unverified email, links once it is verified, and is idempotent", async () => {
    const user = await signUp("claim");
    const attAccount = await insertAccount({ email: user.email.toUpperCase() });
    const tmoAccount = await insertAccount({ operatorCode: "TMO", email: user.email });

    const first = await backend.send("POST", "/api/v1/me/claim", { token: user.token });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ role: "subscriber", operator: "ATT", linkedAccounts: 0 });
    expect(await ownerOf(attAccount)).toBeNull();
    expect((await backend.auth.getUser(user.uid)).customClaims).toEqual({ role: "subscriber", operator: "ATT" });
    // The token from before the claim no longer matches the account's claims.
    expectProblem(await backend.get("/api/v1/me", { token: user.token }), 401);

    await backend.auth.updateUser(user.uid, { emailVerified: true });
    const token = await signInWithPassword(user.email, PASSWORD);
    const second = await backend.send("POST", "/api/v1/me/claim", { token });
    expect(second.json()).toEqual({ role: "subscriber", operator: "ATT", linkedAccounts: 1 });
    expect(await ownerOf(attAccount)).toBe(user.uid);
    expect(await ownerOf(tmoAccount)).toBeNull(); // another operator's account is never touched
    expect((await backend.get("/api/v1/me", { token })).json()).toMatchObject({
      role: "subscriber",
      operator: "ATT",
      accountsOwned: 1,
      emailVerified: true,
    });

    const third = await backend.send("POST", "/api/v1/me/claim", { token });
    expect(third.json()).toEqual({ role: "subscriber", operator: "ATT", linkedAccounts: 0 });

    // Over the limit (3 a minute in this suite): 429 problem+json with Retry-After.
    const limited = await backend.send("POST", "/api/v1/me/claim", { token });
    expectProblem(limited, 429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);

    const trail = await auditEvents(`filter[action]=identity.claim&filter[targetId]=${user.uid}`);
    expect(trail.total).toBe(2);
    expect(trail.data[0]!).toMatchObject({
      actorUid: user.uid,
      after: { role: "subscriber", operator: "ATT", linkedAccountIds: [attAccount] },
    });
    expect(trail.data[1]!).toMatchObject({ actorRole: null, before: { role: null }, after: { linkedAccountIds: [] } });
  });

  it("links by the phone number of the Firebase account", async () => {
    const phone = uniqueNumbers();
    const account = await insertAccount({ phone });
    const email = freshEmail("claim-phone");
    const user = await backend.auth.createUser({ email, password: PASSWORD, phoneNumber: phone });
    created.push(user.uid);
    const res = await backend.send("POST", "/api/v1/me/claim", { token: await signInWithPassword(email, PASSWORD) });
    expect(res.json()).toEqual({ role: "subscriber", operator: "ATT", linkedAccounts: 1 });
    expect(await ownerOf(account)).toBe(user.uid);
  });

  it("a Google sign-in is claimed by its verified Google email, like any other method", async () => {
    const email = freshEmail("google");
    const sub = randomUUID();
    const account = await insertAccount({ email });
    const first = await googleSignIn(sub, email);
    created.push(first.localId);

    const claimed = await backend.send("POST", "/api/v1/me/claim", { token: first.idToken });
    expect(claimed.json()).toEqual({ role: "subscriber", operator: "ATT", linkedAccounts: 1 });
    expect(await ownerOf(account)).toBe(first.localId);
    // Signing in with Google again gives the same user, now with the claims.
    const again = await googleSignIn(sub, email);
    expect(again.localId).toBe(first.localId);
    const me = (await backend.get("/api/v1/me", { token: again.idToken })).json<Me>();
    expect(me).toMatchObject({
      role: "subscriber",
      operator: "ATT",
      providers: ["google.com"],
      emailVerified: true,
      accountsOwned: 1,
    });
  });

  it("never takes an account that already has an owner", async () => {
    const user = await adminMade("claim-owned", {});
    const [alexAccount] = await backend.database.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.ownerUid, "demo-alex"))
      .limit(1);
    await backend.database.db.update(accounts).set({ email: user.email }).where(eq(accounts.id, alexAccount!.id));
    const res = await backend.send("POST", "/api/v1/me/claim", {
      token: await signInWithPassword(user.email, PASSWORD),
    });
    expect(res.json()).toMatchObject({ linkedAccounts: 0 });
    expect(await ownerOf(alexAccount!.id)).toBe("demo-alex");
  });

  it("staff cannot claim: 409", async () => {
    expectProblem(await backend.send("POST", "/api/v1/me/claim", { as: AGENT }), 409);
    expectProblem(await backend.send("POST", "/api/v1/me/claim", { as: TMO_AGENT, operator: "TMO" }), 409);
  });

  it("a subscriber of another operator cannot claim here: 403", async () => {
    expectProblem(await backend.send("POST", "/api/v1/me/claim", { as: TAYLOR, operator: "ATT" }), 403);
  });
});

describe("POST /api/v1/me/sign-out-everywhere", () => {
  it("401 without a token", async () => {
    expectProblem(await backend.send("POST", "/api/v1/me/sign-out-everywhere"), 401);
  });

  it("the token in hand stops working at once; a new sign-in works", async () => {
    const user = await adminMade("signout", { role: "subscriber", operator: "ATT" });
    const token = await signInWithPassword(user.email, PASSWORD);
    expect((await backend.get("/api/v1/lines", { token })).statusCode).toBe(200); // now in the verifier's cache
    await sleep(1100); // auth_time and the revocation time are whole seconds
    const res = await backend.send("POST", "/api/v1/me/sign-out-everywhere", { token });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe("");
    expectProblem(await backend.get("/api/v1/lines", { token }), 401);
    expect(
      (await backend.get("/api/v1/lines", { token: await signInWithPassword(user.email, PASSWORD) })).statusCode,
    ).toBe(200);

    const trail = await auditEvents(`filter[action]=session.revoke_all&filter[actorUid]=${user.uid}`);
    expect(trail.data).toEqual([
      expect.objectContaining({ actorRole: "subscriber", targetType: "user", targetId: user.uid, operator: "ATT" }),
    ]);
  });
});

describe("POST /api/v1/me/audit", () => {
  it("is gone: 404 like any unknown path, signed in or not (identity events are the server's own)", async () => {
    for (const as of [undefined, ALEX]) {
      expectProblem(
        await backend.send("POST", "/api/v1/me/audit", {
          ...(as ? { as } : {}),
          body: { action: "identity.linked", detail: "google.com" },
        }),
        404,
      );
    }
  });
});

describe("security policy: staff MFA", () => {
  it("401 without a token; subscribers may not read it, agents may not change it", async () => {
    expectProblem(await backend.get("/api/v1/security-policy"), 401);
    expectProblem(
      await backend.send("PUT", "/api/v1/security-policy", { body: { requireStaffMfa: true, reason: "test" } }),
      401,
    );
    expectProblem(await backend.get("/api/v1/security-policy", { as: ALEX }), 403);
    expect((await backend.get("/api/v1/security-policy", { as: AGENT })).json()).toEqual({
      requireStaffMfa: false,
      newStaffMayApprove: "after-confirmation",
    });
    expectProblem(
      await backend.send("PUT", "/api/v1/security-policy", {
        as: AGENT,
        body: { requireStaffMfa: true, reason: "agent tries" },
      }),
      403,
    );
    expectProblem(
      await backend.send("PUT", "/api/v1/security-policy", {
        as: TMO_AGENT,
        operator: "ATT",
        body: { requireStaffMfa: true, reason: "other operator" },
      }),
      403,
    );
  });

  it("400 naming the field", async () => {
    const kind = expectProblem(
      await backend.send("PUT", "/api/v1/security-policy", {
        as: ADMIN,
        body: { requireStaffMfa: "yes", reason: "because" },
      }),
      400,
    );
    expect(paths(kind)).toEqual(["requireStaffMfa"]);
    const reason = expectProblem(
      await backend.send("PUT", "/api/v1/security-policy", { as: ADMIN, body: { requireStaffMfa: true } }),
      400,
    );
    expect(paths(reason)).toEqual(["reason"]);
  });

  it("when on, staff without a second factor get 403 mfa-required except on /me; with one they pass", async () => {
    const mfaAdmin = await adminMade("mfa-admin", { role: "admin", operator: "ATT" }, { mfaPhone: uniqueNumbers() });
    const mfaToken = await signInWithSecondFactor(mfaAdmin.email, PASSWORD);
    expect((await backend.get("/api/v1/lines", { as: AGENT })).statusCode).toBe(200); // settings now cached

    const on = await backend.send("PUT", "/api/v1/security-policy", {
      as: ADMIN,
      body: { requireStaffMfa: true, reason: "staff accounts are targeted" },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toEqual({ requireStaffMfa: true, newStaffMayApprove: "after-confirmation" });

    // Applies at once (the change invalidated the cache) to agents and admins alike.
    for (const as of [AGENT, ADMIN]) {
      const denied = expectProblem(await backend.get("/api/v1/lines", { as }), 403);
      expect(denied.type).toBe("/problems/mfa-required");
      expect(expectProblem(await backend.get("/api/v1/security-policy", { as }), 403).type).toBe(
        "/problems/mfa-required",
      );
    }
    const me = await backend.get("/api/v1/me", { as: AGENT });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ role: "agent", mfaRequired: true, mfaEnrolled: false, secondFactor: null });

    // Subscribers are not staff; the other operator's policy is its own.
    expect((await backend.get("/api/v1/lines", { as: ALEX })).statusCode).toBe(200);
    expect((await backend.get("/api/v1/lines", { as: TMO_AGENT, operator: "TMO" })).statusCode).toBe(200);

    // An admin signed in with a second factor works normally, and turns it off again.
    expect((await backend.get("/api/v1/me", { token: mfaToken })).json()).toMatchObject({
      secondFactor: "phone",
      mfaRequired: true,
      mfaEnrolled: true,
    });
    expect((await backend.get("/api/v1/lines", { token: mfaToken })).statusCode).toBe(200);
    const off = await backend.send("PUT", "/api/v1/security-policy", {
      token: mfaToken,
      body: { requireStaffMfa: false, reason: "test over" },
    });
    expect(off.json()).toEqual({ requireStaffMfa: false, newStaffMayApprove: "after-confirmation" });
    expect((await backend.get("/api/v1/lines", { as: AGENT })).statusCode).toBe(200);

    const trail = await auditEvents("filter[action]=policy.updated");
    expect(trail.data.slice(0, 2)).toEqual([
      expect.objectContaining({
        actorUid: mfaAdmin.uid,
        before: { requireStaffMfa: true },
        after: { requireStaffMfa: false },
        reason: "test over",
      }),
      expect.objectContaining({
        actorUid: "demo-admin",
        before: { requireStaffMfa: false },
        after: { requireStaffMfa: true },
        reason: "staff accounts are targeted",
      }),
    ]);
  });
});

describe("GET /api/v1/audit-events", () => {
  it("401 without a token; 403 for subscribers; 400 naming a bad parameter", async () => {
    expectProblem(await backend.get("/api/v1/audit-events"), 401);
    expectProblem(await backend.get("/api/v1/audit-events", { as: ALEX }), 403);
    expect(
      paths(expectProblem(await backend.get("/api/v1/audit-events?filter[reason]=x", { as: ADMIN }), 400)),
    ).toEqual(["filter[reason]"]);
    expect(paths(expectProblem(await backend.get("/api/v1/audit-events?sort=reason", { as: ADMIN }), 400))).toEqual([
      "sort",
    ]);
  });

  it("agents may not read it (admins only); newest first; one operator never sees another's events", async () => {
    expectProblem(await backend.get("/api/v1/audit-events", { as: AGENT }), 403);
    expectProblem(await backend.get("/api/v1/audit-events", { as: TMO_AGENT, operator: "TMO" }), 403);
    // Taylor's sign-in is recorded at TMO by the server itself.
    expect((await backend.get("/api/v1/me", { as: TAYLOR, operator: "TMO" })).statusCode).toBe(200);
    const att = await auditEvents("pageSize=100", ADMIN);
    expect(att.total).toBeGreaterThan(0);
    expect(att.data.every((e) => e.operator === "ATT")).toBe(true);
    const times = att.data.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const tmo = await auditEvents("pageSize=100", TMO_ADMIN, "TMO");
    expect(tmo.data.every((e) => e.operator === "TMO")).toBe(true);
    expect(tmo.data).toContainEqual(
      expect.objectContaining({ action: "identity.signed_in", actorUid: "tmo-taylor", targetId: "tmo-taylor" }),
    );
  });

  it("the table is append-only: UPDATE and DELETE fail", async () => {
    const db = backend.database.db;
    await expect(db.execute(sql`update audit_events set reason = 'edited'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
    expect((await auditEvents("pageSize=1")).total).toBeGreaterThan(0);
  });
});

describe("POST /api/auth/sms-allowance", () => {
  const allowance = (body: unknown, remoteAddress: string, operator: string | null = "ATT") =>
    backend.send("POST", "/api/auth/sms-allowance", { body, remoteAddress, operator });

  it("needs no token; 400 naming X-Operator, phoneNumber or purpose; 403 for an unknown operator", async () => {
    const ip = "198.51.100.1";
    expect(
      paths(expectProblem(await allowance({ phoneNumber: "+12025550188", purpose: "sign_in" }, ip, null), 400)),
    ).toEqual(["X-Operator"]);
    for (const phoneNumber of ["2025550188", "+1202555", "+44 7700 900123"]) {
      expect(paths(expectProblem(await allowance({ phoneNumber, purpose: "sign_in" }, "198.51.100.2"), 400))).toEqual([
        "phoneNumber",
      ]);
    }
    expect(
      paths(expectProblem(await allowance({ phoneNumber: "+12025550188", purpose: "spam" }, "198.51.100.3"), 400)),
    ).toEqual(["purpose"]);
    expectProblem(await allowance({ phoneNumber: "+12025550188", purpose: "sign_in" }, "198.51.100.3", "NOPE"), 403);
  });

  it("per number: 3 in 10 minutes, then 429 with Retry-After", async () => {
    const phoneNumber = uniqueNumbers();
    const ips = ["198.51.100.10", "198.51.100.11", "198.51.100.12", "198.51.100.13"];
    for (const ip of ips.slice(0, 3)) {
      const res = await allowance({ phoneNumber, purpose: "mfa_sign_in" }, ip);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ allowed: true });
    }
    const res = await allowance({ phoneNumber, purpose: "sign_in" }, ips[3]!);
    expectProblem(res, 429);
    const retryAfter = Number(res.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(590);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // Another number from the same address is still fine.
    expect((await allowance({ phoneNumber: uniqueNumbers(), purpose: "sign_in" }, ips[3]!)).statusCode).toBe(200);
  });

  it("per client address: 4 an hour in this suite, then 429 with Retry-After", async () => {
    const ip = "198.51.100.20";
    for (let i = 0; i < 4; i++)
      expect((await allowance({ phoneNumber: uniqueNumbers(), purpose: "link" }, ip)).statusCode).toBe(200);
    const res = await allowance({ phoneNumber: uniqueNumbers(), purpose: "link" }, ip);
    expectProblem(res, 429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(3500);
  });

  it("every /api/auth request counts against the address (6 a minute in this suite), malformed ones too", async () => {
    const ip = "198.51.100.30";
    for (let i = 0; i < 6; i++) expectProblem(await allowance({ phoneNumber: "nope" }, ip), 400);
    const res = await allowance({ phoneNumber: uniqueNumbers(), purpose: "sign_in" }, ip);
    expectProblem(res, 429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("OpenAPI", () => {
  it("describes every identity route", async () => {
    const doc = (await backend.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    for (const [path, method] of [
      ["/api/v1/me", "get"],
      ["/api/v1/me/claim", "post"],
      ["/api/v1/me/sign-out-everywhere", "post"],
      ["/api/v1/security-policy", "get"],
      ["/api/v1/security-policy", "put"],
      ["/api/v1/audit-events", "get"],
      ["/api/auth/sms-allowance", "post"],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths["/api/v1/me/audit"]).toBeUndefined();
  });
});
