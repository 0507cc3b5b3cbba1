import type { onRequestAsyncHookHandler } from "fastify";
import { isAppVersionTooOld } from "#config/appVersion";
import { PROBLEM_TYPES } from "#resources/api";
import { sendProblem } from "../errors";
import { words } from "../i18n/words";

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
      words("http.upgradeRequired", { sent: String(sent).slice(0, 32), minimum }),
      [{ path: "headers.x-app-version", message: words("http.upgradeRequiredField", { minimum }) }],
      PROBLEM_TYPES.upgradeRequired,
    );
  };
}
