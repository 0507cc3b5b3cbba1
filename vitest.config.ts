import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { parsePortalEnv } from "./src/config/env.ts";
import { declaredIcons } from "./scripts/vite/declaredIcons.ts";
import { subscriberPlaces } from "./scripts/vite/subscriberPlaces.ts";
import { homePhoneMetadata } from "./scripts/vite/homePhoneMetadata.ts";
import { E2E_BACKEND_LOG_DIR } from "./tests/support/backendLogs.ts";
import { LastFileSequencer } from "./tests/support/lastFileSequencer.ts";

// Suites: unit (node), components (jsdom), house (Prettier and ESLint over the tree), integration against PGlite and, when a PostgreSQL
// server answers (scripts/test.ts sets TEST_POSTGRES=1), against it too; e2e in real Chromium.
// `npm test` (scripts/test.ts) starts the Auth emulator the integration and e2e suites need.
const integration = (name: string, env: Record<string, string>) => ({
  extends: true as const,
  test: {
    name,
    include: ["tests/integration/**/*.test.ts"],
    environment: "node",
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own backend on its own database, so files share nothing but the modules:
    // loading the whole server once per worker, not once per file, took a quarter off the suite.
    isolate: false,
  },
});

/** @firebase/auth's browser ESM build, wherever npm placed it (it may sit under firebase/node_modules). */
function browserBuildOfFirebaseAuth(): string {
  const fromFirebase = createRequire(createRequire(import.meta.url).resolve("firebase/package.json"));
  return fromFirebase.resolve("@firebase/auth/package.json").replace(/package\.json$/, "dist/esm/index.js");
}

// The portal's build-time configuration with its defaults, as vite.config.ts defines it for builds.
const portalEnv = parsePortalEnv({});

export default defineConfig({
  plugins: [react(), declaredIcons(), subscriberPlaces(), homePhoneMetadata()],
  define: Object.fromEntries(Object.entries(portalEnv).map(([k, v]) => [`import.meta.env.${k}`, JSON.stringify(v)])),
  resolve: {
    // The Node build of firebase/auth stubs phone, popup and redirect; tests use the browser build.
    alias: [{ find: /^firebase\/auth$/, replacement: browserBuildOfFirebaseAuth() }],
  },
  test: {
    // The e2e file that reads the run's backend logs for personal data runs after every other one.
    sequence: { sequencer: LastFileSequencer },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" } },
      {
        extends: true,
        test: {
          name: "components",
          include: ["tests/unit/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["tests/support/jsdomSetup.ts"],
          // Rendering a whole Refine page in jsdom takes seconds when the two cores are shared with other suites.
          testTimeout: 15_000,
          // Refine's router bindings must share the one react-router instance the test renders its router with.
          server: { deps: { inline: [/@refinedev\/react-router/] } },
        },
      },
      // The formatter and the type-checked linter over the whole tree: minutes, not seconds.
      {
        extends: true,
        test: { name: "house", include: ["tests/house/**/*.test.ts"], environment: "node", testTimeout: 900_000 },
      },
      integration("integration:pglite", { TEST_DB: "pglite" }),
      ...(process.env.TEST_POSTGRES === "1" ? [integration("integration:postgres", { TEST_DB: "postgres" })] : []),
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/e2e/globalSetup.ts"],
          setupFiles: ["tests/e2e/failureDiagnostics.ts"],
          fileParallelism: false,
          // Backends started by e2e files log into the run's log folder (tests/support/backendLogs.ts).
          env: { BACKEND_LOG_DIR: E2E_BACKEND_LOG_DIR },
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
