import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { operators } from "../db/schema";
import type { SecurityPolicy } from "#resources/identity";

/** The security policy an operator sets for its staff, read from operators.settings (jsonb). */
export function securityPolicyOf(settings: Record<string, unknown> | null | undefined): SecurityPolicy {
  // Anything but the explicit 24-hour rule is the stricter default: confirmation by another admin.
  return {
    requireStaffMfa: settings?.requireStaffMfa === true,
    newStaffMayApprove: settings?.newStaffMayApprove === "after-24-hours" ? "after-24-hours" : "after-confirmation",
  };
}

export interface OperatorDirectory {
  /** The operator's settings, or null when no such operator exists. Cached for `ttlMs`. */
  settings(code: string): Promise<Record<string, unknown> | null>;
  /** Drops this instance's cached settings of an operator (after a change; server/auth/accessInvalidation.ts tells the others). */
  invalidate(code: string): void;
  /** Drops every cached operator (when invalidations may have been missed). */
  invalidateAll(): void;
}

export const OPERATOR_SETTINGS_TTL_MS = 3_000;

/**
 * Operators and their settings, read on requests that need them (the staff MFA policy, the
 * known-operator check) and cached a few seconds. A change is invalidated on every instance at once
 * (server/auth/accessInvalidation.ts); the TTL only bounds what a missed notification can cost.
 */
export function createOperatorDirectory(
  db: Db,
  options: { ttlMs?: number; now?: () => number } = {},
): OperatorDirectory {
  const ttlMs = options.ttlMs ?? OPERATOR_SETTINGS_TTL_MS;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { value: Promise<Record<string, unknown> | null>; until: number }>();

  return {
    settings(code) {
      const hit = cache.get(code);
      if (hit && hit.until > now()) return hit.value;
      const value = db
        .select({ settings: operators.settings })
        .from(operators)
        .where(eq(operators.code, code))
        .limit(1)
        .then(([row]) => row?.settings ?? null);
      // A failed read is not cached.
      value.catch(() => cache.delete(code));
      if (cache.size > 1_000) cache.clear();
      cache.set(code, { value, until: now() + ttlMs });
      return value;
    },
    invalidate(code) {
      cache.delete(code);
    },
    invalidateAll() {
      cache.clear();
    },
  };
}
