import { useEffect, useState } from "react";
import { rtdbAvailable, rtdbPort } from "../../providers/dataSources";
import { joinPresence, type PresentViewer } from "../../providers/rtdb/presence";
import type { RtdbPort } from "../../providers/rtdb/rtdbPort";
import { currentSessionUser, type SessionUser } from "../../providers/session";
import { isStaff } from "../../resources/access";
import { presenceResource } from "../../resources/presence";

/** Where presence comes from: the portal's database and session, or a test's stand-in. */
export interface PresenceSource {
  /** The Realtime Database; undefined when the build names none. */
  port: () => Promise<RtdbPort | undefined>;
  viewer: () => Promise<Pick<SessionUser, "uid" | "name" | "role" | "operator"> | null>;
}

/** Without a database (the local default) there is nobody to ask about: not even the session is read. */
export const portalPresence: PresenceSource = {
  port: rtdbPort,
  viewer: () => (rtdbAvailable ? currentSessionUser() : Promise.resolve(null)),
};

let warned = false;
/** One warning per page load: presence is a courtesy, the page works without it. */
const warnOnce = (error: unknown) => {
  if (warned) return;
  warned = true;
  console.warn("Presence is off: the Realtime Database refused or failed.", error);
};

/**
 * Who else (staff of the same operator) has this place open right now, first come first: the signed-in
 * agent or admin is on it while the component is mounted (src/providers/rtdb/presence.ts). Nobody
 * when `place` is undefined, when the viewer is not staff, or when the build names no Realtime
 * Database (the local default): then nothing is loaded, written or logged.
 */
export function usePresence(place: string | undefined, source: PresenceSource = portalPresence): PresentViewer[] {
  const [others, setOthers] = useState<PresentViewer[]>([]);
  useEffect(() => {
    if (!place) return undefined;
    let leave: (() => void) | undefined;
    let gone = false;
    // Who first: a subscriber's page (a ticket) never loads the database at all.
    source
      .viewer()
      .then(async (viewer) => {
        if (gone || !viewer?.operator || !isStaff(viewer.role)) return;
        const db = await source.port();
        if (gone || !db) return;
        leave = joinPresence(db, {
          resource: presenceResource.name,
          operator: viewer.operator,
          place,
          viewer: { uid: viewer.uid, name: viewer.name },
          onOthers: setOthers,
          onError: warnOnce,
        });
      })
      .catch(warnOnce);
    return () => {
      gone = true;
      leave?.();
      setOthers([]);
    };
  }, [place, source]);
  return others;
}
