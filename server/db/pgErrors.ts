/**
 * Whether a query failed on a unique constraint (SQLSTATE 23505), by the constraint's name. Drizzle
 * wraps the driver's error (node-postgres and PGlite both carry `code` and `constraint`) in `cause`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === "23505") return e.constraint === constraint;
  }
  return false;
}

/**
 * Whether a transaction was aborted because it collided with a concurrent one: a deadlock (40P01)
 * or a serialization failure (40001). PostgreSQL rolled it back whole, so the same request may simply
 * be sent again; the API answers 503 with Retry-After rather than a 500.
 */
export function isTransientConflict(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === "40P01" || e.code === "40001") return true;
  }
  return false;
}
