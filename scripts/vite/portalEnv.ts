import { loadEnv } from "vite";
import { parsePortalEnv, type PortalEnv } from "../../src/config/env.ts";

/**
 * The configuration a build of `mode` gets: `.env` files as Vite reads them, overridden by VITE_*
 * variables of the environment. vite.config.ts defines it for the bundle; scripts/build.ts derives
 * the Content-Security-Policy from it, so both always see the same switches. It reads files and the
 * process's environment, so it lives with the build tools, not in src/config beside the schema.
 */
export function loadPortalEnv(mode: string, root = process.cwd()): PortalEnv {
  const fromEnvironment = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("VITE_")));
  return parsePortalEnv({ ...loadEnv(mode, root, "VITE_"), ...fromEnvironment });
}
