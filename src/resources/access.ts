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

export function can(principal: { role: Role | null } | null | undefined, resource: Pick<ResourceDefinition, "access">, action: string): boolean {
  return accessScope(principal, resource, action) !== null;
}
