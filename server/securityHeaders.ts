import type { FastifyInstance, FastifyReply } from "fastify";

/**
 * What a response that is not the portal's HTML may do when a browser renders it (an API answer
 * opened in a tab, a hashed asset): nothing. It loads nothing, runs nothing and is never framed.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Powerful features the portal never uses, turned off for it and for anything it might embed. Only
 * features Chromium knows: an unknown one ("bluetooth") makes it log an error on every page.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "serial=()",
  "usb=()",
].join(", ");

/** Production only: a local backend on plain http must stay reachable at 127.0.0.1. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

export interface SecurityHeadersOptions {
  /** The built portal's policy (dist/security-policy.json), sent with its HTML; none when API only. */
  portalPolicy?: string;
  strictTransportSecurity: boolean;
}

/** Sets the headers on a reply; only the portal's HTML gets the portal's policy. */
export function setSecurityHeaders(reply: FastifyReply, options: SecurityHeadersOptions): void {
  const html = String(reply.getHeader("content-type") ?? "").startsWith("text/html");
  reply.header("content-security-policy", html && options.portalPolicy ? options.portalPolicy : API_CONTENT_SECURITY_POLICY);
  reply.header("x-content-type-options", "nosniff");
  reply.header("x-frame-options", "DENY");
  // The origin only, never paths or queries; Firebase API keys restricted to the portal's site still match.
  reply.header("referrer-policy", "strict-origin-when-cross-origin");
  reply.header("permissions-policy", PERMISSIONS_POLICY);
  if (options.strictTransportSecurity) reply.header("strict-transport-security", STRICT_TRANSPORT_SECURITY);
}

/**
 * Security headers on every response: HTML, assets, API answers, errors and 404s alike (an onSend
 * hook runs for all of them; the one exception, a URL Fastify cannot decode, is answered in app.ts).
 */
export function addSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  app.addHook("onSend", async (_request, reply) => setSecurityHeaders(reply, options));
}
