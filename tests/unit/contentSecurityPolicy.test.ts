import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "../../scripts/build";
import {
  OPTIONAL_FEATURES,
  parsePolicy,
  portalContentSecurityPolicy,
  portalDirectives,
  type Directives,
} from "../../src/config/contentSecurityPolicy";
import { parsePortalEnv, type PortalEnv } from "../../src/config/env";

const HASHES = ["'sha256-one'", "'sha256-two'"];
/** The raw variables of a local build (all defaults) and of a production one (no emulator). */
const BUILDS = {
  local: {},
  production: { VITE_AUTH_EMULATOR_HOST: "", VITE_FIREBASE_AUTH_DOMAIN: "att-portal.firebaseapp.com" },
};
const LOCAL = parsePortalEnv(BUILDS.local);
const PRODUCTION = parsePortalEnv(BUILDS.production);

/** Sources of `after` that `before` does not have, per directive (directives with none left out). */
function added(before: Directives, after: Directives): Directives {
  const result: Directives = {};
  for (const [name, sources] of Object.entries(after)) {
    const extra = sources.filter((s) => !(before[name] ?? []).includes(s));
    if (extra.length) result[name] = extra;
  }
  return result;
}

/** Each switch with a value, and exactly the sources that value must add. */
const SWITCHES: { name: keyof PortalEnv; value: string; adds: Directives }[] = [
  { name: "VITE_API_URL", value: "https://api.att.example/v1", adds: { "connect-src": ["https://api.att.example"] } },
  {
    name: "VITE_FIREBASE_DATABASE_URL",
    value: "https://att-portal.firebaseio.com",
    adds: {
      "connect-src": ["https://att-portal.firebaseio.com", "wss://att-portal.firebaseio.com", "wss://*.firebaseio.com"],
    },
  },
  {
    name: "VITE_FIREBASE_APP_ID",
    value: "1:1234567890:web:abcdef",
    adds: {
      "connect-src": ["https://firebaseinstallations.googleapis.com", "https://firebaseremoteconfig.googleapis.com"],
    },
  },
  {
    name: "VITE_CRM_CHAT_SCRIPT_URL",
    value: "https://chat.crm.example/widget/loader.js",
    adds: { "script-src": ["https://chat.crm.example"], "connect-src": ["https://chat.crm.example"] },
  },
  {
    name: "VITE_CRM_TRACKER_URL",
    value: "https://tracker.crm.example/t.js",
    adds: { "script-src": ["https://tracker.crm.example"], "connect-src": ["https://tracker.crm.example"] },
  },
  {
    name: "VITE_TAG_MANAGER_ID",
    value: "GTM-ABC123",
    adds: { "script-src": ["https://www.googletagmanager.com"], "img-src": ["https://www.googletagmanager.com"] },
  },
  {
    name: "VITE_ANALYTICS_IDS",
    value: "G-XYZ789",
    adds: {
      "script-src": ["https://www.googletagmanager.com"],
      "img-src": ["https://www.googletagmanager.com", "https://*.google-analytics.com"],
      "connect-src": [
        "https://www.googletagmanager.com",
        "https://*.google-analytics.com",
        "https://*.analytics.google.com",
      ],
    },
  },
  {
    name: "VITE_MAPS_PLACES_KEY",
    value: "maps-key",
    adds: {
      "script-src": ["https://maps.googleapis.com"],
      "connect-src": ["https://maps.googleapis.com", "https://places.googleapis.com"],
      "img-src": ["https://maps.gstatic.com"],
    },
  },
];

