import type { HttpError } from "@refinedev/core";

/**
 * Throws Refine's HttpError. Refine's contract is a plain `{ message, statusCode, errors }` object (its
 * forms map `errors` to fields, its notifications read `message`), not an Error instance, so this is the
 * one place that throws a non-Error on purpose.
 */
export function throwHttpError(error: HttpError): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- Refine's HttpError is a plain object by contract
  throw error;
}
