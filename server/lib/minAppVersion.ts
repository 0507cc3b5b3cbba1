import type { onRequestAsyncHookHandler } from "fastify";
import { isAppVersionTooOld } from "#config/appVersion";
import { PROBLEM_TYPES } from "#resources/api";
import { sendProblem } from "../errors";

/**
 * Refuses API calls from a portal older than `minimum` (its X-App-Version) with 426, so a phone
 * still running a cached old bundle reloads instead of calling an API it no longer matches.
 * Calls without the header (health checks, machine callers with an API key) are not portals and pass.
 */
export function requireMinAppVersion(minimum: string): onRequestAsyncHookHandler {
  return async (request, reply) => {
    if (!request.url.startsWith("/api/")) return;
    const header = request.headers["x-app-version"];
    const sent = Array.isArray(header) ? header[0] : header;
    if (!isAppVersionTooOld(sent, minimum)) return;
    reply.header("x-min-app-version", minimum);
    return sendProblem(
      reply,
      426,
      `This version of the portal (${String(sent).slice(0, 32)}) is no longer supported; reload the page to get version ${minimum} or newer.`,
      [{ path: "headers.x-app-version", message: `must be ${minimum} or newer` }],
      PROBLEM_TYPES.upgradeRequired,
    );
  };
}
