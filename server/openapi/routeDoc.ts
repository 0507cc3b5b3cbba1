import { problemResponses, type ProblemStatus } from "./problems";

/** What a hand-written route tells the OpenAPI document about itself, besides its zod schemas. */
export interface RouteDoc<P extends ProblemStatus> {
  /** Unique in the document, camelCase verb + noun: `getMe`, `claimSubscriber`, `downloadInvoicePdf`. */
  operationId: string;
  /** One line: what the operation does (client generators make it the method's comment). */
  summary: string;
  /** Longer rules, when there are any. */
  description?: string;
  /** A resource's name, or one of the tags of server/openapi/document.ts (health, identity, security, live). */
  tag: string;
  /**
   * The problems this route answers by itself (409 state, 422 rule, 429 limit...). The scope adds
   * what its hooks answer: 400 everywhere, 401 and 403 under /api/v1, 429 under /api/auth.
   */
  problems?: readonly P[];
}

/**
 * The schema of a hand-written route (server/routes/*.ts): its zod schemas plus operationId, summary,
 * tag and problem responses, so the route is a proper operation of the contract. Engine routes get
 * theirs from the route factory.
 *
 *   schema: routeSchema({ operationId: "getMe", summary: "The signed-in user", tag: "identity", problems: [409] },
 *     { headers: apiHeadersSchema, response: { 200: meSchema } })
 */
export function routeSchema<
  P extends ProblemStatus,
  S extends { response: Record<number, unknown> } & Record<string, unknown>,
>(
  doc: RouteDoc<P>,
  schema: S,
): Omit<S, "response"> & {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  response: S["response"] & Record<P, ReturnType<typeof problemResponses<P>>[P]>;
} {
  const { operationId, summary, description, tag, problems = [] } = doc;
  return {
    ...schema,
    operationId,
    summary,
    ...(description ? { description } : {}),
    tags: [tag],
    response: { ...problemResponses(...problems), ...schema.response },
  };
}
