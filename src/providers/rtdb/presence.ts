import type { RtdbPort } from "./rtdbPort";

/** Someone who has the same page open, as their colleagues see them. */
export interface PresentViewer {
  uid: string;
  name: string;
  /** When they opened it (the database's clock, ms since 1970). */
  since: number;
}

export interface PresenceOptions {
  /** The grouped resource's node, e.g. "presence" (src/resources/presence.ts). */
  resource: string;
  operator: string;
  /** What is being viewed: `subscriber:<id>`, `ticket:<id>`. */
  place: string;
  /** The viewer: their uid is their record's key. */
  viewer: { uid: string; name: string };
  /** Everyone else on the place, first come first, on every change. */
  onOthers: (others: PresentViewer[]) => void;
  /** The database refused a write (rules) or failed: the caller decides how loud to be. */
  onError?: (error: unknown) => void;
}

const asViewer = (uid: string, value: unknown): PresentViewer | undefined => {
  const v = value as { name?: unknown; since?: unknown } | null;
  return typeof v?.name === "string" && typeof v.since === "number" ? { uid, name: v.name, since: v.since } : undefined;
};

/**
 * Joins a place: the viewer's record at /<resource>/<operator>/<place>/<uid> is written on every
 * (re)connection, after asking the server to remove it when the connection ends (the order the
 * Firebase docs give, so a dropped connection never leaves it behind), and the place's records are
 * followed. The returned function leaves: it stops listening and removes the record.
 *
 * One record per person: a second tab of the same person shares it. When one tab leaves (or drops)
 * and removes it, a tab still on the place writes it again.
 */
export function joinPresence(db: RtdbPort, options: PresenceOptions): () => void {
  const placePath = `${options.resource}/${options.operator}/${options.place}`;
  const mine = `${placePath}/${options.viewer.uid}`;
  const viewers = new Map<string, PresentViewer>();
  let connected = false;
  let left = false;

  const report = () =>
    options.onOthers(
      [...viewers.values()]
        .filter((v) => v.uid !== options.viewer.uid)
        .sort((a, b) => a.since - b.since || a.name.localeCompare(b.name)),
    );
  const failed = (error: unknown) => {
    if (!left) options.onError?.(error);
  };
  const announce = () => {
    db.onDisconnectRemove(mine)
      .then(() => {
        if (left) return undefined;
        return db.set(mine, { name: options.viewer.name, since: db.serverTimestamp() });
      })
      .catch(failed);
  };

  const seen = (child: { key: string; value: unknown }) => {
    const viewer = asViewer(child.key, child.value);
    if (viewer) viewers.set(child.key, viewer);
    else viewers.delete(child.key);
    report();
  };
  const stops = [
    db.onChildAdded(placePath, seen),
    db.onChildChanged(placePath, seen),
    db.onChildRemoved(placePath, ({ key }) => {
      viewers.delete(key);
      report();
      // Our record went (another tab of ours left): while we are still here and connected, put it back.
      if (key === options.viewer.uid && connected && !left) announce();
    }),
    db.onConnected((now) => {
      connected = now;
      // The server's onDisconnect acts once: every new connection asks again and writes again.
      if (now && !left) announce();
    }),
  ];

  return () => {
    if (left) return;
    left = true;
    for (const stop of stops) stop();
    // Ignored: the record is removed by the server's onDisconnect when the connection ends anyway.
    void db.remove(mine).catch(() => {});
    void db.cancelOnDisconnect(mine).catch(() => {});
  };
}
