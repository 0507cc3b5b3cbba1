import { isIP } from "node:net";

/**
 * Which proxies in front of the backend may tell the client's address (X-Forwarded-For), in the
 * forms Fastify's `trustProxy` takes: none, a number of hops, or the proxies' addresses. Never
 * `true`: Fastify's `true` takes the leftmost X-Forwarded-For entry, which the client writes, so a
 * client rotating it would never meet a per-address rate limit.
 */
export type TrustedProxies = false | number | string[];

/**
 * What Fastify's `trustProxy` is given. A hop count becomes a function: Fastify 5 takes a bare
 * number as "trust no one" (it cannot tell a proxy from a direct client), which would put every
 * client behind the proxy on the proxy's one address and one rate limit. Counting hops is right
 * only when the backend is reachable through its proxies alone; addresses hold either way.
 */
export function fastifyTrustProxy(
  trusted: TrustedProxies,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trusted !== "number") return trusted;
  return (_address, hop) => hop < trusted;
}

/** proxy-addr's named ranges, which Fastify's string form accepts too. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split("/");
  const family = isIP(address ?? "");
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as written: `false` (or empty, or 0) none; `true` one hop (the address the one proxy
 * in front saw, the rightmost entry: docs/decisions.md); a whole number of hops; or comma-separated
 * addresses, CIDRs and proxy-addr's names (loopback, linklocal, uniquelocal) of the trusted proxies.
 * Anything else is an error message naming what is wrong.
 */
export function parseTrustProxy(text: string): { value: TrustedProxies } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed === "false") return { value: false };
  if (trimmed === "true") return { value: 1 };
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops <= 10 ? { value: hops === 0 ? false : hops } : { error: "at most 10 hops" };
  }
  const entries = trimmed
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length || !entries.length) {
    return {
      error: `false, true (one proxy), a number of hops, or comma-separated proxy addresses or CIDRs (e.g. 10.0.0.0/8,127.0.0.1); not ${bad.join(", ") || "empty entries"}`,
    };
  }
  return { value: entries };
}
