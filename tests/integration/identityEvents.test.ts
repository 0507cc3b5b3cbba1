import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/resources/auditEvents";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../server/app";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import type { Database } from "../../server/db/client";
import { identitySnapshots, outboxMessages } from "../../server/db/schema";
import { openAnotherHandle } from "../support/testDatabase";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";
import { freshPhoneNumber, lastSmsCode } from "../support/emulatorCodes";
import { ADMIN, ALEX } from "../support/fixtures";
import { freePort } from "../support/freePort";
import { expectProblem } from "../support/problems";
import {
  signInWithPassword,
  signInWithSecondFactor,
  startTestBackend,
  type TestBackend,
  type TestInstance,
} from "../support/testBackend";
import { waitFor } from "../support/waitFor";

// Identity events recorded by the server (issue 27 item 4) against the real database (TEST_DB) and
// the real Auth emulator: every change is made through the emulator's public REST API, as the
// portal's Firebase SDK makes it, and seen by the backend on the next request. Throwaway users only.

const PASSWORD = "Throwaway-2026!";
const TOOLKIT = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com`;

let backend: TestBackend;
let other: TestInstance;
/** The instance of the unreachable-firebase-admin test and its database handle, closed at the end. */
let instanceApp: FastifyInstance | undefined;
let handle: Database | undefined;
const created: string[] = [];

beforeAll(async () => {
  backend = await startTestBackend();
  other = await backend.startAnotherInstance();
});

afterAll(async () => {
  await instanceApp?.close();
  await handle?.close();
  if (!backend) return;
  await Promise.all(created.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
  await backend.close();
});

async function toolkit<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${TOOLKIT}${path}?key=demo-api-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(`${path} failed: ${json.error?.message}`);
  return json;
}

/** A new ID token of the same session (same auth_time), as the SDK's hourly refresh gets it. */
async function refreshed(refreshToken: string): Promise<string> {
  const res = await fetch(`http://${EMULATOR_HOST}/securetoken.googleapis.com/v1/token?key=demo-api-key`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  });
  const body = (await res.json()) as { id_token?: string };
  if (!body.id_token) throw new Error("token refresh failed");
  return body.id_token;
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { iat: number; auth_time: number };

/**
 * Waits until the clock is past the second the token was minted in: tokens carry whole seconds, and
 * the server handles a token as new only when it was minted in a later second than the last one.
 */
const clockPastMintOf = (token: string) =>
  waitFor("the next second", () => Date.now() >= (claimsOf(token).iat + 1) * 1000, { intervalMs: 20 });

/** A subscriber of ATT made with firebase-admin (email verified), signed in with a password through REST. */
async function subscriber(tag: string) {
  const email = `${tag}-${randomUUID()}@example.test`;
  const user = await backend.auth.createUser({ email, password: PASSWORD, emailVerified: true });
  created.push(user.uid);
  await backend.auth.setCustomUserClaims(user.uid, { role: "subscriber", operator: "ATT" });
  const session = await toolkit<{ idToken: string; refreshToken: string }>("/v1/accounts:signInWithPassword", {
    email,
    password: PASSWORD,
    returnSecureToken: true,
  });
  return { uid: user.uid, email, ...session };
}

/** The audit trail of a user (oldest first), as an admin reads it. */
async function trailOf(uid: string, action?: string): Promise<AuditEvent[]> {
  const filter = `filter[targetId]=${uid}${action ? `&filter[action]=${action}` : ""}`;
  const res = await backend.get(`/api/v1/audit-events?pageSize=100&${filter}`, { as: ADMIN });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AuditEvent[] }>().data.reverse();
}

const ok = async (pending: Promise<{ statusCode: number; body: string }>) => {
  const res = await pending;
  expect(res.statusCode, res.body).toBe(200);
};

