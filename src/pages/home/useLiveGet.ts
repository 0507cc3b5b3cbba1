import { startTransition, useEffect, useState } from "react";
import type { CrudFilter, CrudSort } from "@refinedev/core";
import { dataProvider } from "../../providers/dataProvider";
import { liveProvider } from "../../providers/liveProvider";

export interface LiveGet<T> {
  data?: T;
  /** Why the first load failed; a later failure keeps the data shown. */
  error?: string;
}

/**
 * An answer kept fresh without Refine: loaded once, then again on every live event of `resources`
 * through the portal's one SSE stream; one request at a time, and a burst of events while one runs
 * costs one more. `key` names what `load` asks for: a new key loads anew.
 */
function useLive<T>(key: string, resources: string | readonly string[], load: () => Promise<T>): LiveGet<T> {
  const channels = [resources].flat().map((resource) => `resources/${resource}`);
  const [state, setState] = useState<LiveGet<T>>({});
  useEffect(() => {
    let alive = true;
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        const data = await load();
        // In a transition: React draws what the answer changes in slices that leave the main thread
        // free every few milliseconds, not in one long task (a phone stays responsive while a page fills).
        if (alive) startTransition(() => setState({ data }));
      } catch (error) {
        const message = (error as { message?: string }).message ?? "";
        if (alive) setState((previous) => (previous.data === undefined ? { error: message } : previous));
      }
      running = false;
      if (again && alive) {
        again = false;
        void run();
      }
    };
    void run();
    const subscriptions = channels.map((channel): unknown =>
      liveProvider.subscribe({ channel, types: ["*"], callback: () => void run() }),
    );
    return () => {
      alive = false;
      for (const subscription of subscriptions) liveProvider.unsubscribe(subscription);
    };
  }, [key, channels.join()]); // `load` is what `key` names
  return state;
}

/** A GET of the API kept fresh (GET /home takes the sign-in's prefetch through the data provider). */
export function useLiveGet<T>(path: string, resources: string | readonly string[]): LiveGet<T> {
  return useLive(path, resources, async () => (await dataProvider.custom!({ url: path, method: "get" })).data as T);
}

export interface LiveListQuery {
  pageSize: number;
  sorters?: CrudSort[];
  filters?: CrudFilter[];
}

/** The first page of a resource's list (as the engine's list API answers it), kept fresh by that resource's events. */
export function useLiveList<T>(resource: string, { pageSize, sorters, filters }: LiveListQuery): LiveGet<T[]> {
  return useLive(JSON.stringify([pageSize, sorters, filters]), resource, async () => {
    const { data } = await dataProvider.getList({
      resource,
      pagination: { currentPage: 1, pageSize },
      ...(sorters ? { sorters } : {}),
      ...(filters ? { filters } : {}),
    });
    return data as T[];
  });
}
