import { PROBLEM_TYPES } from "#resources/api";
import { ProblemError } from "../errors";
import { words, type WordsKey } from "../i18n/words";

/**
 * 403 reauth-required (the portal asks for the password or a texted code, then retries) when the
 * session's sign-in is older than `maxAgeSeconds`; `sentence` says what needs it.
 */
export function requireRecentSignIn(
  authTime: number,
  maxAgeSeconds: number,
  sentence: WordsKey = "engine.reauth",
): void {
  if (Date.now() / 1000 - authTime <= maxAgeSeconds) return;
  throw new ProblemError(
    403,
    words(sentence, { minutes: Math.round(maxAgeSeconds / 60) || 1 }),
    [{ path: "authorization", message: words("engine.reauthField") }],
    PROBLEM_TYPES.reauthRequired,
  );
}
