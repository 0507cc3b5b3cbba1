import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ResourceDefinition } from "../../src/resources/define";

/** The resource declarations (src/resources/index.ts), loaded with tsx the way the backend loads them. */
export async function loadDeclarations(root: string, registryFile: string): Promise<ResourceDefinition[]> {
  const { tsImport } = await import("tsx/esm/api");
  const registry = pathToFileURL(join(root, registryFile)).href;
  return ((await tsImport(registry, import.meta.url)) as { resources: ResourceDefinition[] }).resources;
}
