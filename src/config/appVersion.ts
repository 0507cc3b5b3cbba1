// Versions of the portal as sent in X-App-Version ("3.2.1"), compared by their numbers, shared by the
// backend's minimum-version check and its configuration.
export const APP_VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

/** Negative when a < b, 0 when equal, positive when a > b; both must match APP_VERSION_PATTERN. */
export function compareAppVersions(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** Too old when it is older than the minimum, or not a version at all (a client that sends garbage cannot be trusted to be new). */
export function isAppVersionTooOld(sent: string | undefined, minimum: string): boolean {
  if (sent === undefined) return false;
  return !APP_VERSION_PATTERN.test(sent) || compareAppVersions(sent, minimum) < 0;
}

/** The problem type of the backend's 426 (kept here, free of zod, for the portal's API client). */
export const UPGRADE_REQUIRED_PROBLEM = "/problems/upgrade-required";
