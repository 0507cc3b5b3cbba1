// Builds the portal into dist/ and writes brotli and gzip copies of every text asset, which the
// backend serves as they are (no compression per request), and the Content-Security-Policy that
// index.html needs (dist/security-policy.json). `isPortalBuildStale` lets `npm start` skip the
// build when nothing that goes into it has changed.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import { portalContentSecurityPolicy, SECURITY_POLICY_FILE } from "../src/config/contentSecurityPolicy";

const INPUTS = [
  "src",
  "public",
  "index.html",
  "vite.config.ts",
  "package-lock.json",
  "scripts/build.ts",
  "scripts/vite",
];
/**
 * Where the build goes: dist/ unless PORTAL_OUT_DIR names another folder (the e2e suite builds the
 * portal a second time with every operator switch set, beside the default build).
 */
export const portalOutDir = () => process.env.PORTAL_OUT_DIR || "dist";
const stampOf = (outDir: string) => join(outDir, ".build-stamp");
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

function* files(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) yield* files(join(path, entry));
  else yield path;
}

/** A fingerprint of everything the build reads: file paths, sizes, mtimes and VITE_* variables. */
function inputsFingerprint(): string {
  const hash = createHash("sha256");
  for (const input of INPUTS)
    for (const file of files(input)) {
      const s = statSync(file);
      hash.update(`${file}:${s.size}:${s.mtimeMs}\n`);
    }
  for (const [k, v] of Object.entries(process.env)
    .filter(([k]) => k.startsWith("VITE_"))
    .sort())
    hash.update(`${k}=${v}\n`);
  return hash.digest("hex");
}

export function isPortalBuildStale(outDir = portalOutDir()): boolean {
  const stamp = stampOf(outDir);
  const complete =
    existsSync(join(outDir, "index.html")) && existsSync(join(outDir, SECURITY_POLICY_FILE)) && existsSync(stamp);
  return !complete || readFileSync(stamp, "utf8") !== inputsFingerprint();
}

