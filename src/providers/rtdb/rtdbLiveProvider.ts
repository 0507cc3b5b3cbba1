import type { BaseKey, LiveEvent, LiveProvider } from "@refinedev/core";
import type { RtdbPort, Unsubscribe } from "./rtdbPort";

export interface RtdbLiveOptions {
  /** The node whose children are the records of `resource` (as for the data provider). */
  root: (resource: string) => string;
}

/** What subscribe returns; `ready` settles once the children present at subscribe time have gone by. */
export interface RtdbSubscription {
  ready: Promise<void>;
  unsubscribe: Unsubscribe;
}

const CHANNEL = /^resources\/(.+)$/;

/**
 * A Refine live provider over the database's child events on `resources/<name>` channels:
 * child_added → created, child_changed → updated, child_removed → deleted, each with the record's
 * key in `payload.ids`. The children that already exist when subscribing are reported by the
 * database as child_added first; those events come before the location's first value event and
 * are dropped, so only changes after subscribe reach the callback.
 */
export function createRtdbLiveProvider(db: RtdbPort, options: RtdbLiveOptions): LiveProvider {
  return {
    subscribe({ channel, types, callback, params }): RtdbSubscription {
      const resource = CHANNEL.exec(channel)?.[1] ?? params?.resource;
      if (!resource) return { ready: Promise.resolve(), unsubscribe: () => {} };
      const path = options.root(resource);
      const ids = params?.ids?.length ? params.ids : params?.id !== undefined ? [params.id] : undefined;
      const wanted = ids ? new Set(ids.map((id: BaseKey) => String(id))) : undefined;
      const emit = (type: LiveEvent["type"], key: string) => {
        if (!types.includes("*") && !types.includes(type)) return;
        if (wanted && !wanted.has(key)) return;
        callback({ channel, type, payload: { ids: [key] }, date: new Date() });
      };

      let loaded = false;
      let markReady!: () => void;
      const ready = new Promise<void>((resolve) => (markReady = resolve));
      const stops = [
        db.onChildAdded(path, ({ key }) => loaded && emit("created", key)),
        db.onChildChanged(path, ({ key }) => emit("updated", key)),
        db.onChildRemoved(path, ({ key }) => emit("deleted", key)),
        db.onceLoaded(path, () => {
          loaded = true;
          markReady();
        }),
      ];
      return {
        ready,
        unsubscribe: () => {
          for (const stop of stops) stop();
          markReady();
        },
      };
    },

    unsubscribe(subscription: RtdbSubscription) {
      subscription?.unsubscribe();
    },

    // Every write to the database already reaches every subscriber (this tab included) as a child
    // event; publishing it again would deliver it twice.
    publish: () => {},
  };
}
