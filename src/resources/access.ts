import type { ResourceDefinition, Role, Scope, SharedWith, SourceScope } from "./define";
import { ROLES } from "./define";

/** The signed-in user as both sides see it: Firebase uid plus the custom claims {role, operator}. */
export interface Principal {
  uid: string;
  role: Role;
  operator: string;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Care agents and admins: the operator's staff. */
export const isStaff = (role: unknown): role is "agent" | "admin" => role === "agent" || role === "admin";

/** The custom claims the backend sets ({role, operator}), read the same way from a token or a user record. */
export function claimsOf(claims: Record<string, unknown> | null | undefined): {
  role: Role | null;
  operator: string | null;
} {
  return {
    role: isRole(claims?.role) ? claims.role : null,
    operator: typeof claims?.operator === "string" ? claims.operator : null,
  };
}

/**
 * The one access decision, shared by the portal (menus, buttons, routes) and the backend (which
 * enforces it): which records of the resource the principal may reach through the action, or null
 * when it may not at all. "own" means the server narrows to the principal's records by ownership.
 */
export function accessScope(
  principal: { role: Role | null } | null | undefined,
  resource: Pick<ResourceDefinition, "access">,
  action: string,
): Scope | null {
  if (!principal || !isRole(principal.role)) return null;
  return resource.access[action]?.[principal.role] ?? null;
}

export function can(
  principal: { role: Role | null } | null | undefined,
  resource: Pick<ResourceDefinition, "access">,
  action: string,
): boolean {
  return accessScope(principal, resource, action) !== null;
}

const sharesAction = (shared: SharedWith[keyof SharedWith], action: string) =>
  shared === "all" || (shared?.includes(action) ?? false);

/**
 * Whom "own" reaches for this action of the resource (issue 28): the account's holder, and as the
 * declaration's `ownership.sharedWith` says, its managers ("own+managers") and also its members for
 * the lines assigned to them ("own+people"). Members are only ever given what managers have.
 */
export function ownScope(
  resource: Pick<ResourceDefinition, "ownership">,
  action: string,
): "own" | "own+managers" | "own+people" {
  const shared = resource.ownership?.sharedWith;
  if (!shared || !sharesAction(shared.manager, action)) return "own";
  return sharesAction(shared.member, action) ? "own+people" : "own+managers";
}

/**
 * The one access decision as a source applies it: `accessScope`, with "own" narrowed by `ownScope`
 * to whom else on the account the action reaches. null when the role may not at all.
 */
export function sourceScope(
  principal: { role: Role | null } | null | undefined,
  resource: Pick<ResourceDefinition, "access" | "ownership">,
  action: string,
): SourceScope | null {
  const scope = accessScope(principal, resource, action);
  return scope === "own" ? ownScope(resource, action) : scope;
}