describe("sign-ins", () => {
  it("are recorded once per auth_time: repeated, parallel and refreshed tokens add none, on every instance", async () => {
    const user = await subscriber("sign-in");
    const token = user.idToken;
    // A burst in parallel on two instances, then repeats.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        ok((i % 2 ? other : backend).get(i % 3 ? "/api/v1/plans" : "/api/v1/me", { token })),
      ),
    );
    for (let i = 0; i < 3; i++) await ok(backend.get("/api/v1/me", { token }));

    const [signIn, ...more] = await trailOf(user.uid, "identity.signed_in");
    expect(more).toEqual([]);
    expect(signIn).toMatchObject({
      actorUid: user.uid,
      actorRole: "subscriber",
      targetType: "user",
      targetId: user.uid,
      before: null,
      after: {
        source: "id-token",
        method: "password",
        secondFactor: null,
        signedInAt: new Date(claimsOf(token).auth_time * 1000).toISOString(),
      },
    });
    // First sight records the sign-in only: nothing "changed" against nothing.
    expect((await trailOf(user.uid)).map((e) => e.action)).toEqual(["identity.signed_in"]);

    // The hourly refresh: a newer token of the same sign-in is no new sign-in.
    await clockPastMintOf(token);
    const later = await refreshed(user.refreshToken);
    expect(claimsOf(later).iat).toBeGreaterThan(claimsOf(token).iat);
    await Promise.all([ok(backend.get("/api/v1/me", { token: later })), ok(other.get("/api/v1/me", { token: later }))]);
    expect(await trailOf(user.uid, "identity.signed_in")).toHaveLength(1);

    // Signing in again is.
    await waitFor("the next second", () => Date.now() >= (claimsOf(later).auth_time + 1) * 1000, { intervalMs: 20 });
    const again = await signInWithPassword(user.email, PASSWORD);
    await Promise.all([
      ok(other.get("/api/v1/plans", { token: again })),
      ok(backend.get("/api/v1/me", { token: again })),
    ]);
    const signIns = await trailOf(user.uid, "identity.signed_in");
    expect(signIns.map((e) => e.after?.signedInAt)).toEqual([
      new Date(claimsOf(token).auth_time * 1000).toISOString(),
      new Date(claimsOf(again).auth_time * 1000).toISOString(),
    ]);
  });
});

describe("sign-in methods", () => {
  it("linking and unlinking a phone number: each recorded on the next request, with its source", async () => {
    const user = await subscriber("link-phone");
    await ok(backend.get("/api/v1/me", { token: user.idToken }));
    await clockPastMintOf(user.idToken);

    const phoneNumber = freshPhoneNumber();
    const { sessionInfo } = await toolkit<{ sessionInfo: string }>("/v1/accounts:sendVerificationCode", {
      phoneNumber,
    });
    const linked = await toolkit<{ idToken: string; refreshToken: string }>("/v1/accounts:signInWithPhoneNumber", {
      sessionInfo,
      code: await lastSmsCode(phoneNumber),
      idToken: user.idToken,
    });
    await ok(other.get("/api/v1/me", { token: linked.idToken }));
    await ok(backend.get("/api/v1/plans", { token: linked.idToken }));
    expect(await trailOf(user.uid, "identity.linked")).toEqual([
      expect.objectContaining({
        actorUid: user.uid,
        before: null,
        after: { providerId: "phone", phone: `•••• ${phoneNumber.slice(-4)}`, source: "admin-user-record" },
      }),
    ]);
    // The number came with the method: no phone change besides.
    expect(await trailOf(user.uid, "identity.phone_changed")).toEqual([]);

    await clockPastMintOf(linked.idToken);
    await toolkit("/v1/accounts:update", { idToken: linked.idToken, deleteProvider: ["phone"] });
    // Unlinking returns no token: the portal refreshes (src/providers/identityFlows.ts guarded()).
    const afterUnlink = await refreshed(linked.refreshToken);
    await ok(backend.get("/api/v1/me", { token: afterUnlink }));
    await ok(backend.get("/api/v1/me", { token: afterUnlink }));
    expect(await trailOf(user.uid, "identity.unlinked")).toEqual([
      expect.objectContaining({
        before: { providerId: "phone", phone: `•••• ${phoneNumber.slice(-4)}` },
        after: { source: "admin-user-record" },
      }),
    ]);
    const [snapshot] = await backend.database.db
      .select()
      .from(identitySnapshots)
      .where(and(eq(identitySnapshots.operatorCode, "ATT"), eq(identitySnapshots.uid, user.uid)));
    expect(snapshot).toMatchObject({ providers: ["password"], phone: null, lastIat: claimsOf(afterUnlink).iat });
  });

  it("linking a password to a phone-only account: the method, and no email change for the email it brings", async () => {
    const phoneNumber = freshPhoneNumber();
    const { sessionInfo } = await toolkit<{ sessionInfo: string }>("/v1/accounts:sendVerificationCode", {
      phoneNumber,
    });
    const first = await toolkit<{ localId: string }>("/v1/accounts:signInWithPhoneNumber", {
      sessionInfo,
      code: await lastSmsCode(phoneNumber),
    });
    created.push(first.localId);
    await backend.auth.setCustomUserClaims(first.localId, { role: "subscriber", operator: "ATT" });
    const again = await toolkit<{ sessionInfo: string }>("/v1/accounts:sendVerificationCode", { phoneNumber });
    const session = await toolkit<{ idToken: string }>("/v1/accounts:signInWithPhoneNumber", {
      sessionInfo: again.sessionInfo,
      code: await lastSmsCode(phoneNumber),
    });
    await ok(backend.get("/api/v1/me", { token: session.idToken }));
    expect((await trailOf(first.localId, "identity.signed_in"))[0]?.after).toMatchObject({
      source: "id-token",
      method: "phone",
    });
    await clockPastMintOf(session.idToken);

    const email = `linked-${randomUUID()}@example.test`;
    await toolkit("/v1/accounts:update", { idToken: session.idToken, email, password: PASSWORD });
    // Setting a password signs the account's sessions out (the emulator, as Firebase): sign in with it.
    await ok(backend.get("/api/v1/me", { token: await signInWithPassword(email, PASSWORD) }));
    expect(await trailOf(first.localId, "identity.linked")).toEqual([
      expect.objectContaining({ after: { providerId: "password", source: "admin-user-record" } }),
    ]);
    expect(await trailOf(first.localId, "identity.email_changed")).toEqual([]);
  });
});

