import type { HttpError } from "@refinedev/core";
import { translate } from "../i18n";
import { currentIdToken } from "./session";
import { apiBase, apiOrigin, backendHeaders } from "./backendHeaders";

import type { Problem } from "../resources/api";
import type { Money } from "../resources/common";
import { isMoney } from "../resources/isMoney";
import { UPGRADE_REQUIRED_PROBLEM } from "../config/appVersion";
import { markReloadRequired } from "./reloadRequired";
import { throwHttpError } from "./throwHttpError";

export interface ApiRequest {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export { apiBase, apiOrigin, backendHeaders };

/** Refine's HttpError plus the problem's `type`, which the portal reacts to (re-authenticate, enrol a second factor). */
export type ApiError = HttpError & {
  problemType?: string;
  retryAfter?: number;
  /** A balance too small: what it lacks (the problem's `shortfall` extension), so the page can offer a top-up. */
  shortfall?: Money;
};

/** Turns an RFC 9457 problem into Refine's HttpError, with field errors keyed by field for forms. */
export function toHttpError(status: number, problem: Partial<Problem> | null): ApiError {
  const errors: Record<string, string[]> = {};
  for (const e of problem?.errors ?? []) (errors[e.path] ??= []).push(e.message);
  return {
    message: problem?.detail || problem?.title || translate("signIn.errors.generic"),
    statusCode: status,
    ...(problem?.type && problem.type !== "about:blank" ? { problemType: problem.type } : {}),
    ...(Object.keys(errors).length ? { errors } : {}),
    ...(isMoney(problem?.shortfall) ? { shortfall: problem.shortfall } : {}),
  };
}

/**
 * Calls the common backend with backendHeaders. A 401 is retried
 * once with a freshly minted token, since claims may have changed since the cached one was issued.
 */
export async function apiRequest<T>(path: string, request: ApiRequest = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let token: string | null;
    try {
      token = await currentIdToken(attempt > 0);
    } catch {
      // The refresh token was revoked (signed out everywhere) or the account disabled: the session is over.
      throwHttpError({ message: translate("auth.errors.sessionExpired"), statusCode: 401 });
    }
    let response: Response;
    try {
      // "/api/..." addresses the backend outside /api/v1 (e.g. /api/auth/sms-allowance).
      response = await fetch(path.startsWith("/api/") ? `${apiOrigin}${path}` : `${apiBase}${path}`, {
        method: request.method ?? "GET",
        signal: request.signal,
        headers: {
          accept: "application/json",
          ...backendHeaders(token),
          ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
          ...request.headers,
        },
        body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      });
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      throwHttpError({ message: translate("signIn.errors.network"), statusCode: 0 });
    }
    if (response.status === 401 && attempt === 0 && token) continue;
    if (response.status === 204) return undefined as T;
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = toHttpError(response.status, body as Partial<Problem> | null);
      if (error.problemType === UPGRADE_REQUIRED_PROBLEM) markReloadRequired();
      const retryAfter = Number(response.headers.get("retry-after"));
      throwHttpError(Number.isFinite(retryAfter) && retryAfter > 0 ? { ...error, retryAfter } : error);
    }
    return body as T;
  }
}
