import { describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import {
  createEventBus,
  MAX_PAYLOAD_BYTES,
  parsePayload,
  toPayloads,
  type ResourceEvent,
} from "../../server/live/eventBus";
import { liveResources, mayReceive } from "../../server/live/eventScope";

const alex = { uid: "alex", role: "subscriber" as const, operator: "ATT" };
const sam = { uid: "sam", role: "subscriber" as const, operator: "ATT" };
const agent = { uid: "agent", role: "agent" as const, operator: "ATT" };
const admin = { uid: "admin", role: "admin" as const, operator: "ATT" };
const tmoAdmin = { uid: "tmo-admin", role: "admin" as const, operator: "TMO" };

const event = (resource: string, extra: Partial<ResourceEvent> = {}): ResourceEvent => ({
  operator: "ATT",
  resource,
  type: "updated",
  ids: ["id-1"],
  at: "2026-01-01T00:00:00.000Z",
  ...extra,
});
const hears = (principal: typeof alex | typeof agent | typeof admin | typeof tmoAdmin, e: ResourceEvent) =>
  mayReceive(principal, liveResources[e.resource], e);

describe("mayReceive: who hears an event", () => {
  it("never another operator's events, whatever the role", () => {
    expect(hears(tmoAdmin, event("staff"))).toBe(false);
    expect(hears(tmoAdmin, event("lines"))).toBe(false);
    expect(hears(tmoAdmin, event("staff", { operator: "TMO" }))).toBe(true);
  });

  it("'all' scope: every event of the resource", () => {
    expect(hears(admin, event("staff"))).toBe(true);
    expect(hears(agent, event("lines"))).toBe(true);
    expect(hears(agent, event("security-policy"))).toBe(true);
    expect(hears(agent, event("plans"))).toBe(true);
  });

  it("'own' scope: only events naming the subscriber among the owners", () => {
    expect(hears(alex, event("lines", { ownerUids: ["alex"] }))).toBe(true);
    expect(hears(sam, event("lines", { ownerUids: ["alex"] }))).toBe(false);
    expect(hears(alex, event("lines"))).toBe(false);
    expect(hears(alex, event("lines", { ownerUids: [] }))).toBe(false);
  });

  it("no scope: nothing (staff for agents and subscribers, the policy for subscribers)", () => {
    expect(hears(agent, event("staff"))).toBe(false);
    expect(hears(alex, event("staff", { ownerUids: ["alex"] }))).toBe(false);
    expect(hears(alex, event("security-policy"))).toBe(false);
  });

  it("unknown resources: nothing", () => {
    expect(mayReceive(admin, undefined, event("bogus"))).toBe(false);
    expect(liveResources.constructor).toBe(Object);
    expect(Object.hasOwn(liveResources, "toString")).toBe(false);
  });
});

describe("NOTIFY payloads", () => {
  it("an event is one payload when it fits, and parses back", () => {
    const e = event("staff", { ids: ["a", "b"], ownerUids: ["x"] });
    const payloads = toPayloads(e);
    expect(payloads).toHaveLength(1);
    expect(parsePayload(payloads[0]!)).toEqual(e);
  });

  it("long id lists are split into payloads under the limit, keeping every id once", () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    const payloads = toPayloads(event("lines", { ids, ownerUids: ["alex"] }));
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const parsed = payloads.map((p) => parsePayload(p)!);
    expect(parsed.flatMap((e) => e.ids)).toEqual(ids);
    expect(parsed.every((e) => e.ownerUids?.[0] === "alex" && e.resource === "lines")).toBe(true);
  });

  it("anything else on the channel is dropped", () => {
    for (const text of [
      "",
      "not json",
      "{}",
      JSON.stringify({ ...event("staff"), type: "exploded" }),
      JSON.stringify({ ...event("staff"), ids: "x" }),
    ]) {
      expect(parsePayload(text)).toBeNull();
    }
  });
});

describe("createEventBus", () => {
  it("without LISTEN (a stand-in database) fans out within the process", async () => {
    const bus = createEventBus({ db: {} as never });
    await bus.ready;
    const seen: ResourceEvent[] = [];
    const unsubscribe = bus.subscribe((e) => seen.push(e));
    await bus.publish(event("staff"));
    unsubscribe();
    await bus.publish(event("plans"));
    expect(seen.map((e) => e.resource)).toEqual(["staff"]);
    await bus.close();
  });

  it("on PGlite goes through NOTIFY to every bus of the instance; a failing subscriber harms no other", async () => {
    const client = await PGlite.create("memory://");
    const database = { db: drizzle(client) as never, notifications: { driver: "pglite" as const, client } };
    const a = createEventBus(database);
    const b = createEventBus(database);
    await Promise.all([a.ready, b.ready]);
    const onA: string[] = [];
    const onB: string[] = [];
    a.subscribe(() => {
      throw new Error("boom");
    });
    a.subscribe((e) => onA.push(e.ids[0]!));
    b.subscribe((e) => onB.push(e.ids[0]!));
    await a.publish(event("staff", { ids: ["one"] }));
    await b.publish(event("staff", { ids: ["two"] }));
    await expect
      .poll(() => [onA, onB])
      .toEqual([
        ["one", "two"],
        ["one", "two"],
      ]);
    await a.close();
    await b.publish(event("staff", { ids: ["three"] }));
    await expect.poll(() => onB).toEqual(["one", "two", "three"]);
    expect(onA).toEqual(["one", "two"]);
    await b.close();
    await client.close();
  }, 30_000);
});
