import type { ChildListener, RtdbChild, RtdbPort, RtdbQuery, Unsubscribe } from "../../src/providers/rtdb/rtdbPort";
import type { RtdbRulesFile } from "../../src/providers/rtdb/rtdbRules";
import { compareRtdbKeys, compareRtdbValues } from "../../src/providers/rtdb/rtdbDataProvider";

/**
 * An in-memory RtdbPort with the Realtime Database's query semantics, for machines where its
 * emulator cannot run: orderByChild orders by the child's value (null/missing < false < true <
 * numbers < strings < objects, ties by key), equalTo/startAt/endAt bound that value inclusively,
 * and limitToFirst/limitToLast apply after ordering. Push ids sort chronologically, nulls delete,
 * undefined is refused, and child events are raised synchronously (existing children first).
 *
 * Several clients can share one database (createRtdbStandInServer().connect(auth)), each with its own
 * connection: goOffline() is a dropped connection (the server runs that client's onDisconnect
 * operations, `.info/connected` turns false, its listeners hear nothing and its writes wait) and
 * goOnline() brings it back (listeners catch up on what changed, waiting writes go through). Given a
 * rules file, the server enforces it as the database does for these operations: `.read`/`.write`
 * granted by a rule at the location or above it, `.validate` on every non-null value written and the
 * locations above it, `$variables`, `auth`, `data`, `newData`, `root` and `now`.
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

const SERVER_TIMESTAMP = { ".sv": "timestamp" };
const isServerTimestamp = (v: unknown) =>
  isNode(v) && Object.keys(v).length === 1 && v[".sv"] === SERVER_TIMESTAMP[".sv"];
/** Replaces the SDK's serverTimestamp() placeholders by the server's clock. */
function resolveServerValues(value: unknown, now: number): unknown {
  if (isServerTimestamp(value)) return now;
  if (!isNode(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveServerValues(v, now)]));
}

/** What a rule sees of a location: the database's DataSnapshot methods that rules use. */
class RuleSnapshot {
  constructor(private readonly value: unknown) {}
  val() {
    return structuredClone(this.value ?? null);
  }
  exists() {
    return this.value !== null && this.value !== undefined;
  }
  child(path: string) {
    return new RuleSnapshot(childValue(this.value, segments(path)));
  }
  hasChild(path: string) {
    return this.child(path).exists();
  }
  hasChildren(keys?: string[]) {
    return keys ? keys.every((k) => this.hasChild(k)) : isNode(this.value);
  }
  isNumber() {
    return typeof this.value === "number";
  }
  isString() {
    return typeof this.value === "string";
  }
  isBoolean() {
    return typeof this.value === "boolean";
  }
}

/** The signed-in user a client connects as: what rules see as `auth`. */
export interface StandInAuth {
  uid: string;
  token: Record<string, unknown>;
}

type Rules = Record<string, unknown>;
interface RuleLevel {
  rules: Rules;
  vars: Record<string, string>;
  /** The location's segments from the root. */
  at: string[];
}

/** The rule nodes from the root down `parts`, with the `$variables` they capture (a literal key wins). */
function rulesAlong(rules: Rules, parts: string[]): RuleLevel[] {
  const levels: RuleLevel[] = [{ rules, vars: {}, at: [] }];
  for (const [i, part] of parts.entries()) {
    const { rules: node, vars } = levels[levels.length - 1]!;
    const next = childRules(node, part);
    if (!next) break;
    levels.push({ rules: next.rules, vars: { ...vars, ...next.vars }, at: parts.slice(0, i + 1) });
  }
  return levels;
}

function childRules(node: Rules, key: string): { rules: Rules; vars: Record<string, string> } | undefined {
  if (isNode(node[key]) && !key.startsWith("$") && !key.startsWith(".")) return { rules: node[key], vars: {} };
  const wildcard = Object.keys(node).find((k) => k.startsWith("$"));
  return wildcard && isNode(node[wildcard]) ? { rules: node[wildcard], vars: { [wildcard]: key } } : undefined;
}

interface RuleContext {
  auth: StandInAuth | null;
  vars: Record<string, string>;
  data: unknown;
  newData: unknown;
  root: unknown;
  now: number;
}

/**
 * One rule expression. The rules language is a subset of JavaScript's expressions, so it runs as one
 * here over the same variables; a rule that fails to evaluate (auth.uid with no auth) is false.
 */
function evaluate(rule: unknown, context: RuleContext): boolean {
  if (typeof rule === "boolean") return rule;
  if (typeof rule !== "string") return false;
  const names = ["auth", "data", "newData", "root", "now", ...Object.keys(context.vars)];
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a test double evaluating the generated rules
    const run = new Function(...names, `"use strict"; return (${rule});`) as (...args: unknown[]) => unknown;
    return (
      run(
        context.auth,
        new RuleSnapshot(context.data),
        new RuleSnapshot(context.newData),
        new RuleSnapshot(context.root),
        context.now,
        ...Object.values(context.vars),
      ) === true
    );
  } catch {
    return false;
  }
}

