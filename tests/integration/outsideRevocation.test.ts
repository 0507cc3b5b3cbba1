import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateRequest } from "../../server/auth/requestAuth";
import { createOperatorDirectory } from "../../server/auth/operatorSettings";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";
import { signInWithPassword, startTestBackend, type TestBackend, type TestInstance } from "../support/testBackend";
import { clockPastSignInOf, waitFor } from "../support/waitFor";
import { listenOn, openLiveStream, type LiveStream } from "../support/liveStream";
import { ALEX } from "../support/fixtures";
import { stringMatching } from "../support/matchers";

// Revocations made outside the portal (the Firebase console, the Admin SDK of another service),
// which no instance is told of: made here through the emulator's REST API. Writes and reads of
// secrets ask Firebase at once; other reads may trust a cached verification for TOKEN_CACHE_SECONDS
// (2 s in this suite). Every user here is a throwaway user.

const PASSWORD = "Throwaway-2026!";
const TOKEN_CACHE_SECONDS = 2;
const database = process.env.TEST_DB ?? "pglite";

let backend: TestBackend;
/** An instance whose reads trust the cache for 30 s, beside which a secret route is refused at once. */
let longCache: TestInstance;
const created: string[] = [];

beforeAll(async () => {
  backend = await startTestBackend({ tokenCacheSeconds: TOKEN_CACHE_SECONDS });
  longCache = await backend.startAnotherInstance({ tokenCacheSeconds: 30 });
  // A route marked secret, as the routes revealing a PUK, a port-out PIN or payment methods will be.
  await longCache.app.register(
    (v1) => {
      v1.addHook("onRequest", authenticateRequest(longCache.verifier, createOperatorDirectory(backend.database.db)));
      v1.get("/test-secret", { config: { secret: true } }, () => Promise.resolve({ puk: "12345678" }));
      return Promise.resolve();
    },
    { prefix: "/api/v1" },
  );
});

