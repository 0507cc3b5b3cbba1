import type { ChildListener, RtdbChild, RtdbPort, RtdbQuery, Unsubscribe } from "../../src/providers/rtdb/rtdbPort";
import { compareRtdbKeys, compareRtdbValues } from "../../src/providers/rtdb/rtdbDataProvider";

/**
 * An in-memory RtdbPort with the Realtime Database's query semantics, for machines where its
 * emulator cannot run: orderByChild orders by the child's value (null/missing < false < true <
 * numbers < strings < objects, ties by key), equalTo/startAt/endAt bound that value inclusively,
 * and limitToFirst/limitToLast apply after ordering. Push ids sort chronologically, nulls delete,
 * undefined is refused, and child events are raised synchronously (existing children first).
 */

const PUSH_CHARS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

/** The SDK's push id: 8 characters of time, then 12 random ones incremented within one millisecond. */
function pushIds(now: () => number = Date.now) {
  let lastTime = 0;
  const lastRandom: number[] = [];
  return () => {
    let time = now();
    const duplicate = time === lastTime;
    lastTime = time;
    const head: string[] = [];
    for (let i = 0; i < 8; i++, time = Math.floor(time / 64)) head.unshift(PUSH_CHARS.charAt(time % 64));
    if (!duplicate) for (let i = 0; i < 12; i++) lastRandom[i] = Math.floor(Math.random() * 64);
    else {
      let i = 11;
      for (; i >= 0 && lastRandom[i] === 63; i--) lastRandom[i] = 0;
      lastRandom[i]! += 1;
    }
    return head.join("") + lastRandom.map((n) => PUSH_CHARS.charAt(n)).join("");
  };
}

/** Runs `f` now and answers as the database's client does: a refusal (a throw) is a rejected promise. */
function settled<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => v !== null && typeof v === "object";
const segments = (path: string) => path.split("/").filter(Boolean);

/** A stored copy of `value`: refuses undefined, drops nulls and empty objects, as the database does. */
function normalize(value: unknown, where: string): unknown {
  if (value === undefined) throw new Error(`Value contains undefined at ${where || "/"}`);
  if (!isNode(value)) return value;
  const out: Node = {};
  for (const [k, v] of Object.entries(value)) {
    const child = normalize(v, `${where}/${k}`);
    if (child !== null) out[k] = child;
  }
  return Object.keys(out).length ? out : null;
}

const childValue = (value: unknown, path: string[]) =>
  path.reduce<unknown>((n, k) => (isNode(n) ? n[k] : undefined), value) ?? null;

export function createRtdbStandIn(): RtdbPort {
  let root: unknown = null;
  const nextId = pushIds();
  const listeners = {
    added: new Map<ChildListener, string>(),
    changed: new Map<ChildListener, string>(),
    removed: new Map<ChildListener, string>(),
  };

  const at = (path: string): unknown =>
    segments(path).reduce<unknown>((n, k) => (isNode(n) ? n[k] : undefined), root) ?? null;
  const childrenOf = (path: string): RtdbChild[] => {
    const node = at(path);
    return isNode(node) ? Object.entries(node).map(([key, value]) => ({ key, value })) : [];
  };

  /** Sets the value at `path` and raises child events on every listened parent whose child changed. */
  const write = (path: string, value: unknown) => {
    const parts = segments(path);
    const before = new Map<string, Map<string, string>>();
    const snapshot = (p: string) => new Map(childrenOf(p).map((c) => [c.key, JSON.stringify(c.value)]));
    const watched = new Set([
      ...listeners.added.values(),
      ...listeners.changed.values(),
      ...listeners.removed.values(),
    ]);
    for (const p of watched) before.set(p, snapshot(p));

    const stored = structuredClone(normalize(value, path));
    if (parts.length === 0) root = stored;
    else {
      if (!isNode(root)) root = {};
      let node = root as Node;
      for (const k of parts.slice(0, -1)) node = isNode(node[k]) ? node[k] : (node[k] = {});
      const last = parts[parts.length - 1]!;
      if (stored === null) delete node[last];
      else node[last] = stored;
      root = normalize(root, ""); // prune emptied parents
    }

    for (const [p, old] of before) {
      const now = snapshot(p);
      const raise = (kind: keyof typeof listeners, key: string, v: unknown) => {
        for (const [listener, lp] of [...listeners[kind]]) if (lp === p) listener({ key, value: structuredClone(v) });
      };
      for (const [key, json] of old) if (!now.has(key)) raise("removed", key, JSON.parse(json));
      for (const [key, json] of now) {
        if (!old.has(key)) raise("added", key, JSON.parse(json));
        else if (old.get(key) !== json) raise("changed", key, JSON.parse(json));
      }
    }
  };

  const listen =
    (kind: keyof typeof listeners) =>
    (path: string, listener: ChildListener): Unsubscribe => {
      const p = segments(path).join("/");
      listeners[kind].set(listener, p);
      if (kind === "added") for (const child of childrenOf(p)) listener(structuredClone(child));
      return () => void listeners[kind].delete(listener);
    };

  return {
    url: "memory://rtdb-stand-in",
    push(path, value) {
      return settled(() => {
        const key = nextId();
        write(`${path}/${key}`, value);
        return key;
      });
    },
    read(path) {
      return Promise.resolve(structuredClone(at(path)));
    },
    get(path, query?: RtdbQuery) {
      let children = childrenOf(path).sort((a, b) => compareRtdbKeys(a.key, b.key));
      if (query) {
        const by = segments(query.orderByChild);
        const v = (c: RtdbChild) => childValue(c.value, by);
        children.sort((a, b) => compareRtdbValues(v(a), v(b)) || compareRtdbKeys(a.key, b.key));
        const from = query.equalTo !== undefined ? query.equalTo : query.startAt;
        const to = query.equalTo !== undefined ? query.equalTo : query.endAt;
        if (from !== undefined) children = children.filter((c) => compareRtdbValues(v(c), from) >= 0);
        if (to !== undefined) children = children.filter((c) => compareRtdbValues(v(c), to) <= 0);
        if (query.limitToFirst !== undefined) children = children.slice(0, query.limitToFirst);
        if (query.limitToLast !== undefined)
          children = children.slice(Math.max(0, children.length - query.limitToLast));
      }
      return Promise.resolve(structuredClone(children));
    },
    update(path, values) {
      return settled(() => {
        // One atomic write, as the database applies an update: one child event per changed child.
        const merged = (isNode(at(path)) ? structuredClone(at(path)) : {}) as Node;
        for (const [k, v] of Object.entries(values)) {
          const parts = segments(k);
          let node = merged;
          for (const p of parts.slice(0, -1)) node = isNode(node[p]) ? node[p] : (node[p] = {});
          node[parts[parts.length - 1]!] = v === undefined ? undefined : structuredClone(v);
        }
        write(path, merged);
      });
    },
    remove(path) {
      return settled(() => write(path, null));
    },
    onChildAdded: listen("added"),
    onChildChanged: listen("changed"),
    onChildRemoved: listen("removed"),
    onceLoaded(_path, listener) {
      listener();
      return () => {};
    },
  };
}
