import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import type { StaffInviteResult } from "../../src/resources/staff";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { freshPhoneNumber } from "../support/emulatorCodes";
import { ADMIN, AGENT } from "../support/fixtures";
import {
  adminWithSecondFactor,
  signInWithPassword,
  startTestBackend,
  type BackendOptions,
  type TestBackend,
  type TestInstance,
} from "../support/testBackend";
import { clockPastSignInOf, waitFor } from "../support/waitFor";
import { rowsOf } from "../../server/db/rowsOf";
import { stringMatching } from "../support/matchers";

// Two backend instances on one database: A (the test backend) and B (a second buildApp with its
// own caches and event bus and, on PostgreSQL, its own pool and LISTEN connection). A change made
// through A must be refused by B, which had cached the opposite. B's caches are kept long on purpose
// (tokens 30 s, operator settings 60 s), so only the invalidation can explain a refusal within a
// second. The figures printed run from A's answer to B's first refusal. Users whose access changes
// are throwaway users: the demo sign-ins are shared with parallel suites.

const PASSWORD = "Throwaway-2026!";
const options: BackendOptions = {
  operatorSettingsTtlMs: 60_000,
  rateLimits: { smsPerIp: { max: 4, windowMs: 60 * 60_000 } },
};
const database = process.env.TEST_DB ?? "pglite";

let a: TestBackend;
let b: TestInstance;
const created: string[] = [];

beforeAll(async () => {
  a = await startTestBackend(options);
  b = await a.startAnotherInstance(options);
});

afterAll(async () => {
  if (!a) return;
  await Promise.all(created.map((uid) => a.auth.deleteUser(uid).catch(() => {})));
  await a.close();
});

