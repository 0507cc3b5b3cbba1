import { loadEnv } from "vite";
import { z } from "zod";
import { DEFAULT_OPERATOR, OPERATOR_CODE_PATTERN } from "./operator.ts";

/**
 * Build-time switches of the portal (Vite `VITE_*` variables). Validated once in vite.config.ts so
 * a bad value fails the build, not a subscriber's phone; the browser bundle only reads the
 * already-validated constants through `import.meta.env` (see ./runtime.ts), keeping zod out of the
 * sign-in chunk.
 */
const flag = z
  .enum(["true", "false", ""])
  .default("false")
  .transform((v) => v === "true");

export const portalEnvSchema = z.object({
  VITE_OPERATOR: z.string().regex(OPERATOR_CODE_PATTERN, "a carrier code like ATT").default(DEFAULT_OPERATOR),
  /** Backend origin; empty means the same origin that served the portal. */
  VITE_API_URL: z.union([z.literal(""), z.url()]).default(""),
  VITE_FIREBASE_API_KEY: z.string().min(1).default("demo-api-key"),
  VITE_FIREBASE_AUTH_DOMAIN: z.string().min(1).default("demo-att-portal.firebaseapp.com"),
  VITE_FIREBASE_PROJECT_ID: z.string().min(1).default("demo-att-portal"),
  VITE_FIREBASE_APP_ID: z.string().default(""),
  VITE_FIREBASE_DATABASE_URL: z.union([z.literal(""), z.url()]).default(""),
  VITE_FIREBASE_STORAGE_BUCKET: z.string().default(""),
  /** host:port of the Auth emulator; empty in production builds. */
  VITE_AUTH_EMULATOR_HOST: z
    .union([z.literal(""), z.string().regex(/^[\w.-]+:\d+$/, "host:port")])
    .default("127.0.0.1:9099"),
  /** host:port of a Realtime Database emulator (where one can run); empty: the database at VITE_FIREBASE_DATABASE_URL. */
  VITE_DATABASE_EMULATOR_HOST: z.union([z.literal(""), z.string().regex(/^[\w.-]+:\d+$/, "host:port")]).default(""),
  VITE_MAPS_PLACES_KEY: z.string().default(""),
  VITE_CRM_CHAT_SCRIPT_URL: z.union([z.literal(""), z.url()]).default(""),
  VITE_CRM_TRACKER_URL: z.union([z.literal(""), z.url()]).default(""),
  VITE_CHAT_ACCESS_KEY: z.string().default(""),
  VITE_TAG_MANAGER_ID: z.string().default(""),
  VITE_ANALYTICS_IDS: z.string().default(""),
  VITE_TOPUP_PAYMENT_SETTING: z.string().default(""),
  VITE_BITRIX_INTEGRATION_REQUIRED: flag,
});

export type PortalEnv = z.output<typeof portalEnvSchema>;

/** Parses the raw environment, throwing one message that names every bad variable. */
export function parsePortalEnv(raw: Record<string, string | undefined>): PortalEnv {
  const result = portalEnvSchema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid portal configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

/**
 * The configuration a build of `mode` gets: `.env` files as Vite reads them, overridden by VITE_*
 * variables of the environment. vite.config.ts defines it for the bundle; scripts/build.ts derives
 * the Content-Security-Policy from it, so both always see the same switches.
 */
export function loadPortalEnv(mode: string, root = process.cwd()): PortalEnv {
  const fromEnvironment = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("VITE_")));
  return parsePortalEnv({ ...loadEnv(mode, root, "VITE_"), ...fromEnvironment });
}
