import type { HttpError } from "@refinedev/core";

/** How often a failed read is tried again, as react-query's default: three more times, backing off. */
const MAX_RETRIES = 3;

/**
 * Whether a failed read is worth trying again: a network failure or a server fault (5xx) may pass;
 * a refusal (4xx: not found, not yours, not allowed, too many requests) will not, so the page says
 * so at once instead of showing a skeleton through three retries (about 7 s).
 */
export function retryUnlessRefused(failureCount: number, error: unknown): boolean {
  const status = (error as Partial<HttpError> | undefined)?.statusCode;
  const refused = typeof status === "number" && status >= 400 && status < 500;
  return !refused && failureCount < MAX_RETRIES;
}

/** Refine's react-query settings, the same in the portal and in component tests. */
export const portalQueryOptions = {
  clientConfig: { defaultOptions: { queries: { retry: retryUnlessRefused } } },
};
