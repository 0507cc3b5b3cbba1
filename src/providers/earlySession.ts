import { runtimeConfig } from "../config/runtime";
import type { Home } from "../resources/usage";
import type { SessionUser } from "./sessionUser";
import { apiBase, backendHeaders } from "./backendHeaders";
import { keepPrefetchedHome } from "./prefetchedHome";

// A returning subscriber's page without waiting for Firebase. On every boot the Firebase SDK (~60 KB
// with the phone formatting it brings) loads, reads its stored user and asks Firebase's servers about
// it (accounts:lookup) before it hands out a token: on a phone network, about a second before the
// page's first request could start. The ID token Firebase last issued here (valid one hour, signed by
// Google, checked by the backend on every call) is kept beside Firebase's own copy; while it is
// still valid, the entry draws the light pages for the person it names and sends GET /home with it at
// once. Firebase still restores the session behind it and stays the truth: main.tsx sends a person
// whose session it does not find to the sign-in, and an answer the backend refuses is simply not used.

const KEY = "portal.idToken";
/** A token this close to its end is not used: the request might arrive after it. */
const MARGIN_MS = 60_000;

/**
 * Where the copy lives follows the sign-in's "Remember me" (authProvider's choosePersistence): a
 * session that ends with the browser keeps its token in sessionStorage, never in localStorage.
 * Unknown in this page's life (a reload), it stays where it was.
 */
let lasting: boolean | undefined;

export function keepTokenLasting(remember: boolean): void {
  lasting = remember;
}

/** Keeps (or, signed out, forgets) the ID token Firebase just issued; called on each of its changes. */
export function rememberIdToken(token: string | null): void {
  try {
    const local = lasting ?? sessionStorage.getItem(KEY) === null;
    localStorage.removeItem(KEY);
    sessionStorage.removeItem(KEY);
    if (token) (local ? localStorage : sessionStorage).setItem(KEY, token);
  } catch {
    // storage blocked: every boot waits for Firebase, as before
  }
}

/** A JWT's claims (its middle part, base64url JSON); undefined when it is not one. */
function claimsOf(token: string): Record<string, unknown> | undefined {
  try {
    const part = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(part), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export interface EarlySubscriber {
  user: SessionUser;
  token: string;
}

/** The kept token and its claims, when it is valid for a minute more and was issued for this portal's project and operator. */
function keptToken(now: number): { token: string; claims: Record<string, unknown> } | undefined {
  let token: string | null;
  try {
    token = sessionStorage.getItem(KEY) ?? localStorage.getItem(KEY);
  } catch {
    return undefined;
  }
  const claims = token ? claimsOf(token) : undefined;
  if (!token || !claims) return undefined;
  const valid = typeof claims.exp === "number" && claims.exp * 1000 > now + MARGIN_MS;
  const ours = claims.aud === runtimeConfig.firebase.projectId && claims.operator === runtimeConfig.operator;
  return valid && ours ? { token, claims } : undefined;
}

/** The subscriber the kept token names (keptToken, with the subscriber role); otherwise undefined. */
export function earlySubscriber(now = Date.now()): EarlySubscriber | undefined {
  const kept = keptToken(now);
  if (!kept) return undefined;
  const { token, claims } = kept;
  if (claims.role !== "subscriber" || typeof claims.sub !== "string") return undefined;
  const text = (key: string) => {
    const value = claims[key];
    return typeof value === "string" && value ? value : null;
  };
  const email = text("email");
  return {
    token,
    user: {
      uid: claims.sub,
      email,
      name: text("name") ?? email ?? text("phone_number") ?? claims.sub,
      role: "subscriber",
      operator: runtimeConfig.operator,
    },
  };
}

let firebaseRestored = false;

/** Firebase has restored the session (or found none): from then on it alone hands out tokens (providers/firebase.ts). */
export function firebaseHasRestored(): void {
  firebaseRestored = true;
}

/**
 * The kept token for an API call made before Firebase has restored the session (the page's other
 * first requests, the live channel), so they do not wait for it either; undefined once it has.
 */
export function earlyIdToken(now = Date.now()): string | undefined {
  return firebaseRestored ? undefined : keptToken(now)?.token;
}

/** GET /home with the kept token, before Firebase has loaded; any answer but 200 is no answer. */
export function startEarlyHome(token: string): void {
  keepPrefetchedHome(
    fetch(`${apiBase}/home`, { headers: { accept: "application/json", ...backendHeaders(token) } })
      .then((response) => (response.ok ? (response.json() as Promise<Home>) : undefined))
      .catch(() => undefined),
  );
}
