import type { RouteOptions } from "fastify";
import { problemSchema } from "#resources/api";

/** The statuses a route may answer with a problem (design.md §4 errors). */
export type ProblemStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 503;

/** When each problem happens, as the document says it (the same for every operation). */
export const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: "Bad Request: a parameter, header or body field is invalid; `errors[].path` names each one",
  401: "Unauthorized: no token, or one that is invalid, expired, revoked or of a disabled user",
  403: "Forbidden: another operator's token, no role yet, or the role may not do this",
  404: "Not Found: no such record, or not yours",
  409: "Conflict: the record is not in a state that allows this, or the key was used for another request",
  410: "Gone: a one-use link that was already used, or has expired",
  413: "Content Too Large: the body is over the limit",
  422: "Unprocessable Content: a business rule refuses it (e.g. not enough balance)",
  429: "Too Many Requests: over a rate limit; `Retry-After` says when to try again",
  503: "Service Unavailable: a service this needs does not answer",
};

/** `{409: problemSchema, 429: problemSchema}` for the statuses given: the problems a route answers itself. */
export function problemResponses<S extends ProblemStatus>(...statuses: S[]): Record<S, typeof problemSchema> {
  return Object.fromEntries(statuses.map((status) => [status, problemSchema])) as Record<S, typeof problemSchema>;
}

/**
 * An onRoute hook for a scope whose hooks can refuse any of its routes (the /api/v1 token check: 400,
 * 401, 403): every route registered in it declares those problems, so neither the document nor the
 * response serializers depend on each route remembering them. A route's own declaration wins.
 */
export function declareScopeProblems(...statuses: ProblemStatus[]) {
  return (route: RouteOptions) => {
    const schema = route.schema as { hide?: boolean; response?: Record<string | number, unknown> } | undefined;
    if (!schema || schema.hide) return;
    schema.response = { ...problemResponses(...statuses), ...schema.response };
  };
}
