import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { joinPresence, type PresentViewer } from "../../src/providers/rtdb/presence";
import { rtdbRules } from "../../src/providers/rtdb/rtdbRules";
import { resources } from "../../src/resources";
import { presencePlace, presenceResource } from "../../src/resources/presence";
import { createRtdbStandInServer, type RtdbStandInClient, type StandInAuth } from "../support/rtdbStandIn";

// Presence (issue 27, item 8) on the in-memory stand-in of the Realtime Database, under the rules
// generated from the declaration: the database's emulator cannot run on these machines.

const OPERATOR = "op-a";
const PLACE = presencePlace("subscriber", "acc-1")!;
const NOW = 1_790_000_000_000;

const staff = (uid: string, role = "agent", operator = OPERATOR): StandInAuth => ({ uid, token: { role, operator } });
const maria = { uid: "uid-maria", name: "Maria Lopez" };
const ken = { uid: "uid-ken", name: "Ken Ito" };
const ana = { uid: "uid-ana", name: "Ana Ruiz" };

/** A database under the committed rules, with a clock that moves only when a test says so. */
function database() {
  let clock = NOW;
  const server = createRtdbStandInServer({ rules: rtdbRules(resources).rules, now: () => clock });
  return { server, tick: (ms: number) => (clock += ms) };
}

/** One person on a place: what they see of the others, and how to leave. */
function join(db: RtdbStandInClient, viewer: { uid: string; name: string }, place = PLACE) {
  const seen: { others: PresentViewer[]; errors: unknown[] } = { others: [], errors: [] };
  const leave = joinPresence(db, {
    resource: presenceResource.name,
    operator: OPERATOR,
    place,
    viewer,
    onOthers: (others) => (seen.others = others),
    onError: (error) => seen.errors.push(error),
  });
  return { seen, leave, names: () => seen.others.map((o) => o.name) };
}

const entryPath = (uid: string, place = PLACE) => `presence/${OPERATOR}/${place}/${uid}`;

