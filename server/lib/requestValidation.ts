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
    // Checked plainly first: asking for the input on issues takes zod off its fast path, ~1.5 µs per
    // part on every request (most have a headers and a path check), and only a refusal needs it.
    // reportInput changes nothing but the issues, so the refused part is checked again to word them.
    const result = safeParse(schema, data);
    if (result.success) return { value: result.data };
    const reported = safeParse(schema, data, { reportInput: true });
    return { error: new RequestInvalid((reported.error ?? result.error).issues) };
  };
