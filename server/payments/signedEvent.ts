import type { ZodType } from "zod";
import type { Locale } from "#i18n/dictionaries";
import { badRequest, ProblemError } from "../errors";
import { validationText } from "../i18n/validationText";
import { textIn, words, type WordsKey } from "../i18n/words";
import { verifyWebhook } from "./webhookSignature";

/**
 * The event an outside system posted to one of our webhooks (a card gateway, the number portability
 * exchange): its signature checked over the raw body with the shared secret (401 naming the header),
 * then parsed as JSON (400 at body) and as `schema` (400 at each field, `notAnEvent` saying why).
 */
export function readSignedEvent<T>(
  schema: ZodType<T>,
  request: { body: unknown; headers: Record<string, string | string[] | undefined> },
  { secret, header, notAnEvent }: { secret: string; header: string; notAnEvent: WordsKey },
): T {
  const raw = typeof request.body === "string" ? request.body : "";
  const signature = request.headers[header];
  const check = verifyWebhook(secret, raw, typeof signature === "string" ? signature : undefined);
  if (!check.ok)
    throw new ProblemError(401, words(`payments.webhook.signature.${check.why}`), [
      { path: header, message: words(`payments.webhook.signatureField.${check.why}`) },
    ]);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw badRequest(words("payments.webhook.notJson"), [
      { path: "body", message: words("payments.webhook.notJsonField") },
    ]);
  }
  // With its input, an issue is worded again in the reader's language by zod's locale (validationText).
  const parsed = schema.safeParse(json, { reportInput: true });
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    path: issue.path.join(".") || "body",
    message: (locale: Locale) => validationText(issue, locale),
  }));
  throw badRequest(
    (locale) =>
      textIn(locale, words(notAnEvent, { issues: errors.map((e) => `${e.path}: ${e.message(locale)}`).join("; ") })),
    errors,
  );
}
