import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";

/**
 * Serves the built portal: brotli/gzip files written at build time (scripts/build.ts) when the
 * browser accepts them, hashed assets cached for a year, index.html always revalidated, and any
 * other GET outside /api answered with index.html so client routes survive a reload.
 */
export async function serveStatic(app: FastifyInstance, staticDir: string): Promise<boolean> {
  const root = resolve(staticDir);
  if (!existsSync(resolve(root, "index.html"))) return false;
  await app.register(fastifyStatic, {
    root,
    preCompressed: true,
    wildcard: false,
    index: false,
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header("Cache-Control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  return true;
}

export function sendIndex(reply: import("fastify").FastifyReply) {
  return reply.header("Cache-Control", "no-cache").sendFile("index.html");
}
