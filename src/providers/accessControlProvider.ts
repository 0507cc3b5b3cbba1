import type { AccessControlProvider } from "@refinedev/core";
import { can } from "../resources/access";
import { findResource } from "../resources";
import { staffResource } from "../resources/staff";
import { currentSessionUser } from "./session";

/** Resources with a page of their own rather than the generic ones (the backend enforces the same declarations). */
export const pageResources = [staffResource];

/** Menus, buttons and routes ask the same access function the backend enforces. */
export const accessControlProvider: AccessControlProvider = {
  async can({ resource, action }) {
    const definition = resource ? (findResource(resource) ?? pageResources.find((r) => r.name === resource)) : undefined;
    if (!definition) return { can: true }; // pages outside the registry (dashboard) guard themselves
    const user = await currentSessionUser();
    return { can: can(user, definition, action) };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
