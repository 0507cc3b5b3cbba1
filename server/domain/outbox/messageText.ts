import { lastFourDigits } from "../../lib/masks";
import { translateTo, type Locale } from "#i18n/dictionaries";
import type { outboxMessages } from "../../db/schema";

/** What an email or SMS says: an email has a subject and a body; an SMS only a short body. */
export interface MessageWords {
  subject: string | null;
  body: string;
}

type Params = (typeof outboxMessages.$inferSelect)["params"];
type Message = Pick<typeof outboxMessages.$inferSelect, "channel" | "kind" | "params" | "locale">;

/** The dictionary stem of each kind the outbox carries (src/i18n/en.ts `outbox.*`). */
const STEMS: Record<string, string> = {
  "usage.threshold": "outbox.usageThreshold",
  "usage.capped": "outbox.usageCapped",
  "usage.pool_threshold": "outbox.usagePoolThreshold",
  "staff.invitation": "outbox.staffInvitation",
  "account.alert": "outbox.accountAlert",
  "account.invitation": "outbox.accountInvitation",
  "care.verification_code": "outbox.verificationCode",
  "care.verification_locked": "outbox.verificationLocked",
  "port_in.accepted": "outbox.portInAccepted",
  "port_in.rejected": "outbox.portInRejected",
};

/**
 * The params as words of `locale`: meter kinds ("data" → "datos"), the reason a meter stopped, the
 * invitee's role and greeting. Numbers stay as they are: thresholds read "80 %" in both languages.
 */
function paramWords(locale: Locale, params: Params): Record<string, unknown> {
  const words: Record<string, unknown> = { ...params };
  if (typeof params.usageType === "string") words.usageType = translateTo(locale, `usage.types.${params.usageType}`);
  if (typeof params.capReason === "string")
    words.capReason = translateTo(locale, `usage.capReason.${params.capReason}`);
  if (typeof params.memberRole === "string")
    words.memberRole = translateTo(locale, `enums.memberRole.${params.memberRole}`);
  if (typeof params.role === "string") words.role = translateTo(locale, `roles.${params.role}`);
  // An account alert (issue 27): what changed, as a sentence. The line shows as its last 4 digits: an
  // email or SMS may be read by someone else, and the outbox log must not hold the number (issue 26).
  if (typeof params.change === "string")
    words.what = translateTo(locale, `accountAlerts.what.${params.change}`, {
      msisdn: typeof params.msisdn === "string" ? lastFourDigits(params.msisdn) : "",
    });
  // A port-in the exchange refused (issue 28): why, in words.
  if (typeof params.portInReason === "string")
    words.portInReason = translateTo(locale, `outbox.portInReason.${params.portInReason}`);
  words.greeting =
    typeof params.displayName === "string" && params.displayName.trim()
      ? translateTo(locale, "outbox.greetingNamed", { name: params.displayName.trim() })
      : translateTo(locale, "outbox.greeting");
  return words;
}

/**
 * An outbox message in the words of the language it was queued in. A kind without a template (none
 * today) still goes out, as its kind and params, rather than being lost.
 */
export function messageText(message: Message): MessageWords {
  const stem = STEMS[message.kind];
  if (!stem) return { subject: message.kind, body: JSON.stringify(message.params) };
  const words = paramWords(message.locale, message.params);
  if (message.channel === "sms") return { subject: null, body: translateTo(message.locale, `${stem}.sms`, words) };
  return {
    subject: translateTo(message.locale, `${stem}.subject`, words),
    body: translateTo(message.locale, `${stem}.body`, words),
  };
}
