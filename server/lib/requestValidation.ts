import type { FastifySchemaCompiler } from "fastify";
import { safeParse, type $ZodIssue, type $ZodType } from "zod/v4/core";

/** A request part (body, query, path, headers) its route's zod schema refused, with every issue. */
export class RequestInvalid extends Error {
  /** Set by Fastify: which part of the request was validated ("body", "querystring", "params", "headers"). */
  validationContext?: string;

  constructor(readonly issues: readonly $ZodIssue[]) {
    super("request validation failed");
  }
}

/**
 * Fastify's validator for routes' zod schemas. Issues keep the input they refused (`reportInput`), so
 * the answer can word them in the reader's language (server/i18n/validationText.ts); the input never
 * leaves the server.
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema }) =>
  (data) => {
    const result = safeParse(schema, data, { reportInput: true });
    return result.success ? { value: result.data } : { error: new RequestInvalid(result.error.issues) };
  };
