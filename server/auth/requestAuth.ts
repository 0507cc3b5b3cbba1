import type { FastifyRequest } from "fastify";
import { isStaff, type Principal } from "#resources/access";
import { OPERATOR_CODE_PATTERN } from "#config/operator";
import { badRequest, forbidden, MFA_REQUIRED_TYPE, ProblemError, unauthorized } from "../errors";
import { words } from "../i18n/words";
import type { HeardAccessChange } from "./accessInvalidation";
import { securityPolicyOf, type OperatorDirectory } from "./operatorSettings";
import type { TokenVerifier, VerifiedUser } from "./tokenVerifier";
import type { IdentityObserver } from "../domain/identityEvents/observer";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The verified caller of an /api/v1 request with a role: set before validation, so every
     * handler of a role-requiring route has one. Not set on routes that allow a user without a role.
     */
    principal: Principal;
    /** The verified token of every /api/v1 request (with or without a role). */
    identity: VerifiedUser;
  }
  interface FastifyContextConfig {
    /** The route accepts a signed-in user who has no role yet (GET /me, POST /me/claim). */
    allowWithoutRole?: boolean;
    /** The route stays reachable for staff who must but did not sign in with a second factor. */
    mfaExempt?: boolean;
    /**
     * The route also takes the ID token and operator from the query (`token`, `operator`) when the
     * headers are absent: browsers' EventSource cannot send headers. Only GET /live sets it; URLs
     * end up in logs and histories, so nowhere else (the logger redacts `token`).
     */
    queryCredentials?: boolean;
    /**
     * The route reveals secrets (a PUK, a port-out PIN, payment methods): like every write, it
     * checks revocation, disabled state and claims with Firebase now, never from the token cache.
     */
    secret?: boolean;
  }
}

/** The X-Operator header, or 400 naming it. */
export function operatorHeader(request: FastifyRequest): string {
  const operator = request.headers["x-operator"];
  if (typeof operator !== "string" || !OPERATOR_CODE_PATTERN.test(operator)) {
    throw badRequest(words("auth.operatorHeader"), [{ path: "X-Operator", message: words("auth.operatorField") }]);
  }
  return operator;
}

/** A query parameter given once, as text. */
function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** The operator of a `queryCredentials` route: X-Operator, else `?operator=`; 400 naming both. */
function operatorOfHeaderOrQuery(request: FastifyRequest): string {
  if (request.headers["x-operator"] !== undefined) return operatorHeader(request);
  const operator = queryParam(request, "operator");
  if (operator === undefined || !OPERATOR_CODE_PATTERN.test(operator)) {
    throw badRequest(words("auth.operatorHeaderOrQuery"), [{ path: "operator", message: words("auth.operatorField") }]);
  }
  return operator;
}

/**
 * Writes (any method but GET and HEAD) and reads of secrets are decided on the account as it is
 * now; other reads may trust a cached verification for TOKEN_CACHE_SECONDS.
 */
export function needsFreshVerification(request: FastifyRequest): boolean {
  return (request.method !== "GET" && request.method !== "HEAD") || request.routeOptions.config.secret === true;
}

/**
 * onRequest hook of /api/v1: a valid Firebase ID token (401 otherwise), then tenancy: the
 * `X-Operator` header must name the operator in the caller's claims (403 otherwise). It runs before
 * validation so an anonymous caller learns nothing from error details.
 *
 * Routes with `config.allowWithoutRole` also accept a user without claims, and claims, when
 * present, must still match X-Operator. On every route X-Operator must name an operator that
 * exists (403 naming it otherwise): claims naming a missing operator are refused at the door.
 *
 * Writes and routes marked `config.secret` verify the token with Firebase at once (revoked or
 * disabled outside the portal: refused on the next such request); other reads may use the cache.
 *
 * Staff MFA policy: when the operator's `settings.requireStaffMfa` is on, an agent or admin whose
 * token was not signed in with a second factor gets 403 `type: /problems/mfa-required` on every
 * route but those marked `config.mfaExempt`.
 *
 * Every admitted token is shown to the identity observer (server/domain/identityEvents): a sign-in
 * or a change to the account since the last token is recorded from the server's side. It never
 * fails the request and waits on Firebase for a bounded time at most.
 */
export function authenticateRequest(
  verifier: TokenVerifier,
  operators: OperatorDirectory,
  observer?: IdentityObserver,
) {
  return async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    const header = request.headers.authorization;
    const match = typeof header === "string" ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    const token =
      match?.[1] ?? (config.queryCredentials && header === undefined ? queryParam(request, "token") : undefined);
    if (!token) throw unauthorized(words("auth.signInFirst"));
    const user = await verifier.verify(token, { fresh: needsFreshVerification(request) });
    const operator = config.queryCredentials ? operatorOfHeaderOrQuery(request) : operatorHeader(request);

    if (config.allowWithoutRole) {
      if (user.operator !== null && user.operator !== operator)
        throw forbidden(words("auth.notOperatorsAccount", { operator }));
      if (user.role && !user.operator) throw forbidden(words("auth.roleWithoutOperator"));
    } else {
      if (!user.role || !user.operator) throw forbidden(words("auth.noRoleYet"));
      if (user.operator !== operator) throw forbidden(words("auth.notOperatorsAccount", { operator }));
    }
    // Claims may name an operator that does not exist (set by hand, or one since removed): refused
    // here, for reads and writes alike, rather than failing deep in a write (its foreign keys).
    const settings = await operators.settings(operator);
    if (settings === null) throw forbidden(words("auth.noSuchOperator", { operator }));
    request.identity = user;
    if (user.role && user.operator) request.principal = { uid: user.uid, role: user.role, operator: user.operator };
    // Before the staff MFA policy: a sign-in without a second factor is a sign-in all the same.
    await observer?.observe(user, { operator: user.operator ?? operator, requestId: request.id, log: request.log });

    if (isStaff(user.role) && !user.secondFactor && !config.mfaExempt) {
      if (securityPolicyOf(settings).requireStaffMfa) {
        throw new ProblemError(403, words("auth.mfaRequired"), undefined, MFA_REQUIRED_TYPE);
      }
    }
  };
}

/**
 * Whether a session admitted earlier (an open live stream) may go on after an access change heard
 * from any instance: not after a change of its user (role, disabled, signed out) nor when changes
 * may have been missed; after an operator's policy change only if it still lets the user in.
 */
export async function stillAllowed(
  change: HeardAccessChange,
  user: VerifiedUser,
  operators: OperatorDirectory,
): Promise<boolean> {
  if (change.kind === "all") return false;
  if (change.kind === "user") return change.uid !== user.uid;
  if (change.operator !== user.operator || user.secondFactor) return true;
  return !(await staffMfaRequired(operators, user.role, user.operator));
}

/** Whether staff with this role must use a second factor at this operator. */
export async function staffMfaRequired(
  operators: OperatorDirectory,
  role: string | null,
  operator: string | null,
): Promise<boolean> {
  if (!isStaff(role) || !operator) return false;
  return securityPolicyOf(await operators.settings(operator)).requireStaffMfa;
}