const valueAt = (value: unknown, parts: string[]) => childValue(value, parts);

function setAt(tree: unknown, parts: string[], value: unknown): unknown {
  if (parts.length === 0) return value;
  const node = isNode(tree) ? structuredClone(tree) : {};
  let cursor = node;
  for (const k of parts.slice(0, -1)) cursor = isNode(cursor[k]) ? cursor[k] : (cursor[k] = {});
  cursor[parts[parts.length - 1]!] = value;
  return node;
}

const denied = (what: string, path: string) => new Error(`PERMISSION_DENIED: ${what} at /${path} refused by the rules`);

interface Registration {
  client: ClientState;
  kind: "added" | "changed" | "removed";
  path: string;
  listener: ChildListener;
  /** The children as this listener last heard of them. */
  seen: Map<string, string>;
}

interface ClientState {
  auth: StandInAuth | null;
  online: boolean;
  /** Writes made while offline, sent when the connection is back. */
  waiting: (() => void)[];
  onDisconnect: Map<string, true>;
  connected: Set<(connected: boolean) => void>;
}

export interface RtdbStandInClient extends RtdbPort {
  /** The connection drops: the server runs this client's onDisconnect operations. */
  goOffline(): void;
  /** The connection is back: listeners catch up and waiting writes go through. */
  goOnline(): void;
}

export interface RtdbStandInServer {
  /** A client signed in as `auth` (null: signed out). Without rules, every client may do anything. */
  connect(auth?: StandInAuth | null): RtdbStandInClient;
  /** The whole database, for a test to look at. */
  root(): unknown;
}

