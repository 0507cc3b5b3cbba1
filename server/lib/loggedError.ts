/**
 * An error as the log may hold it: what failed and where, never the values a person typed. A failed
 * query (Drizzle's DrizzleQueryError) keeps its SQL, which has `$1…` in place of every value, and
 * loses its parameters (emails, message texts, file names). A PostgreSQL error keeps its SQLSTATE and
 * the names of the constraint, table and column, and loses `detail` ("Key (email)=(…) already
 * exists", "Failing row contains (…)"), `where` and `hint`; a data exception (class 22: "invalid
 * input syntax for type uuid: \"…\"") loses the quoted value from its message too. Fields are picked,
 * never copied wholesale, so a new field of a driver cannot carry a value into the log.
 */

/** PostgreSQL's fields that name things, never hold a row's values. */
const NAMING_FIELDS = ["code", "severity", "constraint", "table", "column", "schema", "dataType", "routine"] as const;
/** Other fields worth keeping on any error: Node's and Fastify's codes, an HTTP status. */
const PLAIN_FIELDS = ["code", "statusCode", "errno", "syscall"] as const;
const MAX_DEPTH = 5;

export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  cause?: LoggedError;
  errors?: LoggedError[];
  [field: string]: unknown;
}

type AnyError = Error & Record<string, unknown>;

const isPostgresError = (e: AnyError) =>
  typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === "string";
const isFailedQuery = (e: AnyError) =>
  typeof e.query === "string" && "params" in e && e.message.startsWith("Failed query:");

function safeMessage(e: AnyError): string {
  if (isFailedQuery(e)) return `Failed query: ${e.query as string}`;
  // A data exception quotes the value it could not take, or names it after a colon.
  if (isPostgresError(e) && (e.code as string).startsWith("22"))
    return e.message.replace(/"(?:[^"]|"")*"/g, '"…"').replace(/:\s[^"]*$/s, ": …");
  return e.message;
}

/** The stack's frames under the safe message: the stack's first line repeats the message, values and all. */
function safeStack(e: AnyError, type: string, message: string): string {
  const frames = (typeof e.stack === "string" ? e.stack : "").split("\n").filter((line) => /^\s+at /.test(line));
  return [`${type}: ${message}`, ...frames].join("\n");
}

export function loggedError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) {
    const message = typeof error === "string" ? "(a string was thrown)" : "(not an Error)";
    return { type: typeof error, message, stack: message };
  }
  const e = error as AnyError;
  const type = e.constructor?.name && e.constructor.name !== "Object" ? e.constructor.name : e.name;
  const message = safeMessage(e);
  const out: LoggedError = { type, message, stack: safeStack(e, type, message) };
  for (const field of isPostgresError(e) ? NAMING_FIELDS : PLAIN_FIELDS) {
    const value = e[field];
    if (typeof value === "string" || typeof value === "number") out[field] = value;
  }
  if (depth < MAX_DEPTH) {
    if (e.cause !== undefined) out.cause = loggedError(e.cause, depth + 1);
    if (Array.isArray(e.errors))
      out.errors = (e.errors as unknown[]).slice(0, 10).map((inner) => loggedError(inner, depth + 1));
  }
  return out;
}