export async function buildPortal(outDir = portalOutDir()): Promise<void> {
  const fingerprint = inputsFingerprint();
  const { build } = await import("vite");
  // Always React's production build, even when called from a test runner (NODE_ENV=test).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ mode: "production", logLevel: "warn", build: { outDir, emptyOutDir: true, manifest: true } });
    await prerenderSignIn(build, outDir);
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  let raw = 0;
  let gz = 0;
  for (const file of files(outDir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    const gzipped = gzipSync(content, { level: 9 });
    writeFileSync(`${file}.gz`, gzipped);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    if (/\.(js|css)$/.test(file)) {
      raw += content.length;
      gz += gzipped.length;
    }
  }
  // After the compressed copies: only the backend reads it.
  await writeSecurityPolicy(outDir);
  writeFileSync(stampOf(outDir), fingerprint);
  console.log(
    `Portal built: ${(raw / 1024).toFixed(0)} KB of JS and CSS, ${(gz / 1024).toFixed(0)} KB gzip (${relative(".", outDir)}/)`,
  );
}

/** Writes the sign-in form's HTML into dist/index.html (src/prerender.tsx, built for Node). */
async function prerenderSignIn(build: typeof import("vite").build, portalDir: string): Promise<void> {
  const outDir = `.test-data/prerender-${portalDir.replace(/[^\w-]/g, "_")}`;
  await build({
    mode: "production",
    logLevel: "warn",
    build: { ssr: "src/prerender.tsx", outDir, emptyOutDir: true, sourcemap: false },
  });
  const { renderSignInPage, renderPortalStyles } = (await import(
    pathToFileURL(resolve(outDir, "prerender.js")).href + `?t=${Date.now()}`
  )) as {
    renderSignInPage: () => string;
    renderPortalStyles: () => string;
  };
  const indexFile = join(portalDir, "index.html");
  const index = readFileSync(indexFile, "utf8");
  if (!index.includes("<!--prerendered-sign-in-->"))
    throw new Error(`${indexFile} has no <!--prerendered-sign-in--> placeholder`);
  const html = inlineEntryCss(
    deferEntryPastFirstPaint(index.replace("<!--prerendered-sign-in-->", renderSignInPage())),
    portalDir,
  );
  writeFileSync(indexFile, withPortalChunks(withPortalStyles(html, renderPortalStyles(), portalDir), portalDir));
}

/**
 * The portal's chunks (src/App.tsx and what it imports, less what the entry already loads) in a meta
 * tag: the light home fetches them while idle without running them (main.tsx, prefetchPortalCode).
 * Read from Vite's manifest, which is then removed: nothing serves it.
 */
function withPortalChunks(html: string, portalDir: string): string {
  const manifestFile = join(portalDir, ".vite", "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<
    string,
    { file: string; imports?: string[]; isEntry?: boolean }
  >;
  const closure = (keys: string[], into = new Set<string>()): Set<string> => {
    for (const key of keys) if (!into.has(key) && manifest[key]) closure(manifest[key].imports ?? [], into.add(key));
    return into;
  };
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry || !manifest["src/App.tsx"]) throw new Error(`${manifestFile} has no entry or no src/App.tsx chunk`);
  const loaded = closure([entry]);
  const chunks = [...closure(["src/App.tsx"])]
    .filter((key) => !loaded.has(key))
    .map((key) => `/${manifest[key]!.file}`);
  rmSync(join(portalDir, ".vite"), { recursive: true, force: true });
  return html.replace("</head>", `  <meta name="portal-chunks" content="${chunks.join(" ")}">\n  </head>`);
}

/**
 * antd's CSS for the portal's frame and home, rendered ahead (src/portalStyles.tsx), as a file the
 * entry fetches with the portal (never before the sign-in form); its address goes in a meta tag.
 */
function withPortalStyles(html: string, styles: string, portalDir: string): string {
  const file = `assets/portal-styles-${createHash("sha256").update(styles).digest("hex").slice(0, 10)}.txt`;
  writeFileSync(join(portalDir, file), styles);
  return html.replace("</head>", `  <meta name="portal-styles" content="/${file}">\n  </head>`);
}

/**
 * The sign-in page's stylesheet (~1 KB) goes inline: a render-blocking request would otherwise
 * queue behind the entry's preloads on a phone's few connections, delaying the first paint.
 */
function inlineEntryCss(html: string, portalDir: string): string {
  return html.replace(
    /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/g,
    (_tag, href: string) => `<style>${readFileSync(join(portalDir, href), "utf8")}</style>`,
  );
}

/**
 * Fetch the entry at once (modulepreload) but run it only after the first paint: on a slow phone,
 * evaluating React takes longer than the prerendered form needs to appear.
 */
function deferEntryPastFirstPaint(html: string): string {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
  if (!entry) throw new Error("dist/index.html has no module entry script to defer");
  const src = entry[1]!;
  return html.replace(
    entry[0],
    `<link rel="modulepreload" crossorigin href="${src}">\n    <script type="module">requestAnimationFrame(() => setTimeout(() => import("${src}")));</script>`,
  );
}

/** `'sha256-…'` sources of every inline script in the page, as the browser hashes them (their exact text). */
export function inlineScriptHashes(html: string): string[] {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
    ([, attributes]) => !/\bsrc\s*=/i.test(attributes!),
  );
  return scripts.map(([, , body]) => `'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`);
}

/** The policy of this build: the same validated configuration the bundle was built with, and index.html's inline scripts. */
async function writeSecurityPolicy(outDir: string): Promise<void> {
  const { loadPortalEnv } = await import("./vite/portalEnv"); // loads Vite: only when building
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const policy = portalContentSecurityPolicy(loadPortalEnv("production"), inlineScriptHashes(html));
  writeFileSync(join(outDir, SECURITY_POLICY_FILE), JSON.stringify({ contentSecurityPolicy: policy }, null, 2) + "\n");
}

export async function buildPortalIfStale(outDir = portalOutDir()): Promise<boolean> {
  if (!isPortalBuildStale(outDir)) return false;
  await buildPortal(outDir);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // `--if-stale`: only when something that goes into the build changed (tests build a second portal this way).
  (process.argv.includes("--if-stale") ? buildPortalIfStale() : buildPortal()).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
