/**
 * The first PostgreSQL error in a chain: Drizzle wraps the driver's error (node-postgres and PGlite
 * both carry `code`, the SQLSTATE, and `constraint`) in `cause`.
 */
function postgresError(error: unknown): { code: string; constraint?: unknown } | undefined {
  for (
    let e = error as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e as { code: string; constraint?: unknown };
  }
  return undefined;
}

/** Whether a query failed on a unique constraint (SQLSTATE 23505), by the constraint's name (or a pattern of names: a partition's own). */
export function isUniqueViolation(error: unknown, constraint: string | RegExp): boolean {
  const found = postgresError(error);
  if (found?.code !== "23505") return false;
  return typeof constraint === "string"
    ? found.constraint === constraint
    : typeof found.constraint === "string" && constraint.test(found.constraint);
}

/**
 * Whether a transaction was aborted because it collided with a concurrent one: a deadlock (40P01)
 * or a serialization failure (40001). PostgreSQL rolled it back whole, so the same request may simply
 * be sent again; the API answers 503 with Retry-After rather than a 500.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = postgresError(error)?.code;
  return code === "40P01" || code === "40001";
}

/**
 * Whether two sessions collided creating the same objects (two backends starting together): a
 * deadlock, or the other's row (23505), schema (42P06), table (42P07) or type (42710) already there.
 * Asked again, the second finds what the first made.
 */
export function isConcurrentCreation(error: unknown): boolean {
  const code = postgresError(error)?.code;
  return code === "40P01" || code === "23505" || code === "42P06" || code === "42P07" || code === "42710";
}

/** Whether the database refused a value given to it (a data exception, SQLSTATE class 22: a text that is no timestamp, no number). */
export function isDataException(error: unknown): boolean {
  return postgresError(error)?.code.startsWith("22") ?? false;
}
