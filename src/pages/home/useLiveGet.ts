import { useEffect, useState } from "react";
import { dataProvider } from "../../providers/dataProvider";
import { liveProvider } from "../../providers/liveProvider";

export interface LiveGet<T> {
  data?: T;
  /** Why the first load failed; a later failure keeps the data shown. */
  error?: string;
}

/**
 * A GET kept fresh without Refine: loaded once (from `first` when it has an answer, e.g. a prefetch),
 * then again on every live event of `resource` through the portal's one SSE stream; one request at a
 * time, and a burst of events while one runs costs one more.
 */
export function useLiveGet<T>(path: string, resource: string, first?: () => Promise<T | undefined>): LiveGet<T> {
  const [state, setState] = useState<LiveGet<T>>({});
  useEffect(() => {
    let alive = true;
    let running = false;
    let again = false;
    const load = async (initial: boolean) => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        const data =
          (initial && first ? await first() : undefined) ??
          ((await dataProvider.custom!({ url: path, method: "get" })).data as T);
        if (alive) setState({ data });
      } catch (error) {
        const message = (error as { message?: string }).message ?? "";
        if (alive) setState((previous) => (previous.data === undefined ? { error: message } : previous));
      }
      running = false;
      if (again && alive) {
        again = false;
        void load(false);
      }
    };
    void load(true);
    const subscription: unknown = liveProvider.subscribe({
      channel: `resources/${resource}`,
      types: ["*"],
      callback: () => void load(false),
    });
    return () => {
      alive = false;
      liveProvider.unsubscribe(subscription);
    };
  }, [path, resource]); // `first` is read once, at mount
  return state;
}
