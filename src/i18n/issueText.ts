import { isMessageKey, translateTo, type Locale } from "./dictionaries";

/** What a zod issue carries that a declared message can name: its bounds and a custom issue's params. */
export interface IssueLike {
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  params?: Record<string, unknown>;
}

const intlLocale = (locale: Locale) => (locale === "es" ? "es-US" : "en-US");

/**
 * The words of one validation issue. A declaration's message is a dictionary key ("validation.atMostChars"),
 * filled with the issue's bounds: `{{min}}`/`{{max}}` as numbers, `{{minMoney}}`/`{{maxMoney}}` as
 * amounts (the bound in minor units of `params.currency`, USD unless said), each in the language's
 * format. Any other message is zod's own, already in the language zod was switched to. The portal
 * passes the page's language (getLocale), the server "en".
 */
export function issueText(issue: IssueLike, locale: Locale): string {
  if (!isMessageKey(issue.message)) return issue.message;
  const intl = intlLocale(locale);
  const currency = typeof issue.params?.currency === "string" ? issue.params.currency : "USD";
  const number = (n: unknown) => (typeof n === "number" ? n.toLocaleString(intl) : "");
  const money = (n: unknown) =>
    typeof n === "number" ? new Intl.NumberFormat(intl, { style: "currency", currency }).format(n / 100) : "";
  const params = Object.fromEntries(
    Object.entries(issue.params ?? {}).map(([name, value]) => [
      name,
      typeof value === "number" ? number(value) : value,
    ]),
  );
  const bounds = {
    ...(issue.minimum !== undefined && { min: number(issue.minimum), minMoney: money(issue.minimum) }),
    ...(issue.maximum !== undefined && { max: number(issue.maximum), maxMoney: money(issue.maximum) }),
  };
  return translateTo(locale, issue.message, { ...params, ...bounds });
}
