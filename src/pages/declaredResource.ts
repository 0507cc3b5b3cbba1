import type { z } from "zod";
import type { ResourceDefinition } from "../resources/define";

/**
 * Any declared resource, as the generic pages handle it (the portal's twin of server/lib/declaredResource.ts,
 * which the portal build can't import): record fields are plain strings, values `unknown` until read.
 */
export type DeclaredResource = ResourceDefinition<z.ZodObject, string>;