afterAll(async () => {
  if (!backend) return;
  await Promise.all(created.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
  await backend.close();
});

/**
 * A subscriber signed in twice: two sessions whose tokens differ (the emulator's tokens carry whole
 * seconds, so the second sign-in waits for the next second), each with its own cache entry.
 */
async function subscriberWithTwoSessions(tag: string) {
  const email = `${tag}-${randomUUID()}@example.test`;
  const { uid } = await backend.auth.createUser({ email, password: PASSWORD });
  created.push(uid);
  await backend.auth.setCustomUserClaims(uid, { role: "subscriber", operator: "ATT" });
  const first = await signInWithPassword(email, PASSWORD);
  await clockPastSignInOf(first);
  return { uid, tokens: [first, await signInWithPassword(email, PASSWORD)] as const };
}

/** What another service would do: the Identity Toolkit's accounts:update, with the emulator's owner credentials. */
async function updateAccountOutside(body: Record<string, unknown>) {
  const res = await fetch(
    `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:update`,
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer owner" },
      body: JSON.stringify(body),
    },
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

/** A write any subscriber may make, changing nothing that matters here (email alerts at 80 % off). */
const write = (instance: TestInstance, token: string) =>
  instance.send("PUT", "/api/v1/me/notification-preferences", {
    token,
    body: { usage80: { email: false, sms: false } },
  });
const read = (instance: TestInstance, token: string) => instance.get("/api/v1/plans", { token });

/** Polls a cached read until it is refused (by TOKEN_CACHE_SECONDS plus a generous margin); prints the seconds since the change. */
async function readRefusedAfter(change: string, changedAt: number, token: string) {
  const { value: res } = await waitFor(
    `a cached read to be refused after ${change}`,
    async () => {
      const res = await read(backend, token);
      return res.statusCode === 200 ? false : res;
    },
    { timeoutMs: TOKEN_CACHE_SECONDS * 1000 + 10_000, intervalMs: 50 },
  );
  const seconds = (Date.now() - changedAt) / 1000;
  console.log(
    `outside ${change} (${database}): a cached read refused after ${seconds.toFixed(2)} s (TOKEN_CACHE_SECONDS=${TOKEN_CACHE_SECONDS})`,
  );
  return { res };
}

describe("a revocation made outside the portal", () => {
  it("validSince: the next write is refused at once; a cached read within TOKEN_CACHE_SECONDS", async () => {
    const { uid, tokens } = await subscriberWithTwoSessions("valid-since");
    const [writer, reader] = tokens;
    expect((await write(backend, writer)).statusCode).toBe(200);
    for (const token of tokens) expect((await read(backend, token)).statusCode).toBe(200); // both cached now

    await clockPastSignInOf(reader);
    const revokedAt = Date.now();
    await updateAccountOutside({ localId: uid, validSince: String(Math.floor(revokedAt / 1000)) });

    const refused = await write(backend, writer);
    expect(refused.statusCode, refused.body).toBe(401);
    expect(refused.json()).toMatchObject({ detail: stringMatching(/signed out everywhere/) });

    const { res } = await readRefusedAfter("revocation (validSince)", revokedAt, reader);
    expect(res.json()).toMatchObject({ status: 401, detail: stringMatching(/signed out everywhere/) });
  });

  it("disableUser: the next write is refused at once; a cached read within TOKEN_CACHE_SECONDS", async () => {
    const { uid, tokens } = await subscriberWithTwoSessions("disable-outside");
    const [writer, reader] = tokens;
    for (const token of tokens) expect((await read(backend, token)).statusCode).toBe(200);

    const disabledAt = Date.now();
    await updateAccountOutside({ localId: uid, disableUser: true });

    const refused = await write(backend, writer);
    expect(refused.statusCode, refused.body).toBe(401);
    expect(refused.json()).toMatchObject({ detail: stringMatching(/disabled/) });

    const { res } = await readRefusedAfter("disable", disabledAt, reader);
    expect(res.json()).toMatchObject({ detail: stringMatching(/disabled/) });
  });

  it("a route marked secret is refused at once, while an ordinary read still trusts the cache", async () => {
    const { uid, tokens } = await subscriberWithTwoSessions("secret");
    const [revealer, reader] = tokens;
    expect((await longCache.get("/api/v1/test-secret", { token: revealer })).json()).toEqual({ puk: "12345678" });
    expect((await read(longCache, reader)).statusCode).toBe(200);

    await updateAccountOutside({ localId: uid, disableUser: true });

    const secret = await longCache.get("/api/v1/test-secret", { token: revealer });
    expect(secret.statusCode, secret.body).toBe(401);
    // This instance caches reads for 30 s and was told nothing: the other session still reads.
    expect((await read(longCache, reader)).statusCode).toBe(200);
  });
});

describe("an open live stream, when access is revoked outside the portal", () => {
  let base: string | undefined;
  const streams: LiveStream[] = [];
  afterAll(() => streams.forEach((stream) => stream.close()));

  /** A stream of `token` on the main instance, and whether it has ended yet. */
  async function follow(token: string) {
    base ??= await listenOn(backend.app);
    const stream = await openLiveStream(base, "lines", { token });
    streams.push(stream);
    expect(stream.status).toBe(200);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    return { stream, ended: () => ended };
  }

  /** Waits for the stream to end, within TOKEN_CACHE_SECONDS plus a margin; prints the seconds since the change. */
  async function endsAfter(change: string, changedAt: number, stream: { ended: () => boolean }) {
    await waitFor(`the live stream to end after ${change}`, () => stream.ended(), {
      timeoutMs: TOKEN_CACHE_SECONDS * 1000 + 10_000,
      intervalMs: 50,
    });
    console.log(
      `outside ${change} (${database}): the live stream ended after ${((Date.now() - changedAt) / 1000).toFixed(2)} s (TOKEN_CACHE_SECONDS=${TOKEN_CACHE_SECONDS})`,
    );
  }

  it.each([
    ["revocation (validSince)", (uid: string) => ({ localId: uid, validSince: String(Math.floor(Date.now() / 1000)) })],
    ["disable", (uid: string) => ({ localId: uid, disableUser: true })],
  ])("%s: the stream ends within TOKEN_CACHE_SECONDS; other users' streams go on", async (change, update) => {
    const { uid, tokens } = await subscriberWithTwoSessions(`live-${change.split(" ")[0]}`);
    const revoked = await follow(tokens[0]);
    const bystander = await follow(await backend.tokenFor(ALEX));

    await clockPastSignInOf(tokens[1]);
    const changedAt = Date.now();
    await updateAccountOutside(update(uid));
    await endsAfter(change, changedAt, revoked);
    expect(bystander.ended()).toBe(false);
    bystander.stream.close();
  });
});
