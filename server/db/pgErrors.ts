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
