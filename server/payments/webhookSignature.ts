import { createHmac, timingSafeEqual } from "node:crypto";

/** The header a gateway signs its webhooks with: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = "x-gateway-signature";
/** How old (or how far ahead) a signed timestamp may be. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

/** The signature header value for a body sent at `timestamp` (seconds). */
export function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; why: "missing" | "malformed" | "too_old" | "mismatch" };

/** Checks a webhook's signature over its raw body, and that it was signed within the tolerance. */
export function verifyWebhook(
  secret: string,
  body: string,
  header: string | undefined,
  now = Date.now(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header) return { ok: false, why: "missing" };
  const parts = Object.fromEntries(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const timestamp = Number(parts.t);
  const given = parts.v1 ?? "";
  if (!Number.isSafeInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) return { ok: false, why: "malformed" };
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return { ok: false, why: "too_old" };
  const expected = Buffer.from(hmac(secret, timestamp, body), "hex");
  return timingSafeEqual(expected, Buffer.from(given, "hex")) ? { ok: true } : { ok: false, why: "mismatch" };
}
