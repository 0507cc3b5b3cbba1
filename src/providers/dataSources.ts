import type { DataProvider, LiveProvider } from "@refinedev/core";
import { runtimeConfig } from "../config/runtime";
import { findResource } from "../resources";
import type { ResourceDefinition } from "../resources/define";
import { throwHttpError } from "./throwHttpError";
import type { RtdbPort } from "./rtdb/rtdbPort";

/**
 * The data provider router of design.md §3: the backend's REST provider for `source: "backend"`
 * resources, the Realtime Database provider for `source: "rtdb"` ones. firebase/database is loaded
 * only when an rtdb resource is first used, and only when the build names a database.
 */
export const rtdbAvailable = Boolean(runtimeConfig.firebase.databaseURL);

/** Resources the portal can serve in this build: rtdb ones need a database URL. */
export const servable = (resource: Pick<ResourceDefinition, "source">) => resource.source !== "rtdb" || rtdbAvailable;

type Rtdb = { dataProvider: DataProvider; liveProvider: LiveProvider; port: RtdbPort };
let rtdb: Promise<Rtdb> | undefined;

function loadRtdb(): Promise<Rtdb> {
  if (rtdb) return rtdb;
  rtdb = Promise.all([
    import("firebase/database"),
    import("./firebase"),
    import("./rtdb/rtdbPort"),
    import("./rtdb/rtdbDataProvider"),
    import("./rtdb/rtdbLiveProvider"),
  ]).then(
    ([
      { getDatabase, connectDatabaseEmulator },
      { firebaseApp, auth },
      { firebaseRtdbPort },
      { createRtdbDataProvider },
      { createRtdbLiveProvider },
    ]) => {
      const database = getDatabase(firebaseApp, runtimeConfig.firebase.databaseURL);
      const emulator = runtimeConfig.databaseEmulatorHost;
      if (emulator)
        connectDatabaseEmulator(
          database,
          emulator.slice(0, emulator.lastIndexOf(":")),
          Number(emulator.slice(emulator.lastIndexOf(":") + 1)),
        );
      const port = firebaseRtdbPort(database);
      // A subscriber's records live under their uid (the rules let no one else list them).
      const root = (resource: string) => {
        const uid = auth.currentUser?.uid;
        if (!uid) throwHttpError({ message: "Not signed in.", statusCode: 401 });
        return `${resource}/${uid}`;
      };
      return {
        dataProvider: createRtdbDataProvider(port, { root, resources: findResource }),
        liveProvider: createRtdbLiveProvider(port, { root }),
        port,
      };
    },
  );
  rtdb.catch(() => {
    rtdb = undefined; // a failed chunk load must not stick: the next call retries it
  });
  return rtdb;
}

/**
 * The database itself, for what Refine's providers cannot say (presence's onDisconnect), loaded on
 * first call; undefined when the build names no database (the local default).
 */
export async function rtdbPort(): Promise<RtdbPort | undefined> {
  return rtdbAvailable ? (await loadRtdb()).port : undefined;
}

type Method = Exclude<keyof DataProvider, "getApiUrl">;
const lazy = (method: Method) => async (params: never) => {
  const provider = (await loadRtdb()).dataProvider;
  const call = provider[method] as ((p: never) => Promise<unknown>) | undefined;
  if (!call) throwHttpError({ message: `The Realtime Database source does not support ${method}.`, statusCode: 501 });
  return call(params);
};

/** The RTDB data provider, loaded on first call. */
export const rtdbDataProvider = {
  getApiUrl: () => runtimeConfig.firebase.databaseURL ?? "",
  getList: lazy("getList"),
  getOne: lazy("getOne"),
  getMany: lazy("getMany"),
  create: lazy("create"),
  update: lazy("update"),
  deleteOne: lazy("deleteOne"),
} as unknown as DataProvider;

interface Routed {
  source: "backend" | "rtdb";
  handle?: unknown;
  cancelled?: boolean;
}

const CHANNEL = /^resources\/(.+)$/;

/**
 * One Refine live provider in front of two: channels of rtdb resources go to the database's child
 * events, every other one to the backend's server-sent events.
 */
export function routeLive(options: {
  backend: LiveProvider;
  rtdb: () => Promise<LiveProvider>;
  sourceOf: (resource: string) => "backend" | "rtdb" | undefined;
}): LiveProvider {
  return {
    subscribe(params): Routed {
      const name = CHANNEL.exec(params.channel)?.[1] ?? params.params?.resource ?? "";
      if (options.sourceOf(name) !== "rtdb") return { source: "backend", handle: options.backend.subscribe(params) };
      const routed: Routed = { source: "rtdb" };
      void options.rtdb().then(
        (live) => {
          if (!routed.cancelled) routed.handle = live.subscribe(params);
        },
        (error) => console.warn(`Live updates of ${name} are off: the Realtime Database did not load.`, error),
      );
      return routed;
    },
    unsubscribe(subscription: Routed) {
      if (subscription.source === "backend") return options.backend.unsubscribe(subscription.handle);
      subscription.cancelled = true;
      if (subscription.handle) void options.rtdb().then((live) => live.unsubscribe(subscription.handle));
    },
  };
}

/** The live provider of the portal: backend SSE, or RTDB child events for rtdb resources. */
export function portalLiveProvider(backend: LiveProvider): LiveProvider {
  return routeLive({
    backend,
    rtdb: async () => (await loadRtdb()).liveProvider,
    sourceOf: (name) => findResource(name)?.source,
  });
}
