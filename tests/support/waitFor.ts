import { performance } from "node:perf_hooks";

/**
 * Checks `condition` every `intervalMs` until it gives something other than false or undefined,
 * and resolves with that and the time it took; fails after `timeoutMs`, naming `what`. A condition
 * to wait on, never a fixed sleep.
 */
export async function waitFor<T>(
  what: string,
  condition: () => Promise<T | false | undefined> | T | false | undefined,
  { timeoutMs = 10_000, intervalMs = 5 } = {},
): Promise<{ value: T; elapsedMs: number }> {
  const started = performance.now();
  for (;;) {
    const value = await condition();
    if (value !== false && value !== undefined) return { value, elapsedMs: performance.now() - started };
    if (performance.now() - started > timeoutMs) throw new Error(`Waited ${timeoutMs} ms for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The token's `auth_time` (seconds). */
export const authTimeOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { auth_time: number }).auth_time;

/**
 * Waits until the clock is in a later second than the token's sign-in: revocation times and
 * `auth_time` are whole seconds, and a revocation in the same second does not cover the token.
 */
export async function clockPastSignInOf(token: string): Promise<void> {
  const authTime = authTimeOf(token);
  await waitFor(`the clock to pass ${authTime} s`, () => Date.now() >= (authTime + 1) * 1000, { intervalMs: 20 });
}
