import {
  type DataSnapshot,
  type Database,
  type Query,
  type QueryConstraint,
  endAt,
  equalTo,
  get,
  limitToFirst,
  limitToLast,
  onChildAdded,
  onChildChanged,
  onChildRemoved,
  onDisconnect,
  onValue,
  orderByChild,
  push,
  query,
  ref,
  remove,
  serverTimestamp,
  set,
  startAt,
  update,
} from "firebase/database";

/** A value the Realtime Database can order and bound by: what `equalTo/startAt/endAt` accept. */
export type RtdbPrimitive = string | number | boolean | null;

/**
 * One Realtime Database query on the children of a path: a single `orderByChild` with optional
 * bounds (inclusive, in the database's ordering of that child's value) and one limit, applied after
 * ordering and bounding. That is all one RTDB query can say.
 */
export interface RtdbQuery {
  /** Child path, "/"-separated ("price/amount"). */
  orderByChild: string;
  equalTo?: RtdbPrimitive;
  startAt?: RtdbPrimitive;
  endAt?: RtdbPrimitive;
  limitToFirst?: number;
  limitToLast?: number;
}

export interface RtdbChild {
  key: string;
  value: unknown;
}

export type Unsubscribe = () => void;
export type ChildListener = (child: RtdbChild) => void;

/**
 * The narrow slice of the Realtime Database the data and live providers use, so that they run over
 * the real SDK (firebaseRtdbPort) or the in-memory stand-in of the tests alike. Paths are
 * "/"-separated, relative to the database root.
 */
export interface RtdbPort {
  /** Where the data lives (getApiUrl). */
  readonly url: string;
  /** Writes `value` as a new child of `path` under a push id (ids sort chronologically); returns the id. */
  push(path: string, value: Record<string, unknown>): Promise<string>;
  /** The value at `path`, or null when there is none. */
  read(path: string): Promise<unknown>;
  /** The children of `path` the query selects, in its order (by key without a query). */
  get(path: string, query?: RtdbQuery): Promise<RtdbChild[]>;
  /** Writes only the given children of `path` (null deletes one); the others are left as they are. */
  update(path: string, values: Record<string, unknown>): Promise<void>;
  remove(path: string): Promise<void>;
  /** Replaces the value at `path` (a record whose key the caller chooses: a viewer's uid). */
  set(path: string, value: Record<string, unknown>): Promise<void>;
  /** A value that the database replaces by its own clock (ms since 1970) when it stores it. */
  serverTimestamp(): object;
  /**
   * Asks the server to remove `path` when this client's connection ends, cleanly or not. The server
   * checks the rules now (refused: a rejected promise) and again when it acts. It acts once: after a
   * reconnection it must be asked again. Ask before writing what it is to remove.
   */
  onDisconnectRemove(path: string): Promise<void>;
  /** Withdraws what onDisconnectRemove asked for `path` (and below it). */
  cancelOnDisconnect(path: string): Promise<void>;
  /** Whether this client is connected to the server (`.info/connected`), now and on every change. */
  onConnected(listener: (connected: boolean) => void): Unsubscribe;
  /** Like the SDK, reports the children already present first, then every child added later. */
  onChildAdded(path: string, listener: ChildListener): Unsubscribe;
  onChildChanged(path: string, listener: ChildListener): Unsubscribe;
  onChildRemoved(path: string, listener: ChildListener): Unsubscribe;
  /**
   * Calls `listener` once the current data at `path` has been delivered: the database raises child
   * events before the value event of the same data, so child_added events reported before this call
   * are the children that existed when the listeners were attached.
   */
  onceLoaded(path: string, listener: () => void): Unsubscribe;
}

/** The port over the Firebase web SDK (`firebase/database`). */
export function firebaseRtdbPort(database: Database): RtdbPort {
  const at = (path: string) => ref(database, path);
  const toQuery = (path: string, q: RtdbQuery): Query => {
    const constraints: QueryConstraint[] = [orderByChild(q.orderByChild)];
    if (q.equalTo !== undefined) constraints.push(equalTo(q.equalTo));
    if (q.startAt !== undefined) constraints.push(startAt(q.startAt));
    if (q.endAt !== undefined) constraints.push(endAt(q.endAt));
    if (q.limitToFirst !== undefined) constraints.push(limitToFirst(q.limitToFirst));
    if (q.limitToLast !== undefined) constraints.push(limitToLast(q.limitToLast));
    return query(at(path), ...constraints);
  };
  type ChildEvent = (q: Query, callback: (snapshot: DataSnapshot) => unknown) => Unsubscribe;
  const children = (path: string, event: ChildEvent, listener: ChildListener) =>
    event(at(path), (snapshot) => listener({ key: snapshot.key!, value: snapshot.val() }));

  return {
    url: `${database.app.options.databaseURL ?? ""}`,
    async push(path, value) {
      const child = push(at(path), value);
      await child;
      return child.key;
    },
    async read(path) {
      const value: unknown = (await get(at(path))).val();
      return value;
    },
    async get(path, q) {
      const snapshot = await get(q ? toQuery(path, q) : at(path));
      const result: RtdbChild[] = [];
      // forEach walks the children in the query's order; val() would lose it.
      snapshot.forEach((child) => {
        result.push({ key: child.key, value: child.val() });
      });
      return result;
    },
    update: (path, values) => update(at(path), values),
    remove: (path) => remove(at(path)),
    set: (path, value) => set(at(path), value),
    serverTimestamp: () => serverTimestamp(),
    onDisconnectRemove: (path) => onDisconnect(at(path)).remove(),
    cancelOnDisconnect: (path) => onDisconnect(at(path)).cancel(),
    onConnected: (listener) => onValue(at(".info/connected"), (snapshot) => listener(snapshot.val() === true)),
    onChildAdded: (path, listener) => children(path, onChildAdded, listener),
    onChildChanged: (path, listener) => children(path, onChildChanged, listener),
    onChildRemoved: (path, listener) => children(path, onChildRemoved, listener),
    onceLoaded: (path, listener) => onValue(at(path), () => listener(), { onlyOnce: true }),
  };
}
