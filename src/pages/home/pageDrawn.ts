import { useEffect, useState } from "react";

// When the page at hand has drawn what it is for (its data, or why it has none): the moment the
// light app lets everything that is not the page load (the portal's code, Firebase, More's list).
// Loaded while the page still waited for its data, they shared the phone's network and main thread
// with it: Shop's largest paint came after 300 KB of the portal's code (5.4 s in Lighthouse's run).

let drawn = false;
const waiting: (() => void)[] = [];

/** Runs `work` once the page has drawn its data (at once if it has). */
export function whenPageDrawn(work: () => void): void {
  if (drawn) work();
  else waiting.push(work);
}

function markPageDrawn(): void {
  if (drawn) return;
  drawn = true;
  for (const work of waiting.splice(0)) work();
}

/**
 * A destination's side: `ready` once its data (or its error) is on screen; told after that frame is
 * painted. Answers whether it has been: what is below the page's cards (its chart, More) comes then,
 * so the frame with the cards, the page's largest paint, waits for nothing else's code or rendering.
 */
export function usePageDrawn(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        markPageDrawn();
        setPainted(true);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready]);
  return painted && ready;
}
