import { runtimeConfig } from "../config/runtime";
import { getLocale } from "../i18n";

// Where the backend is and what every call to it carries, without firebase/auth: the entry's first
// request (earlySession.ts) is sent with these before the Firebase SDK has loaded.

export const apiOrigin = runtimeConfig.apiUrl.replace(/\/$/, "");
export const apiBase = `${apiOrigin}/api/v1`;

/**
 * What every call to the backend carries: the operator, the portal's version, the page's language
 * (the backend words its answers in it: problem details, field errors, bills) and the caller's token.
 */
export function backendHeaders(token: string | null): Record<string, string> {
  return {
    "x-operator": runtimeConfig.operator,
    "x-app-version": runtimeConfig.appVersion,
    "accept-language": getLocale(),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}
