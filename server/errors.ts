import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply } from "fastify";
import type { Locale } from "#i18n/dictionaries";
import { localeOf } from "./i18n/requestLocale";
import { problemWords } from "./i18n/problems";
import { textIn, words, type Text, type Worded, type WordsKey } from "./i18n/words";

/** One field or parameter that made a request invalid, as RFC 9457 extension `errors`. */
export interface FieldError {
  path: string;
  /** Words, written in the request's language when the answer is sent. */
  message: Worded;
}

/** A status's title in the reader's language; Node's English name for a status we never answer with. */
const titleOf = (status: number): Text => {
  const key = `http.title.${status}`;
  return Object.hasOwn(problemWords, key)
    ? words(key as WordsKey)
    : (locale) => (locale === "en" ? (STATUS_CODES[status] ?? "Error") : textIn(locale, words("http.title.other")));
};

/** An error that becomes an `application/problem+json` response (RFC 9457). */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly detail: Worded,
    readonly errors?: FieldError[],
    readonly type = "about:blank",
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers?: Record<string, string>,
    /** RFC 9457 extension members of the body (a shortfall's amount). */
    readonly extensions?: Record<string, unknown>,
  ) {
    super(textIn("en", detail)); // for logs and stack traces; the answer is worded for its reader
  }
}

export const badRequest = (detail: Worded, errors?: FieldError[]) => new ProblemError(400, detail, errors);
export const unauthorized = (detail: Worded) => new ProblemError(401, detail);
export const forbidden = (detail: Worded) => new ProblemError(403, detail);
export const notFound = (detail: Worded) => new ProblemError(404, detail);
export const conflict = (detail: Worded, errors?: FieldError[]) => new ProblemError(409, detail, errors);
export const unprocessable = (detail: Worded, errors?: FieldError[]) => new ProblemError(422, detail, errors);
export const unavailable = (detail: Worded) => new ProblemError(503, detail);
/** 429 with `Retry-After` in whole seconds (at least 1). */
export const tooManyRequests = (detail: Worded, retryAfterMs: number) =>
  new ProblemError(429, detail, undefined, "about:blank", {
    "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });
/** A staff member must sign in with a second factor while the operator requires it. */
export const MFA_REQUIRED_TYPE = "/problems/mfa-required";

/**
 * Answers with an `application/problem+json` body (RFC 9457) in the language the request asked for
 * (Accept-Language): the title, the detail and each field error's message.
 */
export function sendProblem(
  reply: FastifyReply,
  status: number,
  detail: Worded,
  errors?: FieldError[],
  type = "about:blank",
  headers?: Record<string, string>,
  extensions?: Record<string, unknown>,
) {
  if (headers) reply.headers(headers);
  const body = problemBody(localeOf(reply.request.headers), status, detail, errors, type, extensions);
  return reply.code(status).type("application/problem+json").send(body);
}

/** A problem's body (RFC 9457) worded in one language: what sendProblem sends, and what an idempotency key keeps of a refusal. */
export function problemBody(
  locale: Locale,
  status: number,
  detail: Worded,
  errors?: FieldError[],
  type = "about:blank",
  extensions?: Record<string, unknown>,
) {
  return {
    ...extensions,
    type,
    title: textIn(locale, titleOf(status)),
    status,
    detail: textIn(locale, detail),
    ...(errors?.length ? { errors: errors.map((e) => ({ path: e.path, message: textIn(locale, e.message) })) } : {}),
  };
}

/**
 * Node's clientError: a request that is not HTTP (bad framing, a NUL in a header, a raw 0xFF in the
 * path) or whose headers are too large never reaches Fastify's routes or hooks, so its answer is
 * written to the socket here, still as a problem and with every answer's `headers` (the security ones).
 */
export function sendClientErrorProblem(
  error: Error & { code?: string },
  socket: Socket,
  headers: Record<string, string> = {},
) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, detail] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "The request's headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request took too long to arrive."]
        : [400, "The request is not valid HTTP."];
  const body = JSON.stringify({ type: "about:blank", title: STATUS_CODES[status], status, detail });
  if (socket.writable) {
    const more = Object.entries({ ...headers, "cache-control": "no-store" })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/problem+json\r\n${more}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
