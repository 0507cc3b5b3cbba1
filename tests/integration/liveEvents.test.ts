import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { buildApp } from "../../server/app";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { createEventBus, type EventBus } from "../../server/live/eventBus";
import type { StaffInviteResult } from "../../src/resources/staff";
import { adminWithSecondFactor, signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, AGENT, ADMIN, SAM, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { LIVE_STREAMS_PER_USER } from "../../server/routes/liveEvents";
import { clockPastSignInOf } from "../support/waitFor";
import { listenOn, openLiveStream, type LiveStream } from "../support/liveStream";
import { anyString, stringContaining } from "../support/matchers";

// GET /api/v1/live over real HTTP (tests/support/liveStream.ts), on the real
// database (TEST_DB) and the real Auth emulator. Users whose role changes are invited here.
const PASSWORD = "Throwaway-2026!";

let backend: TestBackend;
let baseA: string;
const invited: string[] = [];
const streams: LiveStream[] = [];
const freshEmail = (tag: string) => `${tag}-${randomUUID()}@example.test`;

/** Opens the stream like a browser would (query credentials), or with headers; closed after the suite. */
async function openLive(
  base: string,
  resources: string,
  options: { as?: string; token?: string; operator?: string; headers?: boolean } = {},
): Promise<LiveStream> {
  const token = options.token ?? (options.as ? await backend.tokenFor(options.as) : undefined);
  const stream = await openLiveStream(base, resources, { ...options, token });
  streams.push(stream);
  return stream;
}

function invite(body: unknown, options: { as?: string; operator?: string } = {}) {
  return backend.send("POST", "/api/v1/staff", {
    as: options.as ?? ADMIN,
    operator: options.operator,
    body,
    headers: { "idempotency-key": randomUUID() },
  });
}

async function invitedStaff(role: "agent" | "admin", tag: string) {
  const res = await invite({ email: freshEmail(tag), role, displayName: `Live ${tag}` });
  expect(res.statusCode, res.body).toBe(201);
  const { member } = res.json<StaffInviteResult>();
  invited.push(member.uid);
  return member;
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  baseA = await listenOn(backend.app);
});

