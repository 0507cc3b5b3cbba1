import type { Auth } from "firebase-admin/auth";
import type { OperatorDirectory } from "../auth/operatorSettings";
import type { TokenVerifier } from "../auth/tokenVerifier";
import type { Db } from "../db/client";
import { unavailable } from "../errors";
import type { Limiters } from "../lib/rateLimits";

/** What the identity, staff and policy routes work with. */
export interface IdentityServices {
  db: Db;
  /** firebase-admin Auth (claims, users, revocation); absent in apps built without it (503). */
  auth?: Auth;
  verifier: TokenVerifier;
  operators: OperatorDirectory;
  limiters: Limiters;
}

export function adminAuth(services: IdentityServices): Auth {
  if (!services.auth) throw unavailable("Identity administration is not configured on this server.");
  return services.auth;
}

export const firebaseCode = (error: unknown) => (error as { code?: string })?.code ?? "";
