import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { loadPortalEnv } from "./scripts/vite/portalEnv.ts";
import { declaredIcons } from "./scripts/vite/declaredIcons.ts";
import { subscriberPlaces } from "./scripts/vite/subscriberPlaces.ts";
import { homePhoneMetadata } from "./scripts/vite/homePhoneMetadata.ts";

// Build-time switches are validated here (a bad value fails the build) and the parsed values are
// what the bundle sees through import.meta.env.
export default defineConfig(({ mode }) => {
  const env = loadPortalEnv(mode);
  const define = Object.fromEntries(Object.entries(env).map(([k, v]) => [`import.meta.env.${k}`, JSON.stringify(v)]));
  return {
    plugins: [react(), declaredIcons(), subscriberPlaces(), homePhoneMetadata()],
    define,
    build: {
      target: "es2022",
      sourcemap: true,
      // The portal chunk (Refine + antd) is fetched after the sign-in form shows; only the entry is critical.
      chunkSizeWarningLimit: 1800,
      rolldownOptions: {
        // @refinedev/antd is one module that imports react-markdown and remark-gfm for its MarkdownField,
        // which the portal never uses; their packages do not declare themselves side-effect free, so
        // without this the markdown parser (~60 KB gzip) rode along on every signed-in page.
        treeshake: {
          moduleSideEffects: [{ test: /node_modules[\\/](react-markdown|remark-gfm)[\\/]/, sideEffects: false }],
        },
        output: {
          // zod's configuration (no eval: the policy forbids it) must run before any schema of the
          // declarations does.
          codeSplitting: {
            groups: [
              { name: "zod", test: /node_modules[\\/]zod[\\/]/ },
              // Its own chunk, which App.tsx imports first: inlined into App's chunk, it ran after the
              // chunks App's chunk imports (the declarations'), whose schemas had met zod's eval probe.
              // Alone: its dependencies (zod, the dictionaries) stay in their own chunks.
              {
                name: "zodInTheBrowser",
                test: /src[\\/]config[\\/]zodInTheBrowser/,
                includeDependenciesRecursively: false,
              },
            ],
          },
        },
      },
    },
    server: {
      port: 5173,
      proxy: { "/api": "http://127.0.0.1:8080" },
    },
  };
});
