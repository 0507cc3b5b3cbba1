import { translate } from "../i18n";
import { authErrorMessage, type AuthField } from "./authErrors";

/** What every identity flow returns: done, or a translated message at the field it concerns. */
export type FlowResult = { ok: true } | FlowFailure;
export interface FlowFailure {
  ok: false;
  field?: AuthField | "form";
  message: string;
  /** Seconds to wait before trying again (rate limits). */
  retryAfter?: number;
  /** Set when the sign-in needs its second step. */
  mfa?: MfaChallenge;
}

/**
 * Any error a flow can meet, as something a person can act on: a backend rate limit says how long
 * to wait, a backend problem keeps its detail, a Firebase error becomes its translated message.
 */
export function failure(error: unknown): FlowFailure {
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (status === 429) {
    const retryAfter = (error as { retryAfter?: number }).retryAfter;
    return {
      ok: false,
      field: "phone",
      message: translate("auth.errors.waitSeconds", { seconds: retryAfter ?? 60 }),
      retryAfter,
    };
  }
  if (typeof status === "number") return { ok: false, field: "form", message: (error as { message: string }).message };
  const { field, key } = authErrorMessage(error);
  return { ok: false, field: field ?? "form", message: translate(key) };
}

/** A sign-in that needs its second factor: where the code goes, how to send it and check it. */
export interface MfaChallenge {
  /** Where the code goes, e.g. "•••• 0199". */
  hint: string;
  sendCode(recaptchaContainer: HTMLElement): Promise<FlowResult>;
  verify(code: string): Promise<FlowResult>;
}
