import { useCallback, useEffect, useState, type CSSProperties } from "react";

// A page whose cards each load their own data draws them together, once every one has its answer
// (or its error). Drawn as they arrived, each card that grew pushed the ones below it down the
// screen: the page jumped under the reader's thumb (layout shifts of 0.08 to 0.43 at a phone's size
// on Money and Shop, measured in Chromium on a throttled network).

/** `keys`: the cards the page waits for; each calls `loaded(key)` once its data is in. */
export function useAllLoaded(keys: readonly string[]) {
  const [done, setDone] = useState<ReadonlySet<string>>(() => new Set());
  const loaded = useCallback(
    (key: string) => setDone((previous) => (previous.has(key) ? previous : new Set(previous).add(key))),
    [],
  );
  return { allLoaded: keys.every((key) => done.has(key)), loaded };
}

/** A card's side: tells the page once `answered` (its data or its error is in). */
export function useReportLoaded(answered: boolean, key: string, loaded: ((key: string) => void) | undefined) {
  useEffect(() => {
    if (answered) loaded?.(key);
  }, [answered, key, loaded]);
}

/**
 * The style of what holds the cards: mounted (so each loads) but out of the layout until all are in,
 * then as if the holder were not there (the page's spacing applies to the cards themselves).
 */
export const heldUntil = (shown: boolean): CSSProperties => ({ display: shown ? "contents" : "none" });
