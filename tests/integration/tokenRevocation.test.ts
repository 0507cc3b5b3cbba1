import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { seedAuthUsers } from "../../server/auth/seedAuthUsers";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { ProblemError } from "../../server/errors";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";
import { signInWithPassword } from "../support/testBackend";
import { stringMatching } from "../support/matchers";

// Revocation and disabling, on throwaway users so the demo sign-ins stay untouched. Verifiers are
// built here and called directly: the app's verifier would answer from its 30 s cache.
const PASSWORD = "Throwaway-2026!";
const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
const created: string[] = [];

async function throwawayUser(): Promise<{ uid: string; email: string }> {
  const email = `revocation-${randomUUID()}@example.test`;
  const { uid } = await auth.createUser({ email, password: PASSWORD });
  created.push(uid);
  await auth.setCustomUserClaims(uid, { role: "subscriber", operator: "ATT" });
  return { uid, email };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const payload = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { auth_time: number };

async function expectRefused(promise: Promise<unknown>, detail: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  expect((error as ProblemError).status).toBe(401);
  expect((error as ProblemError).message).toMatch(detail); // the detail in English
}

/** GET /api/v1/me through the app, whose verifier has seen none of the tokens below before. */
async function viaApi(token: string) {
  const res = await app.inject({
    method: "GET",
    url: "/api/v1/me",
    headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
  });
  return {
    status: res.statusCode,
    type: res.headers["content-type"],
    body: res.json<{ status: number; detail: string }>(),
  };
}

let user: { uid: string; email: string };
let app: FastifyInstance;

beforeAll(async () => {
  user = await throwawayUser();
  // Only refusals go through this app, so it never reaches a handler and needs no real database
  // (nor the generic resources, whose indexes it would create at start-up).
  const database = { db: {} as never, driver: "pglite" as const, close: async () => {} };
  app = await buildApp({
    database,
    verifier: createTokenVerifier(auth),
    operator: "ATT",
    logLevel: "silent",
    resources: [],
  });
});

afterAll(async () => {
  await app?.close();
  await Promise.all(created.map((uid) => auth.deleteUser(uid).catch(() => {})));
});

describe("token revocation", () => {
  it("a token issued before revokeRefreshTokens is refused once no cache holds it", async () => {
    const token = await signInWithPassword(user.email, PASSWORD);
    const cached = createTokenVerifier(auth);
    await expect(cached.verify(token)).resolves.toMatchObject({ uid: user.uid, role: "subscriber", operator: "ATT" });

    // tokensValidAfterTime and auth_time are whole seconds: revoke in a later second than the sign-in.
    await sleep(1100);
    await auth.revokeRefreshTokens(user.uid);
    const validSince = Date.parse((await auth.getUser(user.uid)).tokensValidAfterTime!);
    expect(validSince).toBeGreaterThan(payload(token).auth_time * 1000);

    // A verifier that has not seen the token asks the emulator and refuses it.
    await expectRefused(createTokenVerifier(auth).verify(token), /signed out everywhere/);
    expect(await viaApi(token)).toMatchObject({
      status: 401,
      type: stringMatching(/^application\/problem\+json/),
      body: { status: 401 },
    });

    // The verifier that cached it keeps answering from its cache until told to forget the user.
    await expect(cached.verify(token)).resolves.toMatchObject({ uid: user.uid });
    cached.forgetUser(user.uid);
    await expectRefused(cached.verify(token), /signed out everywhere/);
  });

  it("signing in again after the revocation gives a token that is accepted", async () => {
    // auth_time of a sign-in after the revocation is at least tokensValidAfterTime (same second counts as valid).
    const fresh = await signInWithPassword(user.email, PASSWORD);
    await expect(createTokenVerifier(auth).verify(fresh)).resolves.toMatchObject({ uid: user.uid });
  });
});

describe("disabled users", () => {
  it("a token of a user disabled after signing in is refused, and accepted again once re-enabled", async () => {
    const other = await throwawayUser();
    const token = await signInWithPassword(other.email, PASSWORD);
    await expect(createTokenVerifier(auth).verify(token)).resolves.toMatchObject({ uid: other.uid });

    await auth.updateUser(other.uid, { disabled: true });
    await expectRefused(createTokenVerifier(auth).verify(token), /disabled/);
    expect(await viaApi(token)).toMatchObject({
      status: 401,
      type: stringMatching(/^application\/problem\+json/),
      body: { status: 401 },
    });
    await expect(signInWithPassword(other.email, PASSWORD)).rejects.toThrow(/USER_DISABLED/);

    await auth.updateUser(other.uid, { disabled: false });
    await expect(createTokenVerifier(auth).verify(token)).resolves.toMatchObject({ uid: other.uid });
  });

  it("a token of a deleted user is refused", async () => {
    const gone = await throwawayUser();
    const token = await signInWithPassword(gone.email, PASSWORD);
    await auth.deleteUser(gone.uid);
    await expectRefused(createTokenVerifier(auth).verify(token), /not valid|does not exist/);
  });
});

describe("seeding sign-ins", () => {
  // Both integration projects seed the same demo users into one emulator at the same moment.
  it("two concurrent seedings of the same new users both succeed, and the users can sign in", async () => {
    const id = randomUUID().slice(0, 8);
    const users = [0, 1].map((i) => ({
      uid: `seed-race-${id}-${i}`,
      email: `seed-race-${id}-${i}@example.test`,
      password: PASSWORD,
      displayName: "Seed Race",
      role: "agent" as const,
      operator: "ATT",
    }));
    created.push(...users.map((u) => u.uid));
    const results = await Promise.all([seedAuthUsers(auth, users), seedAuthUsers(auth, users)]);
    expect(results[0].created + results[1].created).toBe(2);
    const token = await signInWithPassword(users[1]!.email, PASSWORD);
    await expect(createTokenVerifier(auth).verify(token)).resolves.toMatchObject({
      uid: users[1]!.uid,
      role: "agent",
      operator: "ATT",
    });
  });
});
