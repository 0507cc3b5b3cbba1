/** Runs `work` once the browser is idle (after 200 ms where it cannot tell): code a page may need soon, not now. */
export const whenIdle = (work: () => void): void =>
  void (window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 200)))(work);