afterAll(async () => {
  streams.forEach((s) => s.close());
  if (backend) {
    await Promise.all(invited.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
    await backend.close();
  }
});

describe("GET /api/v1/live: who may follow what", () => {
  it("401 without a token or with a bad one, in the query or the headers", async () => {
    for (const stream of [
      await openLive(baseA, "staff"),
      await openLive(baseA, "staff", { token: "not-a-token" }),
      await openLive(baseA, "staff", { token: "not-a-token", headers: true }),
    ]) {
      expect(stream.status).toBe(401);
      expect(stream.header("content-type")).toMatch(/^application\/problem\+json/);
    }
  });

  it("403 for another operator than the caller's, given in the query or the header", async () => {
    const query = await openLive(baseA, "staff", { as: ADMIN, operator: "TMO" });
    expect(query.status).toBe(403);
    expect((await query.problem()).detail).toMatch(/TMO/);
    expect((await openLive(baseA, "staff", { as: ADMIN, operator: "TMO", headers: true })).status).toBe(403);
  });

  it("400 naming resources when one is unknown or none is given", async () => {
    for (const resources of ["staff,bogus", "", " , "]) {
      const stream = await openLive(baseA, resources, { as: ADMIN });
      expect(stream.status).toBe(400);
      expect((await stream.problem()).errors?.map((e) => e.path)).toEqual(["resources"]);
    }
  });

  it("403 for resources the caller may not list: subscribers and agents and staff", async () => {
    const subscriber = await openLive(baseA, "staff", { as: ALEX });
    expect(subscriber.status).toBe(403);
    expect((await subscriber.problem()).detail).toMatch(/staff/);
    expect((await openLive(baseA, "lines,security-policy", { as: ALEX })).status).toBe(403);
    expect((await openLive(baseA, "staff", { as: AGENT })).status).toBe(403);
  });

  it("200 with the SSE headers and a retry hint for what the caller may list", async () => {
    for (const [as, resources] of [
      [ALEX, "lines"],
      [AGENT, "lines,plans,security-policy"],
    ] as const) {
      const stream = await openLive(baseA, resources, { as, headers: as === AGENT });
      expect(stream.status).toBe(200);
      expect(stream.header("content-type")).toMatch(/^text\/event-stream/);
      expect(stream.header("cache-control")).toBe("no-store");
      expect(stream.header("x-accel-buffering")).toBe("no");
      await expect.poll(() => stream.text()).toMatch(/^retry: 3000\n/);
      stream.close();
    }
  });
});

describe("GET /api/v1/live: events", () => {
  it("an admin following staff hears another admin's invitation and change: ids only, nothing of the record", async () => {
    const listener = await invitedStaff("admin", "listener");
    await backend.auth.updateUser(listener.uid, { password: PASSWORD });
    const token = await signInWithPassword(listener.email, PASSWORD);
    const stream = await openLive(baseA, "staff", { token });
    expect(stream.status).toBe(200);

    const member = await invitedStaff("agent", "heard");
    const created = await stream.next();
    expect(created).toEqual({ resource: "staff", type: "created", ids: [member.uid], at: anyString() });
    expect(stream.text()).not.toContain(member.email);

    const res = await backend.send("PATCH", `/api/v1/staff/${member.uid}`, {
      as: ADMIN,
      body: { role: "admin", reason: "Live events test" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stream.next()).toMatchObject({ resource: "staff", type: "updated", ids: [member.uid] });
    stream.close();
  });

  it("events stay within the operator; agents hear the security policy change", async () => {
    const agent = await openLive(baseA, "security-policy,lines", { as: AGENT });
    const tmo = await openLive(baseA, "staff,security-policy", { as: TMO_ADMIN, operator: "TMO" });
    expect([agent.status, tmo.status]).toEqual([200, 200]);

    await invitedStaff("agent", "att-only"); // ATT staff: not for TMO, not followed by the agent
    const put = await backend.send("PUT", "/api/v1/security-policy", {
      as: ADMIN,
      body: { requireStaffMfa: false, reason: "Live events test" },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await agent.next()).toMatchObject({ resource: "security-policy", type: "updated", ids: ["ATT"] });

    // NOTIFY arrives in commit order: had TMO's stream been told of ATT's invitation, it would come first.
    const tmoPut = await backend.send("PUT", "/api/v1/security-policy", {
      as: TMO_ADMIN,
      operator: "TMO",
      body: { requireStaffMfa: false, reason: "Live events test" },
    });
    expect(tmoPut.statusCode, tmoPut.body).toBe(200);
    expect(await tmo.next()).toMatchObject({ resource: "security-policy", type: "updated", ids: ["TMO"] });
    agent.close();
    tmo.close();
  });

  it("access invalidations travel on the same bus but never reach a stream", async () => {
    const member = await invitedStaff("agent", "signs-out");
    await backend.auth.updateUser(member.uid, { password: PASSWORD });
    const token = await signInWithPassword(member.email, PASSWORD);
    const stream = await openLive(baseA, "staff", { as: ADMIN });
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.text()).toMatch(/following staff/);
    const before = stream.text().length;

    // Another listener on the database hears the invalidation, so it was sent.
    const bus = createEventBus(backend.database);
    const heard: string[] = [];
    bus.access.subscribe({ message: (text) => heard.push(text), missed: () => {} });
    try {
      await bus.ready;
      await clockPastSignInOf(token);
      expect((await backend.send("POST", "/api/v1/me/sign-out-everywhere", { token })).statusCode).toBe(204);
      await expect.poll(() => heard).toContainEqual(stringContaining(member.uid));
    } finally {
      await bus.close();
    }

    // The stream's next event is the next resource event; nothing of the invalidation came before it.
    const next = await invitedStaff("agent", "after-sign-out");
    expect(await stream.next()).toMatchObject({ resource: "staff", type: "created", ids: [next.uid] });
    const received = stream.text().slice(before);
    expect(received).not.toContain(member.uid);
    expect(received).not.toContain("kind");
    stream.close();
  });

  it("a stream ends when its user's access changes through another instance, so its token is decided anew", async () => {
    const b = await backend.startAnotherInstance();
    const baseB = await listenOn(b.app);
    const member = await invitedStaff("agent", "demoted");
    await backend.auth.updateUser(member.uid, { password: PASSWORD });
    const onB = await openLive(baseB, "lines", { token: await signInWithPassword(member.email, PASSWORD) });
    const bystander = await openLive(baseB, "staff", { as: ADMIN });
    expect([onB.status, bystander.status]).toEqual([200, 200]);

    const res = await backend.send("PATCH", `/api/v1/staff/${member.uid}`, {
      as: ADMIN,
      body: { disabled: true, reason: "Live events test" },
    });
    expect(res.statusCode, res.body).toBe(200);
    await onB.ended;
    // Other users' streams go on: the admin's still hears the change, which is published after it.
    expect(await bystander.next()).toMatchObject({ resource: "staff", type: "updated", ids: [member.uid] });
    bystander.close();
  });

  it("turning staff MFA on ends the streams of staff without a second factor; the others go on", async () => {
    const admin = await adminWithSecondFactor(backend.auth, PASSWORD);
    invited.push(admin.uid);
    const agent = await openLive(baseA, "security-policy", { as: AGENT });
    const withSecondFactor = await openLive(baseA, "security-policy", { token: admin.token });
    const subscriber = await openLive(baseA, "lines", { as: ALEX });
    expect([agent.status, withSecondFactor.status, subscriber.status]).toEqual([200, 200, 200]);
    let subscriberEnded = false;
    void subscriber.ended.then(() => (subscriberEnded = true));
    try {
      const on = await backend.send("PUT", "/api/v1/security-policy", {
        as: ADMIN,
        body: { requireStaffMfa: true, reason: "Live events test" },
      });
      expect(on.statusCode, on.body).toBe(200);
      await agent.ended;
      expect(await withSecondFactor.next()).toMatchObject({ resource: "security-policy", type: "updated" });
    } finally {
      const off = await backend.send("PUT", "/api/v1/security-policy", {
        token: admin.token,
        body: { requireStaffMfa: false, reason: "Live events test over" },
      });
      expect(off.statusCode, off.body).toBe(200);
    }
    expect(await withSecondFactor.next()).toMatchObject({ resource: "security-policy", type: "updated" });
    // Both changes reached every stream by now (the second event came after them): subscribers are not staff.
    expect(subscriberEnded).toBe(false);
    withSecondFactor.close();
    subscriber.close();
  });

  it("a user holds at most 10 streams: opening the 11th and 12th ends the oldest two, with a word why", async () => {
    const token = await backend.tokenFor(SAM);
    const mine: { stream: LiveStream; ended: boolean }[] = [];
    for (let i = 0; i < LIVE_STREAMS_PER_USER + 2; i++) {
      const entry = { stream: await openLive(baseA, "lines", { token }), ended: false };
      expect(entry.stream.status).toBe(200);
      void entry.stream.ended.then(() => (entry.ended = true));
      mine.push(entry);
    }
    await Promise.all(mine.slice(0, 2).map((entry) => entry.stream.ended));
    expect(mine[0]!.stream.text()).toMatch(/closed: more than 10 open streams/);
    // Someone else's streams are not counted against this user, and the ten newest stay open.
    const other = await openLive(baseA, "lines", { as: ALEX });
    expect(other.status).toBe(200);
    await expect.poll(() => other.text()).toMatch(/following lines/);
    expect(mine.map((entry) => entry.ended)).toEqual([
      true,
      true,
      ...Array<boolean>(LIVE_STREAMS_PER_USER).fill(false),
    ]);
    for (const entry of mine) entry.stream.close();
    other.close();
  });

  it("a disconnected client's subscription is removed", async () => {
    const bus = createEventBus(backend.database);
    let subscribers = 0;
    const counting: EventBus = {
      ...bus,
      subscribe(listener) {
        subscribers++;
        const unsubscribe = bus.subscribe(listener);
        return () => {
          subscribers--;
          unsubscribe();
        };
      },
    };
    await bus.ready;
    const app = await buildApp({
      database: backend.database,
      verifier: createTokenVerifier(backend.auth),
      auth: backend.auth,
      operator: "ATT",
      logLevel: "silent",
      events: counting,
    });
    try {
      const base = await listenOn(app);
      const stream = await openLive(base, "staff", { as: ADMIN });
      expect(stream.status).toBe(200);
      expect(subscribers).toBe(1);
      stream.close();
      await expect.poll(() => subscribers).toBe(0);
      // Closing the server ends the streams still open instead of waiting for them.
      await openLive(base, "staff", { as: ADMIN });
      expect(subscribers).toBe(1);
    } finally {
      await app.close();
      await bus.close();
    }
    expect(subscribers).toBe(0);
  });
});

describe("GET /api/v1/live across backend instances", () => {
  test.runIf(process.env.TEST_DB === "postgres")(
    "a client of instance B hears a write made on instance A (LISTEN/NOTIFY)",
    async () => {
      // Instance B: its own pool and its own LISTEN connection on the same PostgreSQL database.
      const b = await backend.startAnotherInstance();
      const baseB = await listenOn(b.app);
      const onB = await openLive(baseB, "staff", { as: ADMIN });
      const onA = await openLive(baseA, "staff", { as: ADMIN });
      expect([onB.status, onA.status]).toEqual([200, 200]);

      const member = await invitedStaff("agent", "cross"); // written through instance A
      expect(await onB.next()).toMatchObject({ resource: "staff", type: "created", ids: [member.uid] });
      expect(await onA.next()).toMatchObject({ resource: "staff", type: "created", ids: [member.uid] });

      // And the other way round: a write on instance B (its own pool and bus).
      const res = await b.send("PATCH", `/api/v1/staff/${member.uid}`, {
        as: ADMIN,
        body: { disabled: true, reason: "Live events test" },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await onA.next()).toMatchObject({ type: "updated", ids: [member.uid] });
      expect(await onB.next()).toMatchObject({ type: "updated", ids: [member.uid] });
      onA.close();
      onB.close();
    },
  );
});
