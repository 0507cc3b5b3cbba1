import type { AccessControlProvider } from "@refinedev/core";
import { can } from "../resources/access";
import { findResource } from "../resources";
import { currentSessionUser } from "./session";

/** Pages outside the registry that only some roles may open (the backend refuses the others too). */
const PAGE_ROLES: Record<string, readonly string[]> = { kpis: ["admin"] };

/** Menus, buttons and routes ask the same access function the backend enforces, for every resource of the registry. */
export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action }) {
    const definition = resource ? findResource(resource) : undefined;
    if (resource && PAGE_ROLES[resource]) return { can: PAGE_ROLES[resource].includes((await currentSessionUser())?.role ?? "") };
    if (!definition) return { can: true }; // pages outside the registry (dashboard, security) guard themselves
    const user = await currentSessionUser();
    return { can: can(user, definition, action) };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
