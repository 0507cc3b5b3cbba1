import type { HttpError } from "@refinedev/core";

/**
 * The `errorNotification` of a page's own record when the page draws "not found" itself (403, 404):
 * no toast saying "Error (status code: 404)" on top of it. Any other failure keeps Refine's toast
 * (undefined: Refine's default notice).
 */
export const drawnWhenNotFound = (error?: HttpError): false | undefined =>
  error?.statusCode === 404 || error?.statusCode === 403 ? false : undefined;