describe("email changes", () => {
  it("old and new address, masked, from the user record", async () => {
    const user = await subscriber("email-change");
    await ok(backend.get("/api/v1/me", { token: user.idToken }));
    await clockPastMintOf(user.idToken);

    const newEmail = `changed-${randomUUID()}@example.test`;
    await toolkit("/v1/accounts:update", { idToken: user.idToken, email: newEmail });
    // A new email signs the account's sessions out (the emulator, as Firebase): sign in with it.
    await ok(backend.get("/api/v1/me", { token: await signInWithPassword(newEmail, PASSWORD) }));
    expect(await trailOf(user.uid, "identity.email_changed")).toEqual([
      expect.objectContaining({
        actorUid: user.uid,
        before: { email: `${user.email[0]}•••@example.test` },
        after: { email: `${newEmail[0]}•••@example.test`, source: "admin-user-record" },
      }),
    ]);
    // The snapshot keeps the new address in full: the next change's "before" (where alerts go).
    const [snapshot] = await backend.database.db
      .select({ email: identitySnapshots.email })
      .from(identitySnapshots)
      .where(and(eq(identitySnapshots.operatorCode, "ATT"), eq(identitySnapshots.uid, user.uid)));
    expect(snapshot?.email).toBe(newEmail);
    // The alert (issue 27 item 5) goes to the address the account had before, never only to the new one.
    const alerts = await backend.database.db
      .select({ channel: outboxMessages.channel, recipient: outboxMessages.recipient })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.operatorCode, "ATT"), eq(outboxMessages.kind, "account.alert")));
    const emailed = alerts.filter((m) => m.channel === "email").map((m) => m.recipient);
    expect(emailed).toContain(user.email);
    expect(emailed.filter((to) => to === user.email)).toHaveLength(1);
  });
});

