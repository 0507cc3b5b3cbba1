import type { ResourceDefinition, Role, Scope } from "./define";
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
