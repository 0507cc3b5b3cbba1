import type { ResourceDefinition } from "./define";
import { addMessages } from "../i18n";
import { deviceClaimsResource } from "./deviceClaims";
import { linesResource } from "./lines";
import { plansResource } from "./plans";

/** The registry: every resource of the product, in menu order. Add a resource with one line here. */
export const resources = [linesResource, plansResource, deviceClaimsResource] as const satisfies readonly ResourceDefinition<any, any>[];

export type ResourceName = (typeof resources)[number]["name"];

const byName = new Map<string, ResourceDefinition<any, any>>(resources.map((r) => [r.name, r]));
for (const resource of resources) if (resource.messages) addMessages(resource.messages);

export function findResource(name: string): ResourceDefinition<any, any> | undefined {
  return byName.get(name);
}
