import { verbatim, words, type Worded } from "../i18n/words";

/** Fastify's own refusals of a request's body, by code, in words (its messages are English only). */
const BODY_REFUSALS: Record<string, Worded> = {
  FST_ERR_CTP_BODY_TOO_LARGE: words("http.bodyTooLarge"),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: words("http.unsupportedMediaType"),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: words("http.contentLengthMismatch"),
  FST_ERR_CTP_EMPTY_JSON_BODY: words("http.emptyJsonBody"),
  FST_ERR_CTP_INVALID_JSON_BODY: words("http.invalidJson"),
};

/**
 * What a 4xx error Fastify (or a plugin) raised says, in the reader's language where we know it: a
 * body that is not JSON, too large, of a type no route takes. Anything else keeps its own message.
 */
export function fastifyErrorText(error: Error & { code?: string }): Worded {
  const known = error.code ? BODY_REFUSALS[error.code] : undefined;
  if (known) return known;
  if (error instanceof SyntaxError) return words("http.invalidJson");
  return verbatim(error.message);
}
