import type { Auth, DecodedIdToken, UserRecord } from "firebase-admin/auth";
import { describe, expect, it } from "vitest";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { ProblemError } from "../../server/errors";

// The verifier's cache and its record check, over a stand-in for firebase-admin that counts calls.
// The real Auth emulator is exercised in tests/integration/tokenRevocation.test.ts.

const NOW = 1_800_000_000_000;

function tokenOf(uid: string, claims: Record<string, unknown> = {}, exp = NOW / 1000 + 3600) {
  const payload = { sub: uid, uid, auth_time: NOW / 1000 - 60, exp, ...claims };
  return `h.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.s`;
}

function firebase() {
  const state = {
    calls: 0,
    checkRevoked: [] as boolean[],
    revoked: new Set<string>(),
    claims: new Map<string, Record<string, unknown>>(),
    /** Lets a test run something while a verification is under way. */
    during: null as null | (() => void),
  };
  const auth = {
    verifyIdToken(token: string, checkRevoked?: boolean) {
      state.calls++;
      state.checkRevoked.push(checkRevoked === true);
      const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as DecodedIdToken;
      state.during?.();
      if (state.revoked.has(payload.uid))
        return Promise.reject(Object.assign(new Error("revoked"), { code: "auth/id-token-revoked" }));
      return Promise.resolve(payload);
    },
    getUser(uid: string) {
      return Promise.resolve({
        uid,
        disabled: false,
        customClaims: state.claims.get(uid) ?? {},
      } as unknown as UserRecord);
    },
  } as unknown as Auth;
  return { auth, state };
}

function clock() {
  let now = NOW;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return (error as ProblemError).message; // the detail in English
}

describe("token verifier", () => {
  it("returns who signed in, with auth_time as authTime, and always asks Firebase to check revocation", async () => {
    const { auth, state } = firebase();
    state.claims.set("u1", { role: "agent", operator: "ATT" });
    const user = await createTokenVerifier(auth).verify(
      tokenOf("u1", { role: "agent", operator: "ATT", firebase: { sign_in_second_factor: "phone" } }),
    );
    expect(user).toMatchObject({
      uid: "u1",
      role: "agent",
      operator: "ATT",
      secondFactor: "phone",
      authTime: NOW / 1000 - 60,
    });
    expect(state.checkRevoked).toEqual([true]);
  });

  it("reads trust the cache for cacheSeconds, never past exp", async () => {
    const { auth, state } = firebase();
    const c = clock();
    const verifier = createTokenVerifier(auth, { cacheSeconds: 10, now: c.now });
    const token = tokenOf("u1");
    await verifier.verify(token);
    c.advance(9_999);
    await verifier.verify(token);
    expect(state.calls).toBe(1);
    c.advance(1);
    await verifier.verify(token);
    expect(state.calls).toBe(2);

    const expiring = tokenOf("u2", {}, NOW / 1000 + 10_000 / 1000 + 3); // exp 3 s after the second verification above
    await verifier.verify(expiring);
    c.advance(3_000);
    await verifier.verify(expiring);
    expect(state.calls).toBe(4);
  });

  it("cacheSeconds 0 turns the cache off", async () => {
    const { auth, state } = firebase();
    const verifier = createTokenVerifier(auth, { cacheSeconds: 0 });
    for (let i = 0; i < 3; i++) await verifier.verify(tokenOf("u1"));
    expect(state.calls).toBe(3);
  });

  it("a fresh verification skips the cache, and its refusal drops the cached entry", async () => {
    const { auth, state } = firebase();
    const verifier = createTokenVerifier(auth);
    const token = tokenOf("u1");
    await verifier.verify(token);
    await verifier.verify(token, { fresh: true });
    expect(state.calls).toBe(2);
    state.revoked.add("u1"); // revoked outside the portal
    await verifier.verify(token); // a read may still be answered from the cache
    expect(state.calls).toBe(2);
    expect(await refusal(verifier.verify(token, { fresh: true }))).toMatch(/signed out everywhere/);
    expect(await refusal(verifier.verify(token))).toMatch(/signed out everywhere/);
  });

  it("forgetUser drops that user's entries only; forgetAll drops every entry", async () => {
    const { auth, state } = firebase();
    const verifier = createTokenVerifier(auth);
    const [a, b] = [tokenOf("u1"), tokenOf("u2")];
    await verifier.verify(a);
    await verifier.verify(b);
    verifier.forgetUser("u1");
    await verifier.verify(a);
    await verifier.verify(b);
    expect(state.calls).toBe(3);
    verifier.forgetAll();
    await verifier.verify(a);
    await verifier.verify(b);
    expect(state.calls).toBe(5);
  });

  it("a verification under way while its user is forgotten is not cached", async () => {
    const { auth, state } = firebase();
    const verifier = createTokenVerifier(auth);
    const token = tokenOf("u1");
    state.during = () => verifier.forgetUser("u1"); // the invalidation arrives mid-verification
    await verifier.verify(token);
    state.during = null;
    await verifier.verify(token);
    expect(state.calls).toBe(2);
  });

  it("a token whose role or operator is not the account's is refused", async () => {
    const { auth, state } = firebase();
    state.claims.set("u1", { role: "agent", operator: "ATT" });
    const verifier = createTokenVerifier(auth);
    expect(await refusal(verifier.verify(tokenOf("u1", { role: "admin", operator: "ATT" })))).toMatch(
      /role does not match/,
    );
    expect(await refusal(verifier.verify(tokenOf("u1", { role: "agent", operator: "TMO" })))).toMatch(
      /role does not match/,
    );
    expect(await refusal(verifier.verify(tokenOf("u1")))).toMatch(/role does not match/);
  });
});
