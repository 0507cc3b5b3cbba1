// An account invitation's token (issue 28: `/join-account#<token>`) kept for this tab while the
// person signs in or signs up: the sign-in page's `?to=` keeps the path but not the fragment. Plain
// code, no zod: main.tsx runs it before anything else loads.

/** The portal page an invitation opens (JOIN_ACCOUNT_PATH in resources/accountMembers.ts). */
export const JOIN_PATH = "/join-account";
const KEY = "portal.joinAccountToken";
const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** On `/join-account#<token>`: keeps the token for this tab (sessionStorage) and drops it from the address. */
export function keepJoinToken(): void {
  if (location.pathname !== JOIN_PATH) return;
  const token = decodeURIComponent(location.hash.replace(/^#/, "")).trim();
  if (!SHAPE.test(token)) return;
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    return; // storage refused: the page still reads it from the address
  }
  history.replaceState(null, "", JOIN_PATH);
}

/** Whether an invitation waits to be accepted after the sign-in. */
export function joinTokenWaits(): boolean {
  try {
    return sessionStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * The waiting token (from the address or this tab). Reading it changes nothing: a render React
 * throws away (a part of the page still loading) must not lose it; forgetJoinToken() once it is sent.
 */
export function waitingJoinToken(): string | null {
  const fromHash = decodeURIComponent(location.hash.replace(/^#/, "")).trim();
  if (SHAPE.test(fromHash)) return fromHash;
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null; // no storage: only the address
  }
}

/** Forgets the waiting token, once the invitation was answered. */
export function forgetJoinToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // no storage: nothing kept
  }
}
