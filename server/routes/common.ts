import { z } from "zod";

/** Headers every /api/v1 call carries (checked in onRequest; declared here for OpenAPI). */
export const apiHeadersSchema = z.object({
  "x-operator": z.string().describe("carrier code of the caller's operator, e.g. ATT"),
  "x-app-version": z.string().optional().describe("portal version, logged with the request"),
});

export const idParamsSchema = z.object({ id: z.uuid("must be a UUID") });

export const listResponse = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int() });

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .describe("RFC 9457 problem details");

export const errorResponses = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };

export const iso = (d: Date) => d.toISOString();