export function createRtdbStandInServer(
  options: { rules?: RtdbRulesFile["rules"]; now?: () => number } = {},
): RtdbStandInServer {
  const now = options.now ?? Date.now;
  let root: unknown = null;
  const nextId = pushIds(now);
  const registrations = new Set<Registration>();

  const at = (path: string): unknown => valueAt(root, segments(path));
  const childrenOf = (path: string): RtdbChild[] => {
    const node = at(path);
    return isNode(node) ? Object.entries(node).map(([key, value]) => ({ key, value })) : [];
  };
  const snapshot = (p: string) => new Map(childrenOf(p).map((c) => [c.key, JSON.stringify(c.value)]));

  const canRead = (auth: StandInAuth | null, path: string) => {
    if (!options.rules) return true;
    const t = now();
    return rulesAlong(options.rules, segments(path)).some(
      (level) =>
        ".read" in level.rules &&
        evaluate(level.rules[".read"], {
          auth,
          vars: level.vars,
          data: valueAt(root, level.at),
          newData: valueAt(root, level.at),
          root,
          now: t,
        }),
    );
  };

  /** Whether `auth` may write the location `parts` turning `root` into `next` (write rules, then validate). */
  const mayWrite = (auth: StandInAuth | null, parts: string[], next: unknown): boolean => {
    const rules = options.rules;
    if (!rules) return true;
    const t = now();
    const context = (level: RuleLevel): RuleContext => ({
      auth,
      vars: level.vars,
      data: valueAt(root, level.at),
      newData: valueAt(next, level.at),
      root,
      now: t,
    });
    const levels = rulesAlong(rules, parts);
    if (!levels.some((level) => ".write" in level.rules && evaluate(level.rules[".write"], context(level))))
      return false;
    // .validate: on the locations above (their new value includes this write) and on every non-null
    // value written, at its location and below; never on a deletion.
    const validates = (level: RuleLevel) =>
      valueAt(next, level.at) === null ||
      !(".validate" in level.rules) ||
      evaluate(level.rules[".validate"], context(level));
    if (!levels.every(validates)) return false;
    if (levels.length <= parts.length) return true; // no rules down to the written location
    const below = (level: RuleLevel): boolean => {
      const value = valueAt(next, level.at);
      if (!validates(level)) return false;
      if (!isNode(value)) return true;
      return Object.keys(value).every((key) => {
        const child = childRules(level.rules, key);
        return !child || below({ rules: child.rules, vars: { ...level.vars, ...child.vars }, at: [...level.at, key] });
      });
    };
    return below(levels[levels.length - 1]!);
  };

  /** Catches one listener up with the children of its location. */
  const deliver = (reg: Registration) => {
    const current = snapshot(reg.path);
    const raise = (key: string, json: string) => reg.listener({ key, value: JSON.parse(json) as unknown });
    if (reg.kind === "removed") for (const [key, json] of reg.seen) if (!current.has(key)) raise(key, json);
    if (reg.kind === "added") for (const [key, json] of current) if (!reg.seen.has(key)) raise(key, json);
    if (reg.kind === "changed")
      for (const [key, json] of current) if (reg.seen.has(key) && reg.seen.get(key) !== json) raise(key, json);
    reg.seen = current;
  };

  /**
   * Writes every (path, value) as one atomic change by `auth`, each location checked against the rules
   * (a refusal changes nothing), then raises child events on every connected client's listeners.
   */
  const apply = (auth: StandInAuth | null, changes: [string, unknown][]) => {
    const t = now();
    let next = root;
    for (const [path, value] of changes) {
      const stored = structuredClone(normalize(resolveServerValues(value, t), path));
      next = normalize(setAt(next, segments(path), stored), "") ?? null;
    }
    for (const [path] of changes) if (!mayWrite(auth, segments(path), next)) throw denied("write", path);
    root = next;
    // Removals first, then additions and changes, as the database reports one write.
    const online = [...registrations].filter((r) => r.client.online);
    for (const kind of ["removed", "added", "changed"] as const)
      for (const reg of online) if (reg.kind === kind && registrations.has(reg)) deliver(reg);
  };

  const connect = (auth: StandInAuth | null = null): RtdbStandInClient => {
    const client: ClientState = {
      auth,
      online: true,
      waiting: [],
      onDisconnect: new Map(),
      connected: new Set(),
    };
    /** A write: now when connected, else once the connection is back (the promise settles then). */
    const send = (work: () => void): Promise<void> =>
      client.online
        ? settled(work)
        : new Promise((resolve, reject) =>
            client.waiting.push(() => {
              settled(work).then(resolve, reject);
            }),
          );
    const readable = <T>(path: string, f: () => T): Promise<T> =>
      canRead(client.auth, path) ? Promise.resolve(f()) : Promise.reject(denied("read", segments(path).join("/")));

    const listen =
      (kind: Registration["kind"]) =>
      (path: string, listener: ChildListener): Unsubscribe => {
        const p = segments(path).join("/");
        // The database cancels a listener the rules do not let read: it hears nothing.
        if (!canRead(client.auth, p)) return () => {};
        const reg: Registration = { client, kind, path: p, listener, seen: new Map() };
        if (kind === "added") deliver(reg);
        else reg.seen = snapshot(p);
        registrations.add(reg);
        return () => void registrations.delete(reg);
      };

    return {
      url: "memory://rtdb-stand-in",
      push(path, value) {
        const key = nextId();
        return send(() => apply(client.auth, [[`${path}/${key}`, value]])).then(() => key);
      },
      read(path) {
        return readable(path, () => structuredClone(at(path)));
      },
      get(path, query?: RtdbQuery) {
        return readable(path, () => {
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
          return structuredClone(children);
        });
      },
      update(path, values) {
        // One atomic write, as the database applies an update: each child location is checked.
        return send(() => {
          for (const [k, v] of Object.entries(values))
            if (v === undefined) throw new Error(`Value contains undefined at ${path}/${k}`);
          apply(
            client.auth,
            Object.entries(values).map(([k, v]) => [`${path}/${k}`, v]),
          );
        });
      },
      set(path, value) {
        return send(() => apply(client.auth, [[path, value]]));
      },
      remove(path) {
        return send(() => apply(client.auth, [[path, null]]));
      },
      serverTimestamp: () => ({ ...SERVER_TIMESTAMP }),
      onDisconnectRemove(path) {
        const p = segments(path).join("/");
        return send(() => {
          // Checked now, as the server does when the operation is set up (and again when it runs).
          if (!mayWrite(client.auth, segments(p), normalize(setAt(root, segments(p), null), "") ?? null))
            throw denied("onDisconnect remove", p);
          client.onDisconnect.set(p, true);
        });
      },
      cancelOnDisconnect(path) {
        const p = segments(path).join("/");
        return send(() => {
          for (const queued of [...client.onDisconnect.keys()])
            if (queued === p || queued.startsWith(`${p}/`)) client.onDisconnect.delete(queued);
        });
      },
      onConnected(listener) {
        client.connected.add(listener);
        listener(client.online);
        return () => void client.connected.delete(listener);
      },
      onChildAdded: listen("added"),
      onChildChanged: listen("changed"),
      onChildRemoved: listen("removed"),
      onceLoaded(_path, listener) {
        listener();
        return () => {};
      },
      goOffline() {
        if (!client.online) return;
        client.online = false;
        // The server acts once on what the client asked for, each checked against the rules again.
        const queued = [...client.onDisconnect.keys()];
        client.onDisconnect.clear();
        for (const p of queued) {
          try {
            apply(client.auth, [[p, null]]);
          } catch {
            // refused now: the database skips it too
          }
        }
        for (const listener of [...client.connected]) listener(false);
      },
      goOnline() {
        if (client.online) return;
        client.online = true;
        for (const reg of registrations) if (reg.client === client) deliver(reg);
        for (const listener of [...client.connected]) listener(true);
        for (const work of client.waiting.splice(0)) work();
      },
    };
  };

  return { connect, root: () => structuredClone(root) };
}

/** One client of a database of its own, without rules. */
export function createRtdbStandIn(): RtdbStandInClient {
  return createRtdbStandInServer().connect(null);
}
