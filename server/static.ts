import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { SECURITY_POLICY_FILE } from "#config/contentSecurityPolicy";

/** A built portal: where it is and the Content-Security-Policy its index.html was built for. */
export interface PortalBuild {
  root: string;
  contentSecurityPolicy: string;
}

/**
 * The portal built into `staticDir` (scripts/build.ts), or undefined when there is none (API only).
 * A build without its policy is refused: serving it with a policy of our own making would either
 * break the page or allow more than it needs.
 */
export function readPortalBuild(staticDir: string): PortalBuild | undefined {
  const root = resolve(staticDir);
  if (!existsSync(resolve(root, "index.html"))) return undefined;
  const policyFile = resolve(root, SECURITY_POLICY_FILE);
  if (!existsSync(policyFile)) throw new Error(`${policyFile} is missing: rebuild the portal (npm run build).`);
  const { contentSecurityPolicy } = JSON.parse(readFileSync(policyFile, "utf8")) as { contentSecurityPolicy?: unknown };
  if (typeof contentSecurityPolicy !== "string" || !contentSecurityPolicy)
    throw new Error(`${policyFile} has no contentSecurityPolicy: rebuild the portal (npm run build).`);
  return { root, contentSecurityPolicy };
}

/**
 * Serves the built portal: brotli/gzip files written at build time (scripts/build.ts) when the
 * browser accepts them, hashed assets cached for a year, index.html always revalidated, and any
 * other GET outside /api answered with index.html so client routes survive a reload.
 */
export async function serveStatic(app: FastifyInstance, build: PortalBuild): Promise<void> {
  await app.register(fastifyStatic, {
    root: build.root,
    preCompressed: true,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(response, path) {
      response.setHeader(
        "Cache-Control",
        path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
      );
    },
  });
}

export function sendIndex(reply: import("fastify").FastifyReply) {
  return reply.header("Cache-Control", "no-cache").sendFile("index.html");
}
