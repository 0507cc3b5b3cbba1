import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Whether an answer may hold someone's data: anything under /api/v1 (people's tokens, the ingest's
 * and webhooks' keys) and any request that carries credentials, wherever it went.
 */
const authenticated = (request: FastifyRequest) =>
  request.url.startsWith("/api/v1/") || request.url === "/api/v1" || request.headers.authorization !== undefined;

/**
 * Every authenticated answer says `Cache-Control: no-store`: a shared proxy or the browser's disk
 * cache must not keep a subscriber's lines or an agent's search (PDFs, files and exports already
 * said so; JSON did not). An answer that already says no-store keeps its own words (`private, no-store`).
 */
export function addNoStore(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (authenticated(request) && !/\bno-store\b/.test(String(reply.getHeader("cache-control") ?? "")))
      reply.header("cache-control", "no-store");
    done(null, payload);
  });
}
