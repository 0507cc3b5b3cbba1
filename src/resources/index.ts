import type { ResourceDefinition } from "./define";
import { plansResource } from "./plans";
import { linesResource } from "./lines";

/** The registry: every resource of the product, in menu order. Add a resource with one line here. */
export const resources = [linesResource, plansResource] as const satisfies readonly ResourceDefinition<any, any>[];

export type ResourceName = (typeof resources)[number]["name"];

const byName = new Map<string, ResourceDefinition<any, any>>(resources.map((r) => [r.name, r]));

export function findResource(name: string): ResourceDefinition<any, any> | undefined {
  return byName.get(name);
}
