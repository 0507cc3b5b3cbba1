import { readFileSync } from "node:fs";
import type { BaseKey, BaseRecord, CrudFilter, DataProvider, LiveEvent } from "@refinedev/core";
import { deleteApp, initializeApp } from "firebase/app";
import { connectDatabaseEmulator, getDatabase, goOffline } from "firebase/database";
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { defineResource } from "../../src/resources/define";
import { resources } from "../../src/resources/index";
import { createRtdbDataProvider } from "../../src/providers/rtdb/rtdbDataProvider";
import { createRtdbLiveProvider, type RtdbSubscription } from "../../src/providers/rtdb/rtdbLiveProvider";
import { firebaseRtdbPort, type RtdbPort, type RtdbQuery } from "../../src/providers/rtdb/rtdbPort";
import { rtdbRules } from "../../src/providers/rtdb/rtdbRules";
import { anyDate } from "../support/matchers";
import { createRtdbStandIn } from "../support/rtdbStandIn";

// One suite, two backends: the in-memory stand-in always, and the official Realtime Database
// emulator when FIREBASE_DATABASE_EMULATOR_HOST is set (its emulator cannot run on the CI machines).

/** A test-only resource (not in the registry). */
const deviceClaims = defineResource({
  name: "device-claims",
  label: "resources.deviceClaims.label",
  icon: "MobileOutlined",
  schema: z.object({
    id: z.string(),
    lineId: z.string(),
    status: z.enum(["open", "approved", "rejected"]),
    amount: z.number(),
    createdAt: z.string(),
    operator: z.string(),
    note: z.string().optional(),
  }),
  recordTitle: "lineId",
  fields: {
    lineId: { label: "fields.line", kind: "id" },
    status: { label: "fields.status", kind: "enum", options: ["open", "approved", "rejected"] },
    amount: { label: "fields.amount", kind: "number" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
  },
  list: {
    columns: ["lineId", "status", "note"],
    defaultSort: [{ field: "createdAt", order: "desc" }],
    sortable: ["createdAt", "amount", "status"],
    filters: {
      status: ["eq", "ne", "in"],
      lineId: ["eq", "in", "startswith"],
      amount: ["gt", "gte", "lt", "lte", "between"],
      note: ["contains"],
    },
    search: { placeholder: "resources.deviceClaims.search" },
  },
  show: ["lineId", "status", "amount", "createdAt"],
  access: { list: { subscriber: "own" }, create: { subscriber: "own" } },
  ownership: { path: "ownerUid" },
  source: "rtdb",
  audit: false,
});

const OWNER = "owner-1";
const OPERATOR = "op-test";
const RESOURCE = "device-claims";
/** A device claim as the tests write it (see `claim` below), read back through the data provider. */
type ClaimRow = { id?: BaseKey; lineId: string; status: string; amount: number; createdAt: string; note?: string };
const ROOT = `${RESOURCE}/${OWNER}`;

interface Backend {
  name: string;
  enabled: boolean;
  open(): Promise<{ port: RtdbPort; close(): Promise<void> }>;
}

const emulatorHost = process.env.FIREBASE_DATABASE_EMULATOR_HOST;
if (!emulatorHost)
  console.info(
    "rtdbDataProvider: emulator backend skipped: FIREBASE_DATABASE_EMULATOR_HOST is not set (see docs/rtdb.md).",
  );

const backends: Backend[] = [
  {
    name: "in-memory stand-in",
    enabled: true,
    open: () => Promise.resolve({ port: createRtdbStandIn(), close: async () => {} }),
  },
  {
    name: emulatorHost
      ? `emulator at ${emulatorHost}`
      : "emulator (skipped: FIREBASE_DATABASE_EMULATOR_HOST is not set)",
    enabled: Boolean(emulatorHost),
    async open() {
      const [hostname, port] = emulatorHost!.split(":");
      const ns = `demo-rtdb-${Date.now().toString(36)}`;
      // A fresh namespace per run, with the generated rules: the suite also runs under them.
      const rules = await fetch(`http://${emulatorHost}/.settings/rules.json?ns=${ns}`, {
        method: "PUT",
        headers: { Authorization: "Bearer owner" },
        body: JSON.stringify(rtdbRules([deviceClaims])),
      });
      expect(rules.status, await rules.text()).toBe(200);
      const app = initializeApp({ projectId: "demo-rtdb", databaseURL: `https://${ns}.firebaseio.com` }, ns);
      const database = getDatabase(app);
      connectDatabaseEmulator(database, hostname!, Number(port), {
        mockUserToken: { sub: OWNER, role: "subscriber", operator: OPERATOR },
      });
      return {
        port: firebaseRtdbPort(database),
        close: async () => {
          goOffline(database);
          await deleteApp(app);
        },
      };
    },
  },
];

/** The port with every get() query recorded, to see what went to the server. */
function spied(port: RtdbPort) {
  const queries: (RtdbQuery | undefined)[] = [];
  const get: RtdbPort["get"] = (path, query) => {
    queries.push(query && { ...query });
    return port.get(path, query);
  };
  return { port: { ...port, get, url: port.url }, queries };
}

describe.each(backends)("RTDB data provider on the $name", (backend) => {
  describe.skipIf(!backend.enabled)("CRUD, list queries and live events", () => {
    let opened: Awaited<ReturnType<Backend["open"]>>;
    let queries: (RtdbQuery | undefined)[];
    let provider: DataProvider;
    let port: RtdbPort;

    beforeAll(async () => {
      opened = await backend.open();
    });
    afterAll(async () => opened?.close());
    beforeEach(async () => {
      await opened.port.remove(ROOT);
      ({ port, queries } = spied(opened.port));
      provider = createRtdbDataProvider(port, {
        root: (r) => `${r}/${OWNER}`,
        resources: (n) => (n === RESOURCE ? deviceClaims : undefined),
      });
    });

    let clock = 0;
    const claim = (fields: Partial<Record<string, unknown>>) => ({
      lineId: "line-1",
      status: "open",
      amount: 10,
      createdAt: `2025-01-01T00:00:${String(clock++ % 60).padStart(2, "0")}Z`,
      operator: OPERATOR,
      ...fields,
    });
    const create = async (fields: Partial<Record<string, unknown>> = {}) =>
      (await provider.create({ resource: RESOURCE, variables: claim(fields) })).data;
    const list = (params: Partial<Parameters<DataProvider["getList"]>[0]>) => {
      queries.length = 0;
      return provider.getList<ClaimRow>({ resource: RESOURCE, ...params });
    };
    const ids = (rows: BaseRecord[]) => rows.map((r) => r.id);

    test("create takes a push id and returns the record; the id is the key, not a stored field", async () => {
      const a = await create({ lineId: "line-a" });
      const b = await create({ lineId: "line-b" });
      expect(a.id).toMatch(/^[-\w]{20}$/);
      expect(a).toMatchObject({ lineId: "line-a", status: "open", amount: 10 });
      expect(String(a.id) < String(b.id)).toBe(true); // push ids sort chronologically
      expect(await port.read(`${ROOT}/${a.id}`)).not.toHaveProperty("id");
    });

    test("getOne and getMany read records; a missing one is a 404", async () => {
      const a = await create({ lineId: "line-a" });
      const b = await create({ lineId: "line-b" });
      expect((await provider.getOne({ resource: RESOURCE, id: a.id! })).data).toEqual(a);
      expect(ids((await provider.getMany!({ resource: RESOURCE, ids: [b.id!, "-missing", a.id!] })).data)).toEqual([
        b.id,
        a.id,
      ]);
      await expect(provider.getOne({ resource: RESOURCE, id: "-missing" })).rejects.toMatchObject({ statusCode: 404 });
    });

    test("update writes only the given fields; the others survive", async () => {
      const a = await create({ note: "cracked screen", amount: 25 });
      const { data } = await provider.update({ resource: RESOURCE, id: a.id!, variables: { status: "approved" } });
      expect(data).toMatchObject({ id: a.id, status: "approved", note: "cracked screen", amount: 25 });
      expect((await provider.getOne({ resource: RESOURCE, id: a.id! })).data).toEqual({ ...a, status: "approved" });
      await expect(
        provider.update({ resource: RESOURCE, id: "-missing", variables: { status: "open" } }),
      ).rejects.toMatchObject({ statusCode: 404 });
    });

    test("deleteOne removes the record and returns it", async () => {
      const a = await create();
      const b = await create();
      expect((await provider.deleteOne({ resource: RESOURCE, id: a.id! })).data).toEqual(a);
      await expect(provider.getOne({ resource: RESOURCE, id: a.id! })).rejects.toMatchObject({ statusCode: 404 });
      expect(ids((await list({})).data)).toEqual([b.id]);
    });

    test("an eq filter goes to the server; pagination and total are right", async () => {
      const open = [];
      for (let i = 0; i < 5; i++) open.push(await create({ status: "open", amount: i }));
      await create({ status: "approved" });
      await create({ status: "rejected" });
      const page2 = await list({
        filters: [{ field: "status", operator: "eq", value: "open" }],
        sorters: [{ field: "createdAt", order: "asc" }],
        pagination: { currentPage: 2, pageSize: 2 },
      });
      expect(queries).toEqual([{ orderByChild: "status", equalTo: "open" }]);
      expect(page2.total).toBe(5);
      expect(ids(page2.data)).toEqual(ids(open.slice(2, 4)));
      // Without sorters the declaration's default sort holds (createdAt desc).
      const first = await list({
        filters: [{ field: "status", operator: "eq", value: "open" }],
        pagination: { currentPage: 1, pageSize: 2 },
      });
      expect(ids(first.data)).toEqual(ids([open[4]!, open[3]!]));
    });

    test("range filters on one field become startAt/endAt; text values are coerced to the field's type", async () => {
      const rows = [];
      for (const amount of [5, 20, 30, 40, 50]) rows.push(await create({ amount }));
      const { data, total } = await list({
        filters: [
          { field: "amount", operator: "gte", value: "20" },
          { field: "amount", operator: "lt", value: 50 },
        ],
        sorters: [{ field: "amount", order: "desc" }],
      });
      expect(queries).toEqual([{ orderByChild: "amount", startAt: 20, endAt: 50 }]);
      expect(data.map((r) => r.amount)).toEqual([40, 30, 20]);
      expect(total).toBe(3);

      const between = await list({ filters: [{ field: "amount", operator: "between", value: [30, 40] }] });
      expect(queries).toEqual([{ orderByChild: "amount", startAt: 30, endAt: 40 }]);
      expect(between.total).toBe(2);

      await create({ lineId: "+1555-0101" });
      await create({ lineId: "+1555-0202" });
      await create({ lineId: "+1666-0101" });
      const prefix = await list({ filters: [{ field: "lineId", operator: "startswith", value: "+1555" }] });
      expect(queries).toEqual([{ orderByChild: "lineId", startAt: "+1555", endAt: "+1556" }]);
      expect(prefix.data.map((r) => r.lineId).sort()).toEqual(["+1555-0101", "+1555-0202"]);
    });

    test("the first sorter goes to the server; with exactTotal: false the page comes with a limit", async () => {
      for (const amount of [30, 10, 50, 20, 40]) await create({ amount });
      const all = await list({
        sorters: [{ field: "amount", order: "desc" }],
        pagination: { currentPage: 1, pageSize: 2 },
      });
      expect(queries).toEqual([{ orderByChild: "amount" }]);
      expect(all.data.map((r) => r.amount)).toEqual([50, 40]);
      expect(all.total).toBe(5);

      const limited = await list({
        sorters: [{ field: "amount", order: "desc" }],
        pagination: { currentPage: 1, pageSize: 2 },
        meta: { exactTotal: false },
      });
      expect(queries).toEqual([{ orderByChild: "amount", limitToLast: 3 }]);
      expect(limited.data.map((r) => r.amount)).toEqual([50, 40]);
      expect(limited.total).toBe(3); // a lower bound: there is a next page

      const last = await list({
        sorters: [{ field: "amount", order: "asc" }],
        pagination: { currentPage: 3, pageSize: 2 },
        meta: { exactTotal: false },
      });
      expect(queries).toEqual([{ orderByChild: "amount", limitToFirst: 7 }]);
      expect(last.data.map((r) => r.amount)).toEqual([50]);
      expect(last.total).toBe(5); // exact on the last page
    });

    test("two filters: the eq filter goes to the server, the client finishes the rest; total counts both", async () => {
      for (const [status, amount, lineId] of [
        ["open", 5, "l1"],
        ["open", 20, "l1"],
        ["open", 30, "l2"],
        ["approved", 40, "l1"],
        ["open", 50, "l1"],
      ] as const) {
        await create({ status, amount, lineId });
      }
      const filters = [
        { field: "status", operator: "eq", value: "open" },
        { field: "amount", operator: "gt", value: 10 },
      ] as const;
      const page1 = await list({
        filters: [...filters],
        sorters: [{ field: "amount", order: "asc" }],
        pagination: { currentPage: 1, pageSize: 2 },
        meta: { exactTotal: false },
      });
      expect(queries).toEqual([{ orderByChild: "status", equalTo: "open" }]); // no limit: the client needs the rest
      expect(page1.data.map((r) => r.amount)).toEqual([20, 30]);
      expect(page1.total).toBe(3);

      // Of two eq filters, the one on a non-enum field (more selective) goes to the server.
      const both = await list({
        filters: [
          { field: "status", operator: "eq", value: "open" },
          { field: "lineId", operator: "eq", value: "l1" },
        ],
      });
      expect(queries).toEqual([{ orderByChild: "lineId", equalTo: "l1" }]);
      expect(both.total).toBe(3);
    });

    test("in, ne, contains, q, or-groups and cleared filters", async () => {
      await create({ status: "open", lineId: "LINE-abc-1", note: "Cracked screen" });
      await create({ status: "approved", lineId: "line-xyz-2", note: "battery" });
      await create({ status: "rejected", lineId: "line-xyz-3" });
      const values = async (filters: CrudFilter[]) =>
        (await list({ filters, sorters: [{ field: "createdAt", order: "asc" }] })).data.map((r) => r.lineId);

      expect(await values([{ field: "status", operator: "in", value: ["open", "rejected"] }])).toEqual([
        "LINE-abc-1",
        "line-xyz-3",
      ]);
      expect(await values([{ field: "status", operator: "nin", value: ["open", "rejected"] }])).toEqual(["line-xyz-2"]);
      expect(await values([{ field: "status", operator: "ne", value: "open" }])).toEqual(["line-xyz-2", "line-xyz-3"]);
      expect(await values([{ field: "note", operator: "contains", value: "SCREEN" }])).toEqual(["LINE-abc-1"]);
      expect(await values([{ field: "note", operator: "containss", value: "SCREEN" }])).toEqual([]);
      expect(await values([{ field: "note", operator: "null", value: true }])).toEqual(["line-xyz-3"]);
      expect(await values([{ field: "q", operator: "contains", value: "ABC" }])).toEqual(["LINE-abc-1"]);
      expect(await values([{ field: "q", operator: "contains", value: "approv" }])).toEqual(["line-xyz-2"]);
      expect(await values([{ field: "lineId", operator: "endswith", value: "-3" }])).toEqual(["line-xyz-3"]);
      expect(
        await values([
          {
            operator: "or",
            value: [
              { field: "status", operator: "eq", value: "open" },
              { field: "note", operator: "eq", value: "battery" },
            ],
          },
        ]),
      ).toEqual(["LINE-abc-1", "line-xyz-2"]);
      expect(await values([{ field: "status", operator: "eq", value: undefined }])).toHaveLength(3);
      // A case-insensitive prefix with letters cannot be a server range: it is finished on the client.
      expect(await values([{ field: "lineId", operator: "startswith", value: "line-" }])).toEqual([
        "LINE-abc-1",
        "line-xyz-2",
        "line-xyz-3",
      ]);
      expect(queries.at(-1)).toEqual({ orderByChild: "createdAt" });
    });

    test("unknown operators and resources are refused with a clear error", async () => {
      await expect(list({ filters: [{ field: "status", operator: "eqs", value: "open" }] })).rejects.toThrow(
        /operator "eqs" on "status" is not supported/,
      );
      await expect(provider.getList({ resource: "lines" })).rejects.toThrow(/Unknown resource "lines"/);
    });

    test("the live provider emits created/updated/deleted with ids, never for rows that existed before", async () => {
      const before = [await create(), await create()];
      const live = createRtdbLiveProvider(port, { root: (r) => `${r}/${OWNER}` });
      const events: LiveEvent[] = [];
      const subscription = live.subscribe({
        channel: `resources/${RESOURCE}`,
        types: ["*"],
        callback: (e) => events.push(e),
      }) as RtdbSubscription;
      await subscription.ready;
      const added = await create({ note: "new" });
      await provider.update({ resource: RESOURCE, id: added.id!, variables: { status: "approved" } });
      await provider.deleteOne({ resource: RESOURCE, id: before[0]!.id! });
      await vi.waitFor(() => expect(events).toHaveLength(3));
      expect(events.map((e) => [e.type, e.payload.ids])).toEqual([
        ["created", [added.id]],
        ["updated", [added.id]],
        ["deleted", [before[0]!.id]],
      ]);
      expect(events[0]).toMatchObject({ channel: `resources/${RESOURCE}`, date: anyDate() });

      live.unsubscribe(subscription);
      await create();
      await new Promise((r) => setTimeout(r, 50));
      expect(events).toHaveLength(3);
    });
  });
});

/** The rules the generator writes under one resource: its owner node and, beneath it, each record. */
interface ResourceRules {
  $uid: { ".indexOn": string[]; ".read": string; $id: { ".read": string } };
}

describe("RTDB rules", () => {
  test("every field a declared rtdb resource filters or sorts on is indexed under its owner node", () => {
    const { rules } = rtdbRules([deviceClaims]);
    const node = (rules[RESOURCE] as ResourceRules).$uid;
    const fields = [
      ...Object.keys(deviceClaims.list.filters),
      ...deviceClaims.list.sortable,
      ...deviceClaims.list.defaultSort.map((s) => s.field),
    ];
    for (const field of fields) expect(node[".indexOn"]).toContain(field);
    expect(rules[".read"]).toBe(false);
    expect(node[".read"]).toContain("auth.uid === $uid");
    expect(node.$id[".read"]).toContain("auth.token.operator");
  });

  test("database.rules.json is the one the registry generates (npx tsx scripts/write-rtdb-rules.ts)", () => {
    const file = JSON.parse(readFileSync(new URL("../../database.rules.json", import.meta.url), "utf8")) as {
      rules: Record<string, unknown>;
    };
    expect(file).toEqual(rtdbRules(resources));
    for (const r of resources.filter((r) => (r.source as string) === "rtdb")) expect(file.rules[r.name]).toBeDefined();
  });
});

describe("RTDB stand-in", () => {
  test("orders by child value like the database: missing/null, false, true, numbers, strings, objects; ties by key", async () => {
    const db = createRtdbStandIn();
    const values: Record<string, unknown> = {
      k1: "b",
      k2: 10,
      k3: true,
      k4: { x: 1 },
      k5: null,
      k6: false,
      k7: "a",
      k8: 2,
      k9: 10,
      k0: "10",
    };
    for (const [key, v] of Object.entries(values)) await db.update(`t/${key}`, { v, n: 1 });
    const order = async (q: Omit<RtdbQuery, "orderByChild">) =>
      (await db.get("t", { orderByChild: "v", ...q })).map((c) => c.key);
    expect(await order({})).toEqual(["k5", "k6", "k3", "k8", "k2", "k9", "k0", "k7", "k1", "k4"]);
    expect(await order({ startAt: 3, endAt: "a" })).toEqual(["k2", "k9", "k0", "k7"]);
    expect(await order({ equalTo: 10 })).toEqual(["k2", "k9"]);
    expect(await order({ endAt: false })).toEqual(["k5", "k6"]);
    expect(await order({ startAt: 2, limitToFirst: 2 })).toEqual(["k8", "k2"]);
    expect(await order({ limitToLast: 3 })).toEqual(["k7", "k1", "k4"]);
    // Keys: 32-bit integers first, numerically, then the rest as strings.
    await db.update("keys", { b: 1, "10": 1, "9": 1, a: 1, "-1": 1 });
    expect((await db.get("keys")).map((c) => c.key)).toEqual(["-1", "9", "10", "a", "b"]);
  });

  test("push ids sort chronologically, even within one millisecond", async () => {
    const db = createRtdbStandIn();
    const keys = [];
    for (let i = 0; i < 50; i++) keys.push(await db.push("p", { i }));
    expect([...keys].sort()).toEqual(keys);
    expect((await db.get("p")).map((c) => (c.value as { i: number }).i)).toEqual([...Array(50).keys()]);
  });
});
