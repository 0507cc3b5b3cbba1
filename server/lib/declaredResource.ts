import type { z } from "zod";
import type { ResourceDefinition } from "#resources/define";

/**
 * Any declared resource, as the engine handles it: generic over whatever its schema holds, so record
 * fields are plain strings and values `unknown` until a declaration's schema parses them.
 */
export type DeclaredResource = ResourceDefinition<z.ZodObject, string>;