/** A care agent invited through A, with a password to sign in with. */
async function invitedAgent(tag: string) {
  const res = await a.send("POST", "/api/v1/staff", {
    as: ADMIN,
    body: { email: `${tag}-${randomUUID()}@example.test`, role: "agent", displayName: `Instances ${tag}` },
    headers: { "idempotency-key": randomUUID() },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { member } = res.json<StaffInviteResult>();
  created.push(member.uid);
  await a.auth.updateUser(member.uid, { password: PASSWORD });
  return { ...member, token: await signInWithPassword(member.email, PASSWORD) };
}

/**
 * Asks B until it refuses (a condition, with a generous deadline), prints the time from A's answer
 * to B's first refusal, and returns that refusal.
 */
async function firstRefusalOnB(change: string, answeredAt: number, call: () => Promise<LightMyRequestResponse>) {
  let refusedAt = 0;
  const { value: refusal } = await waitFor(`instance B to refuse after the ${change} through A`, async () => {
    const res = await call();
    if (res.statusCode === 200) return false;
    refusedAt = performance.now();
    return res;
  });
  console.log(
    `cross-instance invalidation (${database}), ${change}: B refused ${(refusedAt - answeredAt).toFixed(1)} ms after A answered`,
  );
  return { status: refusal.statusCode, problem: refusal.json<{ type: string; detail: string }>() };
}

describe("access changes made through instance A are refused by instance B", () => {
  it("a role change", async () => {
    const member = await invitedAgent("role");
    expect((await b.get("/api/v1/lines", { token: member.token })).statusCode).toBe(200); // now cached on B
    const unreached = createTokenVerifier(a.auth); // a cache no invalidation reaches, for comparison
    await unreached.verify(member.token);

    const res = await a.send("PATCH", `/api/v1/staff/${member.uid}`, {
      as: ADMIN,
      body: { role: "admin", reason: "Instances test" },
    });
    const answeredAt = performance.now();
    expect(res.statusCode, res.body).toBe(200);

    const refusal = await firstRefusalOnB("role change", answeredAt, () =>
      b.get("/api/v1/lines", { token: member.token }),
    );
    expect(refusal).toMatchObject({ status: 401, problem: { detail: stringMatching(/role does not match/) } });
    // Without the invalidation B would still answer from its cache, as this verifier does.
    await expect(unreached.verify(member.token)).resolves.toMatchObject({ uid: member.uid, role: "agent" });
    // A token minted after the change carries the new role on B.
    expect((await b.get("/api/v1/staff", { token: await signInWithPassword(member.email, PASSWORD) })).statusCode).toBe(
      200,
    );
  });

  it("a disabled account", async () => {
    const member = await invitedAgent("disable");
    expect((await b.get("/api/v1/lines", { token: member.token })).statusCode).toBe(200);

    const res = await a.send("PATCH", `/api/v1/staff/${member.uid}`, {
      as: ADMIN,
      body: { disabled: true, reason: "Instances test" },
    });
    const answeredAt = performance.now();
    expect(res.statusCode, res.body).toBe(200);

    const refusal = await firstRefusalOnB("disable", answeredAt, () => b.get("/api/v1/lines", { token: member.token }));
    expect(refusal).toMatchObject({ status: 401, problem: { detail: stringMatching(/disabled|signed out/) } });
  });

  it("sign out everywhere", async () => {
    const member = await invitedAgent("signout");
    expect((await b.get("/api/v1/lines", { token: member.token })).statusCode).toBe(200);
    await clockPastSignInOf(member.token);

    const res = await a.send("POST", "/api/v1/me/sign-out-everywhere", { token: member.token });
    const answeredAt = performance.now();
    expect(res.statusCode, res.body).toBe(204);

    const refusal = await firstRefusalOnB("sign-out-everywhere", answeredAt, () =>
      b.get("/api/v1/lines", { token: member.token }),
    );
    expect(refusal).toMatchObject({ status: 401, problem: { detail: stringMatching(/signed out everywhere/) } });
  });

  it("the staff MFA policy, turned on and off again", async () => {
    expect((await b.get("/api/v1/lines", { as: AGENT })).statusCode).toBe(200); // B now holds the policy (off) for 60 s

    const on = await a.send("PUT", "/api/v1/security-policy", {
      as: ADMIN,
      body: { requireStaffMfa: true, reason: "Instances test" },
    });
    const answeredAt = performance.now();
    expect(on.statusCode, on.body).toBe(200);

    const refusal = await firstRefusalOnB("staff MFA policy change", answeredAt, () =>
      b.get("/api/v1/lines", { as: AGENT }),
    );
    expect(refusal).toMatchObject({ status: 403, problem: { type: "/problems/mfa-required" } });

    // Off again through A, by an admin signed in with a second factor: B lets staff in again.
    const admin = await adminWithSecondFactor(a.auth, PASSWORD);
    created.push(admin.uid);
    const off = await a.send("PUT", "/api/v1/security-policy", {
      token: admin.token,
      body: { requireStaffMfa: false, reason: "Instances test over" },
    });
    expect(off.statusCode, off.body).toBe(200);
    await waitFor(
      "instance B to let staff in again",
      async () => (await b.get("/api/v1/lines", { as: AGENT })).statusCode === 200,
    );
  });
});

describe("rate limits count across instances", () => {
  const allowance = (instance: TestInstance, phoneNumber: string, remoteAddress: string) =>
    instance.send("POST", "/api/auth/sms-allowance", { body: { phoneNumber, purpose: "sign_in" }, remoteAddress });

  it("SMS per number: 3 in 10 minutes, whichever instance is asked", async () => {
    const phoneNumber = freshPhoneNumber();
    const answers = [
      await allowance(a, phoneNumber, "198.51.100.61"),
      await allowance(b, phoneNumber, "198.51.100.62"),
      await allowance(a, phoneNumber, "198.51.100.63"),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200]);
    for (const instance of [b, a]) {
      const refused = await allowance(instance, phoneNumber, "198.51.100.64");
      expect(refused.statusCode, refused.body).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(590);
      expect(refused.json<{ detail: string }>().detail).toMatch(/for this number/);
    }
  });

  it("SMS per client address: 4 an hour in this suite, whichever instance is asked", async () => {
    const ip = "198.51.100.70";
    for (const instance of [a, b, a, b])
      expect((await allowance(instance, freshPhoneNumber(), ip)).statusCode).toBe(200);
    for (const instance of [a, b]) {
      const refused = await allowance(instance, freshPhoneNumber(), ip);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json<{ detail: string }>().detail).toMatch(/from this network/);
    }
  });
});

describe("a lost LISTEN connection", () => {
  test.runIf(database === "postgres")(
    "drops every cached verification, since an invalidation may have been missed",
    async () => {
      const member = await invitedAgent("listen-lost");
      expect((await b.get("/api/v1/lines", { token: member.token })).statusCode).toBe(200);
      // A change no instance is told of: claims set with the Admin SDK directly. B trusts its cache.
      await a.auth.setCustomUserClaims(member.uid, { role: "admin", operator: "ATT" });
      expect((await b.get("/api/v1/lines", { token: member.token })).statusCode).toBe(200);

      const listening = sql`select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`;
      const countListening = async () => rowsOf(await a.database.db.execute(listening)).length;
      expect(await countListening()).toBe(2); // A's and B's
      await a.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
      );

      await waitFor(
        "instance B to refuse the stale token",
        async () => (await b.get("/api/v1/lines", { token: member.token })).statusCode === 401,
      );
      await waitFor("both instances to LISTEN again", async () => (await countListening()) === 2);
    },
  );
});