describe("the portal's Content-Security-Policy", () => {
  it("runs scripts from its own origin and the build's inline scripts by hash only: never inline code or eval", () => {
    for (const env of [LOCAL, PRODUCTION]) {
      const d = portalDirectives(env, HASHES);
      expect(d["script-src"]!.slice(0, 3)).toEqual(["'self'", ...HASHES]);
      expect(d["script-src"]!.filter((s) => s.startsWith("'") && !s.startsWith("'sha256-"))).toEqual(["'self'"]);
      expect(d["default-src"]).toEqual(["'self'"]);
      expect(d["object-src"]).toEqual(["'none'"]);
      expect(d["base-uri"]).toEqual(["'none'"]);
      expect(d["form-action"]).toEqual(["'self'"]);
      expect(d["frame-ancestors"]).toEqual(["'none'"]);
    }
  });

  it("a local build talks to the Auth emulator and to nothing of Google's but the script Google sign-in needs", () => {
    const d = portalDirectives(LOCAL, HASHES);
    expect(d["connect-src"]).toEqual(["'self'", "http://127.0.0.1:9099"]);
    expect(d["frame-src"]).toEqual(["http://127.0.0.1:9099"]);
    expect(d["script-src"]).toEqual(["'self'", ...HASHES, "https://apis.google.com"]);
    expect(d["img-src"]).toEqual(["'self'"]);
  });

  it("a production build talks to Firebase Auth, frames its auth domain for popup and redirect, and loads reCAPTCHA for SMS", () => {
    const d = portalDirectives(PRODUCTION, HASHES);
    expect(d["connect-src"]).toEqual([
      "'self'",
      "https://identitytoolkit.googleapis.com",
      "https://securetoken.googleapis.com",
    ]);
    expect(d["frame-src"]).toEqual([
      "https://att-portal.firebaseapp.com",
      "https://www.google.com/recaptcha/",
      "https://recaptcha.google.com/recaptcha/",
    ]);
    expect(d["script-src"]).toEqual([
      "'self'",
      ...HASHES,
      "https://apis.google.com",
      "https://www.google.com/recaptcha/",
      "https://www.gstatic.com/recaptcha/",
    ]);
    expect(JSON.stringify(d)).not.toContain("127.0.0.1");
  });

  it("names every optional switch exactly once, and the test knows what each one adds", () => {
    expect(OPTIONAL_FEATURES.map((f) => f.switch).sort()).toEqual(SWITCHES.map((s) => s.name).sort());
  });

  it.each(SWITCHES)("$name adds exactly its hosts, only when set", ({ name, value, adds }) => {
    for (const raw of Object.values(BUILDS)) {
      const without = portalDirectives(parsePortalEnv(raw), HASHES);
      const withIt = portalDirectives(parsePortalEnv({ ...raw, [name]: value }), HASHES);
      expect(added(without, withIt)).toEqual(adds);
      expect(added(withIt, without)).toEqual({});
    }
  });

  it("with every switch set, the policy allows the union of their hosts and nothing more", () => {
    const all = parsePortalEnv(Object.fromEntries(SWITCHES.map((s) => [s.name, s.value])));
    const expected: Directives = {};
    for (const { adds } of SWITCHES)
      for (const [name, sources] of Object.entries(adds))
        expected[name] = [...new Set([...(expected[name] ?? []), ...sources])];
    const got = added(portalDirectives(LOCAL, HASHES), portalDirectives(all, HASHES));
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected).sort());
    for (const name of Object.keys(expected)) expect(new Set(got[name]), name).toEqual(new Set(expected[name]));
  });

  it("VITE_TAG_SCRIPT_ORIGIN replaces Google's tag host, and adds nothing while no tag id is set", () => {
    const origin = { VITE_TAG_SCRIPT_ORIGIN: "https://tags.att.example/" };
    expect(portalDirectives(parsePortalEnv(origin), HASHES)).toEqual(portalDirectives(LOCAL, HASHES));
    const tagged = portalDirectives(
      parsePortalEnv({ ...origin, VITE_TAG_MANAGER_ID: "GTM-ABC123", VITE_ANALYTICS_IDS: "G-XYZ789" }),
      HASHES,
    );
    expect(tagged["script-src"]).toContain("https://tags.att.example");
    expect(
      Object.values(tagged)
        .flat()
        .filter((s) => s.includes("googletagmanager")),
    ).toEqual([]);
  });

  it("allows a Realtime Database emulator only for a build that names a database", () => {
    const emulatorOnly = portalDirectives(parsePortalEnv({ VITE_DATABASE_EMULATOR_HOST: "127.0.0.1:9000" }), HASHES);
    expect(emulatorOnly["connect-src"]).not.toContain("http://127.0.0.1:9000");
    const withDatabase = portalDirectives(
      parsePortalEnv({
        VITE_DATABASE_EMULATOR_HOST: "127.0.0.1:9000",
        VITE_FIREBASE_DATABASE_URL: "https://demo-att.firebaseio.com",
      }),
      HASHES,
    );
    expect(withDatabase["connect-src"]).toEqual(
      expect.arrayContaining(["http://127.0.0.1:9000", "ws://127.0.0.1:9000"]),
    );
  });

  it("serializes to a header that parses back to the same directives", () => {
    const policy = portalContentSecurityPolicy(PRODUCTION, HASHES);
    expect(policy).not.toMatch(/[\r\n]/);
    expect(parsePolicy(policy)).toEqual(portalDirectives(PRODUCTION, HASHES));
  });
});

describe("inlineScriptHashes", () => {
  it("hashes the exact text of each inline script, classic or module, and skips scripts with a src", () => {
    const html = `<head><script>window.a = 1</script><script type="module" src="/assets/entry.js"></script></head>
      <body><script type="module">import("/assets/x.js")</script></body>`;
    expect(inlineScriptHashes(html)).toEqual([
      "'sha256-Aif1QuaDxF56ZK3+IyoelKcjrWC+BWl5ZGfcO1AMmA4='",
      "'sha256-iNlxD7O0U+T9QgOrzmlXqm/m5z/ps3ufGrNt2LTaqLk='",
    ]);
  });
});
