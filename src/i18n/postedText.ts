import { translateTo, type Locale } from "./dictionaries";
import type { MessageKey } from "./en";

/**
 * Texts the system posts in English and stores in records (a ledger entry's reason, a bill item's
 * description), worded again in a reader's language. Pure: the portal and the server (the bill PDF)
 * share it, each bringing its own date format and catalog names.
 */
export interface PostedWords {
  /** A calendar date ("2026-11-01") as the reader writes it. */
  date: (isoDate: string) => string;
  /** A plan's or add-on's name in the reader's language, by its default (English) name; else as it is. */
  name: (english: string) => string;
}

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;

/** How the rating names a usage type and a roaming zone in English (server/domain/usage/rating.ts). */
const TYPES: Record<string, string> = { data: "data", calls: "voice", texts: "sms" };
const ZONES: Record<string, string> = {
  "Canada & Mexico": "canada_mexico",
  Europe: "europe",
  "the rest of the world": "rest_of_world",
};

/**
 * The posted forms (server/domain/money/billing.ts, vouchers.ts, topUps, invoicePayments/settle.ts,
 * usage/rating.ts, renewals/renew.ts, addOns/purchases.ts, plans/changePlan.ts, the seed), each with
 * the key that words it. The first match wins, so the add-on renewal comes before the add-on.
 */
const POSTED: readonly [RegExp, MessageKey][] = [
  [/^Voucher top-up$/, "posted.voucherTopUp"],
  [/^Card top-up$/, "posted.cardTopUp"],
  [/^Credit left after bill (?<number>\S+)$/, "posted.creditLeft"],
  [/^Payment of bill (?<number>\S+): (?<excess>\d+) kept as a credit for the next bill$/, "posted.billPaymentExcess"],
  [/^Payment of bill (?<number>\S+)$/, "posted.billPayment"],
  [/^Overpayment of bill (?<number>\S+)$/, "posted.overpayment"],
  [/^Bank payment of bill (?<number>\S+) returned by the bank \((?<code>[^)]*)\)$/, "posted.bankReturn"],
  [
    /^Credit from the returned bank payment of bill (?<number>\S+), already deducted from bill (?<bill>\S*)$/,
    "posted.bankReturnCreditUsed",
  ],
  // The reason after the colon is a staff member's own words: kept as written.
  [/^Reversal of a card top-up that failed after the gateway captured it: (?<reason>.*)$/s, "posted.topUpReversal"],
  [/^(?<plan>.+): monthly plan$/, "posted.monthlyPlan"],
  [new RegExp(`^(?<plan>.+), (?<start>${DATE}) to (?<end>${DATE}) \\((?<msisdn>[^)]+)\\)$`), "posted.planFee"],
  [new RegExp(`^(?<plan>.+), cycle from (?<start>${DATE}) \\((?<msisdn>[^)]+)\\)$`), "posted.planCycle"],
  [/^Plan change from (?<from>.+) to (?<to>.+) for (?<days>\d+) of (?<cycleDays>\d+) days$/, "posted.planChange"],
  [/^Renewal of add-on (?<addOn>.+) on (?<msisdn>\S+)$/, "posted.addOnRenewal"],
  [/^Add-on (?<addOn>.+) on (?<msisdn>\S+)$/, "posted.addOn"],
  [
    /^(?<type>Data|Calls|Texts) beyond the allowance(?: in (?<zone>.+?))?, (?<quantity>\d[^(]*?) \((?<msisdn>[^)]+)\)$/,
    "posted.overage",
  ],
  [/^Usage beyond the allowance \((?<msisdn>[^)]+)\): (?<parts>.+)$/, "posted.prepaidUsage"],
  [
    /^(?<quantity>\d[\d.,]*\s?(?:MB|GB|min)) of (?<type>data|calls|texts) beyond the allowance(?: in (?<zone>.+))?$/,
    "posted.usageAmount",
  ],
];

/** A usage type the rating named ("Data", "calls") in `locale`, starting with a capital when it did. */
function typeIn(type: string, locale: Locale): string {
  const words = translateTo(locale, `subscriber.bill.usage.${TYPES[type.toLowerCase()] ?? ""}`, undefined, type);
  return type[0] === type[0]!.toUpperCase() ? words : words.toLocaleLowerCase(locale);
}

