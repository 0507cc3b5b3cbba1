import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../errors";
import { words, type Words } from "../i18n/words";
import { operatorHeader } from "./requestAuth";
import type { LimitHit, RateLimiter } from "../lib/rateLimits";

/** Local mode's ingest key (README): mediation stand-ins and `npm run simulate:usage` send it. */
export const LOCAL_INGEST_KEY = "local-ingest-key";

/** The API keys of machine callers, by the operator each serves. Kept as sha256 digests only. */
export type ServiceKeys = ReadonlyMap<string, string>;

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/**
 * INGEST_API_KEYS: comma-separated keys, each `OPERATOR:key` or a bare key of the backend's own
 * operator, e.g. `ATT:k1,TMO:k2`. Blank entries are ignored.
 */
export function parseServiceKeys(text: string, defaultOperator: string): ServiceKeys {
  const keys = new Map<string, string>();
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([A-Z0-9]{2,10}):(.+)$/.exec(entry);
    const [operator, key] = match ? [match[1]!, match[2]!] : [defaultOperator, entry];
    keys.set(digest(key), operator);
  }
  return keys;
}

/**
 * onRequest hook of service paths: `Authorization: ApiKey <key>` of a key configured for the
 * operator named by X-Operator. No key: 401; an unknown key: 401; a key of another operator: 403;
 * a person's Bearer token: 403 (a person never reaches a service path). Returns the operator.
 *
 * Guessing keys is slowed: after `serviceKeyFailuresPerIp` missing or unknown keys from one client
 * address within its window, every request from it gets 429 until the window lets one more, the
 * right key too (or a guess that hit would tell itself apart). Only failures count.
 */
export function authenticateService(keys: ServiceKeys, limiter: RateLimiter) {
  return async (request: FastifyRequest) => {
    const failure: LimitHit = {
      limit: "serviceKeyFailuresPerIp",
      key: request.ip,
      detail: words("auth.apiKey.tooManyFailures"),
    };
    await limiter.enforce([failure], { record: false });
    const refuse = async (detail: Words) => {
      await limiter.take([failure]);
      return unauthorized(detail);
    };
    const header = request.headers.authorization;
    if (typeof header === "string" && /^Bearer\s/i.test(header)) throw forbidden(words("auth.apiKey.notForPeople"));
    const match = typeof header === "string" ? /^ApiKey\s+(\S+)$/i.exec(header) : null;
    if (!match) throw await refuse(words("auth.apiKey.missing"));
    const keyOperator = keys.get(digest(match[1]!));
    if (!keyOperator) throw await refuse(words("auth.apiKey.unknown"));
    const operator = operatorHeader(request);
    if (keyOperator !== operator) throw forbidden(words("auth.apiKey.otherOperator", { operator }));
    request.serviceOperator = operator;
  };
}

declare module "fastify" {
  interface FastifyRequest {
    /** The operator a service path's API key serves (set by authenticateService). */
    serviceOperator: string;
  }
}
