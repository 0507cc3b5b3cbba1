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

/** The waiting token (from the address or this tab), forgotten once taken. */
export function takeJoinToken(): string | null {
  const fromHash = decodeURIComponent(location.hash.replace(/^#/, "")).trim();
  let token: string | null = SHAPE.test(fromHash) ? fromHash : null;
  try {
    token ??= sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    // no storage: only the address
  }
  return token;
}
