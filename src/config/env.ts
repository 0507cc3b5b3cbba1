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

/** A URL the browser may load a script from: HTTPS, or plain HTTP to this machine (local tests). */
const httpsOrLocalUrl = z.url().refine((v) => {
  const url = new URL(v);
  return (
    url.protocol === "https:" ||
    (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname))
  );
}, "an https:// URL (http:// only for 127.0.0.1 or localhost)");
const scriptUrl = z.union([z.literal(""), httpsOrLocalUrl]).default("");

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
  /** Maps places key (address autocomplete on the profile page); empty: the plain validated address form. */
  VITE_MAPS_PLACES_KEY: z
    .union([z.literal(""), z.string().regex(/^[\w-]{8,128}$/, "an API key: 8 to 128 letters, digits, - or _")])
    .default(""),
  /** The CRM chat widget script, loaded on the help button after consent; empty: no chat button. */
  VITE_CRM_CHAT_SCRIPT_URL: scriptUrl,
  /** The CRM tracker script, loaded after consent to analytics. */
  VITE_CRM_TRACKER_URL: scriptUrl,
  /** Access key handed to the chat widget and the tracker (public by nature: it identifies the site). */
  VITE_CHAT_ACCESS_KEY: z
    .union([z.literal(""), z.string().regex(/^[\w.:-]{4,256}$/, "letters, digits, . : - or _ (4 to 256)")])
    .default(""),
  /** Google Tag Manager container, e.g. GTM-ABC123; loaded only after consent. */
  VITE_TAG_MANAGER_ID: z
    .union([z.literal(""), z.string().regex(/^GTM-[A-Z0-9]{4,12}$/, "a container id like GTM-ABC123")])
    .default(""),
  /** Analytics measurement ids, comma-separated (G-…, AW-…); loaded only after consent. */
  VITE_ANALYTICS_IDS: z
    .union([
      z.literal(""),
      z
        .string()
        .regex(/^(G|AW|DC)-[A-Z0-9]{4,12}(,(G|AW|DC)-[A-Z0-9]{4,12})*$/, "comma-separated ids like G-XYZ789,AW-123456"),
    ])
    .default(""),
  /**
   * Where gtm.js and gtag.js come from: Google's host, or a first-party tagging server (server-side
   * tagging). Its origin is the only tag host the Content-Security-Policy allows.
   */
  VITE_TAG_SCRIPT_ORIGIN: httpsOrLocalUrl.default("https://www.googletagmanager.com"),
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
