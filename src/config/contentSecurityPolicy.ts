import type { PortalEnv } from "./env.ts";

/**
 * The portal's Content-Security-Policy, derived from the validated build configuration (./env.ts)
 * and nothing else: scripts/build.ts writes it next to dist/index.html and the backend sends it
 * with every HTML response. A host appears only when the switch that needs it is set.
 */
export type Directives = Record<string, string[]>;

/** The file next to dist/index.html that carries the build's policy: `{ contentSecurityPolicy }`. */
export const SECURITY_POLICY_FILE = "security-policy.json";

const originOf = (url: string) => new URL(url).origin;

/** The Realtime Database: HTTPS and its WebSocket, plus the shard hosts the server may redirect to. */
function realtimeDatabase(env: PortalEnv): Directives {
  const url = new URL(env.VITE_FIREBASE_DATABASE_URL);
  const parent = url.hostname.split(".").slice(1).join(".");
  const sources = [url.origin, `wss://${url.host}`, ...(parent.includes(".") ? [`wss://*.${parent}`] : [])];
  if (env.VITE_DATABASE_EMULATOR_HOST)
    sources.push(`http://${env.VITE_DATABASE_EMULATOR_HOST}`, `ws://${env.VITE_DATABASE_EMULATOR_HOST}`);
  return { "connect-src": sources };
}

/**
 * Firebase Auth. With the emulator every call, the popup/redirect iframe included, goes to its
 * host. In production: the REST APIs, the auth domain's iframe (popup and redirect) and reCAPTCHA
 * (phone sign-in and SMS second steps). Google's popup needs gapi from apis.google.com either way.
 */
function firebaseAuth(env: PortalEnv): Directives {
  const google = "https://apis.google.com";
  if (env.VITE_AUTH_EMULATOR_HOST) {
    const emulator = `http://${env.VITE_AUTH_EMULATOR_HOST}`;
    return { "script-src": [google], "connect-src": [emulator], "frame-src": [emulator] };
  }
  return {
    "script-src": [google, "https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
    "connect-src": ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"],
    "frame-src": [
      `https://${env.VITE_FIREBASE_AUTH_DOMAIN}`,
      "https://www.google.com/recaptcha/",
      "https://recaptcha.google.com/recaptcha/",
    ],
  };
}

/** Analytics: its script from the tag origin, and its beacons to Google's collection hosts. */
const analytics = (env: PortalEnv): Directives => ({
  "script-src": [originOf(env.VITE_TAG_SCRIPT_ORIGIN)],
  "img-src": [originOf(env.VITE_TAG_SCRIPT_ORIGIN), "https://*.google-analytics.com"],
  "connect-src": [
    originOf(env.VITE_TAG_SCRIPT_ORIGIN),
    "https://*.google-analytics.com",
    "https://*.analytics.google.com",
  ],
});

/**
 * The optional integrations, one row each: the switch that turns it on and the hosts it needs.
 * The issue that wires a feature adjusts its row here, and only here.
 */
export const OPTIONAL_FEATURES: readonly { switch: keyof PortalEnv; sources: (env: PortalEnv) => Directives }[] = [
  { switch: "VITE_API_URL", sources: (env) => ({ "connect-src": [originOf(env.VITE_API_URL)] }) },
  { switch: "VITE_FIREBASE_DATABASE_URL", sources: realtimeDatabase },
  // Remote Config needs an app id; it fetches through Firebase Installations.
  {
    switch: "VITE_FIREBASE_APP_ID",
    sources: () => ({
      "connect-src": ["https://firebaseinstallations.googleapis.com", "https://firebaseremoteconfig.googleapis.com"],
    }),
  },
  {
    switch: "VITE_CRM_CHAT_SCRIPT_URL",
    sources: (env) => ({
      "script-src": [originOf(env.VITE_CRM_CHAT_SCRIPT_URL)],
      "connect-src": [originOf(env.VITE_CRM_CHAT_SCRIPT_URL)],
    }),
  },
  {
    switch: "VITE_CRM_TRACKER_URL",
    sources: (env) => ({
      "script-src": [originOf(env.VITE_CRM_TRACKER_URL)],
      "connect-src": [originOf(env.VITE_CRM_TRACKER_URL)],
    }),
  },
  {
    switch: "VITE_TAG_MANAGER_ID",
    sources: (env) => ({
      "script-src": [originOf(env.VITE_TAG_SCRIPT_ORIGIN)],
      "img-src": [originOf(env.VITE_TAG_SCRIPT_ORIGIN)],
    }),
  },
  { switch: "VITE_ANALYTICS_IDS", sources: analytics },
  {
    switch: "VITE_MAPS_PLACES_KEY",
    sources: () => ({
      "script-src": ["https://maps.googleapis.com"],
      "connect-src": ["https://maps.googleapis.com", "https://places.googleapis.com"],
      "img-src": ["https://maps.gstatic.com"],
    }),
  },
];

/**
 * The directives for a build. `inlineScriptHashes` are the `'sha256-…'` sources of the inline
 * scripts the built index.html carries (computed by scripts/build.ts from the final file).
 */
export function portalDirectives(env: PortalEnv, inlineScriptHashes: readonly string[]): Directives {
  const directives: Directives = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...inlineScriptHashes],
    // antd writes its CSS-in-JS <style> elements at run time, and React sets style attributes: inline
    // styles stay allowed. Scripts never are.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  const parts = [firebaseAuth(env), ...OPTIONAL_FEATURES.filter((f) => env[f.switch]).map((f) => f.sources(env))];
  for (const part of parts) {
    for (const [name, sources] of Object.entries(part)) {
      directives[name] = [...new Set([...(directives[name] ?? []), ...sources])];
    }
  }
  return directives;
}

export function serializePolicy(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(" "))
    .join("; ");
}

export function parsePolicy(policy: string): Directives {
  return Object.fromEntries(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

export const portalContentSecurityPolicy = (env: PortalEnv, inlineScriptHashes: readonly string[]) =>
  serializePolicy(portalDirectives(env, inlineScriptHashes));
