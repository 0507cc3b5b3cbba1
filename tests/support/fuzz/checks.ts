import type { RawResponse } from "../rawHttp";

/** What a response body must never show: the server's insides. Each pattern is something only a server would write, never an echo of fuzzed input. */
const LEAKS: [string, RegExp][] = [
  ["a stack trace", /(?:\n|\\n)\s+at \S[^\n]*:\d+:\d+|\bat (?:async )?[\w$.<>[\]]+ \([^)\n]*:\d+:\d+\)/],
  [
    "a file path",
    /(?:\/work\/|\/home\/|\/usr\/(?:lib|local)\/|node_modules|file:\/\/|\b[\w-]+\.(?:ts|js|mjs|cjs):\d+)/,
  ],
  [
    "SQL or a database error",
    /Failed query|syntax error at or near|invalid input syntax for|violates (?:not-null|foreign key|check|unique) constraint|out of range for type|invalid byte sequence for encoding|unsupported Unicode escape|current transaction is aborted|operator does not exist|(?:relation|column) "[^"]+" does not exist|\bselect\b[^\n]{0,300}\bfrom "|\binsert into "|\bupdate "[\w_]+" set\b|\bSQLSTATE\b/i,
  ],
];

const isString = (v: unknown): v is string => typeof v === "string";
/** One entry of a problem's `errors`: the field's path and what is wrong with it, as text. */
const isIssue = (e: unknown) =>
  typeof e === "object" &&
  e !== null &&
  isString((e as { path?: unknown }).path) &&
  isString((e as { message?: unknown }).message);

/**
 * What is wrong with one answer, per the API's contract (design.md §4): never a 5xx, nothing of the
 * server's insides in any body, and every 4xx an RFC 9457 problem (`application/problem+json` with
 * type, title, status equal to the response's, detail, and `errors` of {path, message} when present).
 */
export function contractViolations(response: RawResponse): string[] {
  const found: string[] = [];
  if (response.status >= 500) found.push(`answered ${response.status}`);
  for (const [what, pattern] of LEAKS) {
    const match = pattern.exec(response.body);
    if (match)
      found.push(`the body shows ${what}: …${response.body.slice(Math.max(0, match.index - 60), match.index + 120)}…`);
  }
  if (response.status >= 400 && response.status < 500) {
    const type = String(response.headers["content-type"] ?? "");
    if (!/^application\/problem\+json\b/.test(type))
      found.push(`a ${response.status} with content-type '${type}', not application/problem+json`);
    let problem: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(response.body);
      problem =
        parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    } catch {
      // reported below
    }
    if (!problem) found.push(`a ${response.status} whose body is not a JSON object: ${response.body.slice(0, 200)}`);
    else {
      if (!isString(problem.type) || !isString(problem.title) || !isString(problem.detail))
        found.push(`a problem without type, title and detail as text: ${response.body.slice(0, 300)}`);
      if (problem.status !== response.status)
        found.push(`a problem whose status (${String(problem.status)}) is not the response's (${response.status})`);
      const errors = problem.errors;
      if (errors !== undefined && !(Array.isArray(errors) && (errors as unknown[]).every(isIssue))) {
        found.push(`a problem whose errors are not [{path, message}]: ${JSON.stringify(errors).slice(0, 300)}`);
      }
    }
  }
  return found;
}