/** " in Europe" in `locale`, or nothing at home; a zone it does not know stays as named. */
function whereIn(zone: string | undefined, locale: Locale): string {
  if (!zone) return "";
  const id = ZONES[zone];
  if (!id) return translateTo(locale, "posted.inZone", { zone });
  const name = translateTo(locale, `subscriber.bill.zone.${id}`, undefined, zone);
  return translateTo(
    locale,
    `posted.inZone.${id}`,
    { zone: name },
    translateTo(locale, "posted.inZone", { zone: name }),
  );
}

/** "1500 MB", "3 min", "2 messages" in `locale`. */
function quantityIn(quantity: string, locale: Locale): string {
  const messages = /^(\d+) messages?$/.exec(quantity);
  if (!messages) return quantity;
  return translateTo(locale, messages[1] === "1" ? "posted.message" : "posted.messages", { count: messages[1] });
}

/** One part of a prepaid usage reason ("data in Europe 1500 MB", "texts 2 messages") in `locale`: "1500 MB de datos en Europa". */
function usagePartIn(part: string, locale: Locale): string {
  const parts = /^(?<type>data|calls|texts)(?: in (?<zone>.+?))? (?<quantity>\d.*)$/.exec(part)?.groups;
  if (!parts) return part;
  const params = {
    quantity: quantityIn(parts.quantity!, locale),
    type: typeIn(parts.type!, locale),
    where: whereIn(parts.zone, locale),
  };
  // "2 mensajes" already says what it counts.
  return translateTo(locale, `posted.usagePart.${parts.type}`, params, translateTo(locale, "posted.usagePart", params));
}

/** Forms a declaration posts (issue 29: a declared charge's label), each its English template as a pattern. */
const DECLARED: [RegExp, string][] = [];

/**
 * Adds the forms of declared labels (the keys of declared charges and refunds): a ledger reason
 * posted from one reads again in the reader's language from the same key, its days as they write them.
 */
export function addPostedForms(keys: readonly string[]): void {
  for (const key of keys) {
    const template = translateTo("en", key);
    if (template === key || DECLARED.some(([, known]) => known === key)) continue;
    const pattern = template
      .split(/\{\{(\w+)\}\}/)
      .map((part, index) => (index % 2 ? `(?<${part}>.+?)` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    try {
      DECLARED.push([new RegExp(`^${pattern}$`), key]);
    } catch {
      // A template naming one value twice cannot be a pattern: its reasons stay in English.
    }
  }
}

/**
 * A text the system posted, in `locale`: English as posted; in another language re-worded when it
 * reads as one of the posted forms, with catalog names and dates as its readers write them. Anything
 * else (a staff member's own words) stays as written.
 */
export function postedTextIn(text: string, locale: Locale, words: PostedWords): string {
  if (locale === "en") return text;
  for (const [pattern, key] of POSTED) {
    const match = pattern.exec(text);
    if (!match) continue;
    const parts: Record<string, string | undefined> = match.groups ?? {};
    const params: Record<string, string | undefined> = { ...parts };
    for (const name of ["plan", "from", "to", "addOn"]) if (parts[name]) params[name] = words.name(parts[name]);
    for (const date of ["start", "end"]) if (parts[date]) params[date] = words.date(parts[date]);
    if (parts.type) params.type = typeIn(parts.type, locale);
    params.where = whereIn(parts.zone, locale);
    if (parts.quantity) params.quantity = quantityIn(parts.quantity, locale);
    if (parts.parts)
      params.parts = parts.parts
        .split(", ")
        .map((part) => usagePartIn(part, locale))
        .join(", ");
    return translateTo(locale, key, params);
  }
  for (const [pattern, key] of DECLARED) {
    const parts = pattern.exec(text)?.groups;
    if (!parts) continue;
    const params = Object.fromEntries(
      Object.entries(parts).map(([name, value]) => [
        name,
        /^\d{4}-\d{2}-\d{2}$/.test(value) ? words.date(value) : value,
      ]),
    );
    return translateTo(locale, key, params);
  }
  return text;
}

/**
 * The small line under an overage on a bill: how much, on which line. English as the rating posted
 * it; in another language only the quantity and number it names ("1.5 GB", "12 min", "3 mensajes").
 */
export function overageDetail(description: string, locale: Locale): string | null {
  if (locale === "en") return description;
  const quantity = /\d[\d.,]*\s?(?:MB|GB|min)\b/.exec(description)?.[0];
  const messages = /(\d+) messages?\b/.exec(description)?.[1];
  const msisdn = /\((\+?\d{6,})\)/.exec(description)?.[1];
  const amount = quantity ?? (messages ? quantityIn(`${messages} messages`, locale) : null);
  const parts = [amount, msisdn].filter((p): p is string => !!p);
  return parts.length ? parts.join(", ") : null;
}