describe("second factors", () => {
  it("an SMS second factor enrolled and removed, and a sign-in with it", async () => {
    const user = await subscriber("mfa");
    await ok(backend.get("/api/v1/me", { token: user.idToken }));
    await clockPastMintOf(user.idToken);

    const phoneNumber = freshPhoneNumber();
    const start = await toolkit<{ phoneSessionInfo: { sessionInfo: string } }>("/v2/accounts/mfaEnrollment:start", {
      idToken: user.idToken,
      phoneEnrollmentInfo: { phoneNumber },
    });
    const enrolled = await toolkit<{ idToken: string }>("/v2/accounts/mfaEnrollment:finalize", {
      idToken: user.idToken,
      displayName: "my phone",
      phoneVerificationInfo: { sessionInfo: start.phoneSessionInfo.sessionInfo, code: await lastSmsCode(phoneNumber) },
    });
    await ok(backend.get("/api/v1/me", { token: enrolled.idToken }));
    const last4 = `•••• ${phoneNumber.slice(-4)}`;
    expect(await trailOf(user.uid, "mfa.enrolled")).toEqual([
      expect.objectContaining({ after: { factor: "phone", phone: last4, source: "admin-user-record" } }),
    ]);

    // A sign-in with the second factor says so.
    await clockPastMintOf(enrolled.idToken);
    const withFactor = await signInWithSecondFactor(user.email, PASSWORD);
    await ok(backend.get("/api/v1/me", { token: withFactor }));
    expect((await trailOf(user.uid, "identity.signed_in")).at(-1)?.after).toMatchObject({
      source: "id-token",
      method: "password",
      secondFactor: "phone",
    });

    await clockPastMintOf(withFactor);
    const [factor] = (await backend.auth.getUser(user.uid)).multiFactor!.enrolledFactors;
    const withdrawn = await toolkit<{ idToken: string }>("/v2/accounts/mfaEnrollment:withdraw", {
      idToken: withFactor,
      mfaEnrollmentId: factor!.uid,
    });
    await ok(backend.get("/api/v1/me", { token: withdrawn.idToken }));
    expect(await trailOf(user.uid, "mfa.removed")).toEqual([
      expect.objectContaining({ before: { factor: "phone", phone: last4 }, after: { source: "admin-user-record" } }),
    ]);
  });
});

describe("the browser reports nothing", () => {
  it("POST /api/v1/me/audit answers 404 like any unknown path", async () => {
    expectProblem(
      await backend.send("POST", "/api/v1/me/audit", {
        as: ALEX,
        body: { action: "identity.linked", detail: "google.com" },
      }),
      404,
    );
  });
});

describe("firebase-admin unreachable", () => {
  it("the request goes on, a warning is logged, nothing is advanced, and a later request records it", async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
        done();
      },
    });
    // A firebase-admin whose server nobody answers (it binds its address on first use), beside a
    // verifier that reaches the emulator: the instance's identity observer cannot fetch user records.
    const reachable = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const { auth: unreachable } = createAdminAuth({
      projectId: PROJECT_ID,
      emulatorHost: `127.0.0.1:${await freePort()}`,
    });
    try {
      await expect(unreachable.getUser("nobody")).rejects.toThrow();
    } finally {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = reachable;
    }
    handle = await openAnotherHandle(backend.database);
    const app = await buildApp({
      database: handle,
      verifier: createTokenVerifier(backend.auth),
      auth: unreachable,
      operator: "ATT",
      logLevel: "warn",
      logStream,
    });
    instanceApp = app;
    const user = await subscriber("unreachable");
    const get = () =>
      app.inject({
        method: "GET",
        url: "/api/v1/plans",
        headers: { authorization: `Bearer ${user.idToken}`, "x-operator": "ATT", "x-app-version": "3.2.1" },
      });
    for (let attempt = 1; attempt <= 2; attempt++) {
      await ok(get());
      // Tried again on the next request: the snapshot was not advanced, nor this instance's memory.
      await waitFor(
        `warning ${attempt}`,
        () => lines.filter((l) => /identity events not recorded/.test(l)).length === attempt,
      );
    }
    expect(await trailOf(user.uid)).toEqual([]);
    expect(
      await backend.database.db.select().from(identitySnapshots).where(eq(identitySnapshots.uid, user.uid)),
    ).toEqual([]);

    // An instance that reaches firebase-admin records the sign-in on the next request with the same token.
    await ok(backend.get("/api/v1/plans", { token: user.idToken }));
    expect((await trailOf(user.uid)).map((e) => e.action)).toEqual(["identity.signed_in"]);
  });
});
