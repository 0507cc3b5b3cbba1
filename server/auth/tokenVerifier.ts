import type { Auth, DecodedIdToken } from "firebase-admin/auth";
import type { Role } from "../../src/resources/define";
import { claimsOf } from "../../src/resources/access";
import { unauthorized } from "../errors";

/** Who made a request, from a verified Firebase ID token. Role and operator are null until claims are set. */
export interface VerifiedUser {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** E.164, present when the user signed in with (or linked) a phone number. */
  phoneNumber: string | null;
  role: Role | null;
  operator: string | null;
  /** The second factor this session was signed in with (`firebase.sign_in_second_factor`, e.g. "phone"), or null. */
  secondFactor: string | null;
  /** When the user last signed in (seconds since the epoch): actions declared with `reauth` need it recent. */
  authTime: number;
}

export interface TokenVerifier {
  verify(token: string): Promise<VerifiedUser>;
  /** Drops cached verifications of a user (after a role change or revocation). */
  forgetUser(uid: string): void;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX = 10_000;

/**
 * Verifies ID tokens with firebase-admin. In production signatures are checked against Google's keys
 * and `checkRevoked` refuses revoked and disabled users. The Auth emulator's tokens are unsigned, so
 * in emulator mode the token is also compared with the emulator's own record of the user: a token
 * whose claims were edited by hand, whose user is unknown or disabled, or that predates a revocation
 * is refused. A short cache keyed by the token spares repeat verifications (never past `exp`).
 */
export function createTokenVerifier(auth: Auth, options: { emulator: boolean }): TokenVerifier {
  const cache = new Map<string, { user: VerifiedUser; until: number }>();

  async function verifyUncached(token: string): Promise<VerifiedUser> {
    let decoded: DecodedIdToken;
    try {
      decoded = await auth.verifyIdToken(token, !options.emulator);
    } catch (error) {
      throw unauthorized(describeFirebaseError(error));
    }
    if (options.emulator) await checkAgainstEmulatorRecord(auth, decoded);
    return {
      uid: decoded.uid,
      email: decoded.email ?? null,
      emailVerified: decoded.email_verified === true,
      phoneNumber: decoded.phone_number ?? null,
      ...claimsOf(decoded),
      secondFactor: decoded.firebase?.sign_in_second_factor ?? null,
      authTime: decoded.auth_time,
    };
  }

  return {
    async verify(token) {
      const now = Date.now();
      const hit = cache.get(token);
      if (hit && hit.until > now) return hit.user;
      if (hit) cache.delete(token);
      const user = await verifyUncached(token);
      const exp = decodeExp(token);
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
      cache.set(token, { user, until: Math.min(now + CACHE_TTL_MS, exp * 1000) });
      return user;
    },
    forgetUser(uid) {
      for (const [token, entry] of cache) if (entry.user.uid === uid) cache.delete(token);
    },
  };
}

async function checkAgainstEmulatorRecord(auth: Auth, decoded: DecodedIdToken): Promise<void> {
  let record;
  try {
    record = await auth.getUser(decoded.uid);
  } catch {
    throw unauthorized("The token names a user that does not exist.");
  }
  if (record.disabled) throw unauthorized("This account is disabled.");
  const validSince = record.tokensValidAfterTime ? Date.parse(record.tokensValidAfterTime) : 0;
  if (decoded.auth_time * 1000 < validSince - 1000) throw unauthorized("The session was signed out everywhere; sign in again.");
  const inToken = claimsOf(decoded);
  const onRecord = claimsOf(record.customClaims);
  if (inToken.role !== onRecord.role || inToken.operator !== onRecord.operator) {
    throw unauthorized("The token's role does not match the account; refresh the token and try again.");
  }
}

function decodeExp(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload.exp === "number" ? payload.exp : 0;
  } catch {
    return 0;
  }
}

function describeFirebaseError(error: unknown): string {
  const code = (error as { code?: string })?.code ?? "";
  if (code.endsWith("id-token-expired")) return "The ID token has expired; sign in again.";
  if (code.endsWith("id-token-revoked")) return "The session was signed out everywhere; sign in again.";
  if (code.endsWith("user-disabled")) return "This account is disabled.";
  return "The ID token is not valid.";
}