describe("presence on the Realtime Database (in-memory stand-in, generated rules)", () => {
  it("two agents on one subscriber's 360 see each other, in the order they came; a ticket's viewers are elsewhere", async () => {
    const { server, tick } = database();
    const a = join(server.connect(staff(maria.uid)), maria);
    await vi.waitFor(() => expect(server.root()).toHaveProperty(["presence", OPERATOR, PLACE, maria.uid]));
    tick(5_000);
    const k = join(server.connect(staff(ken.uid, "admin")), ken);
    const t = join(server.connect(staff(ana.uid)), ana, presencePlace("ticket", "t-9"));

    await vi.waitFor(() => expect(a.names()).toEqual(["Ken Ito"]));
    await vi.waitFor(() => expect(k.names()).toEqual(["Maria Lopez"]));
    // `since` is the server's clock, not the browser's.
    expect(k.seen.others[0]).toEqual({ uid: maria.uid, name: "Maria Lopez", since: NOW });
    expect(a.seen.others[0]!.since).toBe(NOW + 5_000);
    expect(t.names()).toEqual([]);
    expect([...a.seen.errors, ...k.seen.errors, ...t.seen.errors]).toEqual([]);
  });

  it("a dropped connection removes the entry through onDisconnect; reconnecting writes it again", async () => {
    const { server } = database();
    const mariaDb = server.connect(staff(maria.uid));
    join(mariaDb, maria);
    const k = join(server.connect(staff(ken.uid)), ken);
    await vi.waitFor(() => expect(k.names()).toEqual(["Maria Lopez"]));

    mariaDb.goOffline(); // a closed laptop lid: Maria never says goodbye, the server removes her entry
    await vi.waitFor(() => expect(k.names()).toEqual([]));
    expect(server.root()).not.toHaveProperty(["presence", OPERATOR, PLACE, maria.uid]);

    mariaDb.goOnline(); // the server's onDisconnect acted once: she asks again and writes again
    await vi.waitFor(() => expect(k.names()).toEqual(["Maria Lopez"]));
    mariaDb.goOffline();
    await vi.waitFor(() => expect(k.names()).toEqual([]));
  });

  it("leaving removes the entry; a second tab of the same person keeps them present", async () => {
    const { server } = database();
    const tab1 = join(server.connect(staff(maria.uid)), maria);
    const tab2 = join(server.connect(staff(maria.uid)), maria);
    const k = join(server.connect(staff(ken.uid)), ken);
    await vi.waitFor(() => expect(k.names()).toEqual(["Maria Lopez"]));
    expect(tab1.names()).toEqual(["Ken Ito"]); // never herself

    tab1.leave();
    await vi.waitFor(() => expect(server.root()).toHaveProperty(["presence", OPERATOR, PLACE, maria.uid]));
    expect(k.names()).toEqual(["Maria Lopez"]);

    tab2.leave();
    await vi.waitFor(() => expect(k.names()).toEqual([]));
    k.leave();
    await vi.waitFor(() => expect(server.root()).toBeNull());
  });

  it("the rules let a viewer write and remove only their own entry", async () => {
    const { server } = database();
    const mariaDb = server.connect(staff(maria.uid));
    join(mariaDb, maria);
    await vi.waitFor(() => expect(server.root()).toHaveProperty(["presence", OPERATOR, PLACE, maria.uid]));
    const kenDb = server.connect(staff(ken.uid));
    const entry = { name: "Ken Ito", since: NOW };

    await expect(kenDb.set(entryPath(maria.uid), entry)).rejects.toThrow(/permission_denied/i);
    await expect(kenDb.remove(entryPath(maria.uid))).rejects.toThrow(/permission_denied/i);
    await expect(kenDb.update(entryPath(maria.uid), { name: "Someone else" })).rejects.toThrow(/permission_denied/i);
    await expect(kenDb.onDisconnectRemove(entryPath(maria.uid))).rejects.toThrow(/permission_denied/i);
    expect(server.root()).toHaveProperty(["presence", OPERATOR, PLACE, maria.uid, "name"], "Maria Lopez");

    // His own: yes, but only as the declaration's fields say (both, of their types, nothing more).
    await expect(kenDb.set(entryPath(ken.uid), entry)).resolves.toBeUndefined();
    await expect(kenDb.set(entryPath(ken.uid), { name: "Ken Ito" })).rejects.toThrow(/permission_denied/i);
    await expect(kenDb.set(entryPath(ken.uid), { name: 7, since: NOW })).rejects.toThrow(/permission_denied/i);
    await expect(kenDb.set(entryPath(ken.uid), { ...entry, email: "ken@example.com" })).rejects.toThrow(
      /permission_denied/i,
    );
    await expect(kenDb.remove(entryPath(ken.uid))).resolves.toBeUndefined();
  });

  it("only staff of the operator read a place: not another operator's, not a subscriber, not someone signed out", async () => {
    const { server } = database();
    join(server.connect(staff(maria.uid)), maria);
    const place = `presence/${OPERATOR}/${PLACE}`;
    await vi.waitFor(async () => expect(await server.connect(staff(ken.uid)).read(place)).not.toBeNull());

    for (const outsider of [
      staff("uid-other", "agent", "op-b"),
      staff("uid-sam", "subscriber"),
      null, // signed out
    ]) {
      const db = server.connect(outsider);
      await expect(db.read(place)).rejects.toThrow(/permission_denied/i);
      await expect(db.set(`${place}/${outsider?.uid ?? "anyone"}`, { name: "X", since: NOW })).rejects.toThrow(
        /permission_denied/i,
      );
      // Listening is refused as a whole: joining shows nobody (and writes nothing).
      const o = join(db, { uid: outsider?.uid ?? "anyone", name: "X" });
      await vi.waitFor(() => expect(o.seen.errors).toHaveLength(1));
      expect(o.names()).toEqual([]);
    }
    // The whole operator's tree is not listable either: a place is read one at a time.
    await expect(server.connect(staff(ken.uid)).read(`presence/${OPERATOR}`)).rejects.toThrow(/permission_denied/i);
  });
});

describe("presence rules are generated from the declaration", () => {
  it("the committed database.rules.json is what the generator makes from the registry", () => {
    const file: unknown = JSON.parse(readFileSync(new URL("../../database.rules.json", import.meta.url), "utf8"));
    expect(file).toEqual(rtdbRules(resources));
    expect(file).toHaveProperty(["rules", "presence", "$operator", "$group", "$uid", ".write"]);
  });

  it("follows the declaration's access: a role that may not list reads nothing, one with scope all writes anyone's", async () => {
    const declared = {
      ...presenceResource,
      access: { list: { admin: "all" }, create: { admin: "all" }, delete: { admin: "own" } },
    } as const;
    const server = createRtdbStandInServer({ rules: rtdbRules([declared]).rules, now: () => NOW });
    const place = `presence/${OPERATOR}/${PLACE}`;
    const agent = server.connect(staff(ken.uid, "agent"));
    const admin = server.connect(staff(ana.uid, "admin"));
    await expect(agent.set(`${place}/${ken.uid}`, { name: "Ken Ito", since: NOW })).rejects.toThrow(
      /permission_denied/i,
    );
    await expect(admin.set(`${place}/${maria.uid}`, { name: "Maria Lopez", since: NOW })).resolves.toBeUndefined();
    await expect(agent.read(place)).rejects.toThrow(/permission_denied/i);
    expect(await admin.read(place)).toEqual({ [maria.uid]: { name: "Maria Lopez", since: NOW } });
    // delete is "own": writing anyone's entry does not let an admin remove it.
    await expect(admin.remove(`${place}/${maria.uid}`)).rejects.toThrow(/permission_denied/i);
  });
});
