import type { FastifyInstance, FastifyReply } from "fastify";

/**
 * What a response that is not the portal's HTML may do when a browser renders it (an API answer
 * opened in a tab, a hashed asset): nothing. It loads nothing, runs nothing and is never framed.
 */
export const API_CONTENT_SECURITY_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

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

/** The headers of an answer; only the portal's HTML gets the portal's policy. */
export function securityHeaderValues(options: SecurityHeadersOptions, html = false): Record<string, string> {
  return {
    "content-security-policy": html && options.portalPolicy ? options.portalPolicy : API_CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    // The origin only, never paths or queries; Firebase API keys restricted to the portal's site still match.
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS_POLICY,
    ...(options.strictTransportSecurity ? { "strict-transport-security": STRICT_TRANSPORT_SECURITY } : {}),
  };
}

/** Sets the headers on a reply. */
export function setSecurityHeaders(reply: FastifyReply, options: SecurityHeadersOptions): void {
  reply.headers(securityHeaderValues(options, String(reply.getHeader("content-type") ?? "").startsWith("text/html")));
}

/**
 * Security headers on every response: HTML, assets, API answers, errors and 404s alike (an onSend
 * hook runs for all of them; the exceptions, a URL Fastify cannot decode and a request Node's parser
 * refuses, are answered in app.ts and errors.ts with the same headers).
 */
export function addSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions): void {
  // Worked out once, not per answer; a callback hook, not an async one (no promise per answer).
  const api = securityHeaderValues(options);
  const html = securityHeaderValues(options, true);
  app.addHook("onSend", (_request, reply, payload, done) => {
    reply.headers(String(reply.getHeader("content-type") ?? "").startsWith("text/html") ? html : api);
    done(null, payload);
  });
}
