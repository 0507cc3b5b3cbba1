import { z } from "zod";
import type { WordsKey } from "../i18n/words";

/** Headers every /api/v1 call carries (checked in onRequest; declared here for OpenAPI). */
export const apiHeadersSchema = z.object({
  "x-operator": z.string().describe("carrier code of the caller's operator, e.g. ATT"),
  "x-app-version": z.string().optional().describe("portal version, logged with the request"),
});

export const idParamsSchema = z.object({ id: z.uuid("engine.uuid" satisfies WordsKey) });

export { listResponse, problemSchema } from "#resources/api";

import { problemSchema } from "#resources/api";

export const errorResponses = { 400: problemSchema, 401: problemSchema, 403: problemSchema, 404: problemSchema };
