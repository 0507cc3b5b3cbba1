import { accessScope, type Principal } from "#resources/access";
import type { ResourceDefinition } from "#resources/define";
import { liveChannels, resources } from "#resources";
import type { ResourceEvent } from "#resources/events";

type Access = Pick<ResourceDefinition, "access">;

/**
 * The resources a client may follow live, by the name used in `?resources=` and in events: every
 * resource of the registry, and the registry's other live channels (the security policy). Each
 * brings the access declaration its list route enforces.
 */
export const liveResources: Record<string, Access> = {
  ...Object.fromEntries(resources.map((resource) => [resource.name, resource])),
  ...liveChannels,
};

export const liveResourceNames = Object.keys(liveResources);

/**
 * Whether a receiver hears an event: same operator, and the receiver may list the resource, either
 * all of the operator's records, or only its own ones and it owns a record the event names.
 */
export function mayReceive(
  principal: Principal,
  resource: Access | undefined,
  event: Pick<ResourceEvent, "operator" | "ownerUids">,
): boolean {
  if (!resource || principal.operator !== event.operator) return false;
  const scope = accessScope(principal, resource, "list");
  // "verified" (an agent and a subscriber's records, issue 27): the event carries ids only, and the
  // refetch it prompts answers only a verified caller's records.
  if (scope === "all" || scope === "verified") return true;
  if (scope === "own") return event.ownerUids?.includes(principal.uid) ?? false;
  return false;
}
