import type { FastifyRequest } from "fastify";
import { badRequest, type FieldError } from "../errors";
import { words } from "../i18n/words";
import { notValid } from "./listedText";

/** A UTF-16 surrogate without its pair: it cannot be stored in PostgreSQL text or jsonb (nor can NUL). */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isUnstorable = (text: string) => text.includes("\u0000") || UNPAIRED_SURROGATE.test(text);

/**
 * Walks the value with `path` as a stack (pushed and popped in place, joined only for what is
 * found): a 10,000-record usage batch has 60,000 strings, and a new path array per value cost more
 * than the checks themselves.
 */
function findUnstorable(value: unknown, path: string[], found: FieldError[], depth = 0): void {
  if (found.length >= 10 || depth > 64) return;
  if (value instanceof Uint8Array) return; // an uploaded file's bytes (POST /files), not text
  if (typeof value === "string") {
    if (isUnstorable(value)) found.push({ path: path.join(".") || "body", message: words("lib.unstorable") });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(String(i));
      findUnstorable(value[i], path, found, depth + 1);
      path.pop();
    }
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      path.push(key);
      if (isUnstorable(key)) found.push({ path: path.join("."), message: words("lib.unstorableName") });
      findUnstorable((value as Record<string, unknown>)[key], path, found, depth + 1);
      path.pop();
    }
  }
}

/**
 * For the preValidation hook: text that the database would refuse (a 500 from deep inside a query)
 * is a 400 naming where it is, whatever route or schema it came through: path, query or body.
 * Nothing here waits, so it throws rather than rejecting (app.ts registers it as a callback hook).
 */
export function rejectUnstorableText(request: FastifyRequest): void {
  for (const [where, value] of [
    ["path", request.params],
    ["query", request.query],
    ["body", request.body],
  ] as const) {
    const found: FieldError[] = [];
    findUnstorable(value, [], found);
    if (found.length) throw badRequest(notValid(where, found), found);
  }
}
