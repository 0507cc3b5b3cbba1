import type { AccessControlProvider } from "@refinedev/core";
import { can } from "../resources/access";
import { findResource } from "../resources";
import { currentSessionUser, type SessionUser } from "./session";

/** Pages outside the registry that only some roles may open (the backend refuses the others too). */
const PAGE_ROLES: Record<string, readonly string[]> = {
  kpis: ["admin"],
  // The subscriber app's destinations: staff act for a subscriber from the care desk instead.
  usage: ["subscriber"],
  money: ["subscriber"],
  shop: ["subscriber"],
  account: ["subscriber"],
};

/** Whether `user` may do `action` on a resource or page: the same access function the backend enforces. */
export function canOpen(
  user: Pick<SessionUser, "role"> | null | undefined,
  resource: string | undefined,
  action: string,
): boolean {
  if (resource && PAGE_ROLES[resource]) return PAGE_ROLES[resource].includes(user?.role ?? "");
  const definition = resource ? findResource(resource) : undefined;
  if (!definition) return true; // pages outside the registry (dashboard, security) guard themselves
  return can(user, definition, action);
}

/** Menus, buttons and routes ask canOpen, for every resource of the registry. */
export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action }) {
    return { can: canOpen(await currentSessionUser(), resource, action) };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
