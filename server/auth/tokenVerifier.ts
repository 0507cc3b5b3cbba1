import type { Auth, DecodedIdToken } from "firebase-admin/auth";
import type { Role } from "#resources/define";
import { claimsOf } from "#resources/access";
import { unauthorized } from "../errors";
import { words, type Words } from "../i18n/words";

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
  /** When the user last signed in (the token's `auth_time`, seconds since the epoch); refreshed tokens keep it. */
  authTime: number;
  /** When this token was minted (`iat`, seconds): Firebase mints one after every sign-in, link, unlink, MFA or email/phone change, and hourly. */
  issuedAt: number;
  /** How this session signed in (`firebase.sign_in_provider`: "password", "phone", "google.com", "custom", …). */
  signInProvider: string | null;
}

export interface VerifyOptions {
  /**
   * Ask Firebase now, never the cache: revocation, disabled state and claims as they are this
   * moment. Writes and reads of secrets need it (server/auth/requestAuth.ts decides).
   */
  fresh?: boolean;
}

export interface TokenVerifier {
  verify(token: string, options?: VerifyOptions): Promise<VerifiedUser>;
  /**
   * Drops this instance's cached verifications of a user (after a role change or revocation).
   * Other instances learn of it through server/auth/accessInvalidation.ts.
   */
  forgetUser(uid: string): void;
  /** Drops every cached verification (when invalidations may have been missed). */
  forgetAll(): void;
  /** TOKEN_CACHE_SECONDS: how long a verification may be trusted; open live streams re-check theirs this often. */
  readonly cacheSeconds: number;
}

export const DEFAULT_TOKEN_CACHE_SECONDS = 30;
const CACHE_MAX = 10_000;

/**
 * Verifies ID tokens with firebase-admin: the signature (the Auth emulator's tokens are unsigned
 * and pass), then `checkRevoked`, which refuses disabled users and tokens signed in before a
 * revocation, then the user's record: a token whose role or operator is not the account's (a role
 * changed since, or claims edited by hand in an unsigned emulator token) is refused too; the portal
 * then retries once with a freshly minted token.
 *
 * A cache keyed by the token spares repeat verifications of reads for `cacheSeconds` (never past
 * `exp`; 0 turns it off). A verification that was running while a user was forgotten is not cached,
 * so it cannot put back what an invalidation just dropped.
 */
export function createTokenVerifier(
  auth: Auth,
  options: { cacheSeconds?: number; now?: () => number } = {},
): TokenVerifier {
  const cacheMs = (options.cacheSeconds ?? DEFAULT_TOKEN_CACHE_SECONDS) * 1000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { user: VerifiedUser; until: number }>();
  let generation = 0;

  async function verifyUncached(token: string): Promise<VerifiedUser> {
    let decoded: DecodedIdToken;
    try {
      decoded = await auth.verifyIdToken(token, true);
    } catch (error) {
      throw unauthorized(describeFirebaseError(error));
    }
    await checkAgainstUserRecord(auth, decoded);
    return {
      uid: decoded.uid,
      email: decoded.email ?? null,
      emailVerified: decoded.email_verified === true,
      phoneNumber: decoded.phone_number ?? null,
      ...claimsOf(decoded),
      secondFactor: decoded.firebase?.sign_in_second_factor ?? null,
      authTime: decoded.auth_time,
      issuedAt: decoded.iat,
      signInProvider: decoded.firebase?.sign_in_provider ?? null,
    };
  }

  return {
    cacheSeconds: cacheMs / 1000,
    async verify(token, { fresh = false } = {}) {
      const hit = cache.get(token);
      if (hit && !fresh && hit.until > now()) return hit.user;
      if (hit) cache.delete(token);
      const startedIn = generation;
      const user = await verifyUncached(token);
      const until = Math.min(now() + cacheMs, decodeExp(token) * 1000);
      if (cacheMs > 0 && generation === startedIn && until > now()) {
        if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
        cache.set(token, { user, until });
      }
      return user;
    },
    forgetUser(uid) {
      generation++;
      for (const [token, entry] of cache) if (entry.user.uid === uid) cache.delete(token);
    },
    forgetAll() {
      generation++;
      cache.clear();
    },
  };
}

/** The account as Firebase holds it now must carry the role and operator the token claims. */
async function checkAgainstUserRecord(auth: Auth, decoded: DecodedIdToken): Promise<void> {
  let record;
  try {
    record = await auth.getUser(decoded.uid);
  } catch {
    throw unauthorized(words("auth.unknownUser"));
  }
  if (record.disabled) throw unauthorized(words("auth.disabled"));
  const inToken = claimsOf(decoded);
  const onRecord = claimsOf(record.customClaims);
  if (inToken.role !== onRecord.role || inToken.operator !== onRecord.operator) {
    throw unauthorized(words("auth.roleMismatch"));
  }
}

function decodeExp(token: string): number {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null && "exp" in payload && typeof payload.exp === "number"
      ? payload.exp
      : 0;
  } catch {
    return 0;
  }
}

function describeFirebaseError(error: unknown): Words {
  const code = (error as { code?: string })?.code ?? "";
  if (code.endsWith("id-token-expired")) return words("auth.tokenExpired");
  if (code.endsWith("id-token-revoked")) return words("auth.signedOutEverywhere");
  if (code.endsWith("user-disabled")) return words("auth.disabled");
  return words("auth.tokenNotValid");
}
