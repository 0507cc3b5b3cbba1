import type { Notification } from "../resources/notifications";
import { translate as t } from "../i18n";
import { formatDate, formatMoney, formatMsisdn } from "./format";
import { readable } from "./actions/QuoteView";

/** Money a notice names travels as integer minor units plus `currency`; shown in the reader's locale. */
const MONEY_PARAMS = ["amount", "balance", "total", "missing", "paid", "left", "owed"] as const;

/** A calendar day a notice names travels as "2026-12-12"; shown as the reader's language writes it. */
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Why a payment failed, in the reader's words: a code the texts know, or a plain "refused" for any other. */
function failureWords(code: unknown): string {
  if (typeof code !== "string" || !code) return "";
  return t(`notifications.failure.${code}`, undefined, t("notifications.failure.other"));
}

/** A notice in the reader's language: its kind's sentence, with the actor's role and enum values in words. */
export function noticeText(notice: Pick<Notification, "kind" | "params">): string {
  // A declared resource's notice speaks its declaration's words, with its numbers and days as people read them.
  if (notice.kind === "resource.notice")
    return t(String(notice.params.message), readable(notice.params as Record<string, string | number>));
  const {
    byRole,
    msisdn,
    suspendReason,
    usageType,
    capReason,
    decision,
    approvalKind,
    change,
    temporaryMsisdn,
    portInReason,
    failureReason,
    returnCode,
    ...rest
  } = notice.params;
  const currency = typeof rest.currency === "string" ? rest.currency : null;
  const money = Object.fromEntries(
    MONEY_PARAMS.filter((k) => currency && typeof rest[k] === "number").map((k) => [
      k,
      formatMoney({ amount: rest[k] as number, currency: currency! }),
    ]),
  );
  const days = Object.fromEntries(
    Object.entries(rest).flatMap(([k, v]) =>
      typeof v === "string" && CALENDAR_DAY.test(v) ? [[k, formatDate(v)]] : [],
    ),
  );
  return t(`notifications.kinds.${notice.kind}`, {
    ...rest,
    ...money,
    ...days,
    by: byRole ? t(`notifications.by.${byRole}`, undefined, String(byRole)) : "",
    msisdn: typeof msisdn === "string" ? formatMsisdn(msisdn) : "",
    // An account alert (issue 27): what changed, in the reader's words.
    what: change
      ? t(`accountAlerts.what.${String(change)}`, { msisdn: typeof msisdn === "string" ? formatMsisdn(msisdn) : "" })
      : "",
    suspendReason: suspendReason ? t(`enums.suspendReason.${suspendReason}`, undefined, String(suspendReason)) : "",
    usageType: usageType ? t(`usage.types.${usageType}`, undefined, String(usageType)) : "",
    capReason: capReason ? t(`usage.capReason.${capReason}`, undefined, String(capReason)) : "",
    decision: decision ? t(`notifications.decision.${decision}`, undefined, String(decision)) : "",
    // A port-in (issue 28): the line's number until the transfer, and why the exchange refused it.
    temporaryMsisdn: typeof temporaryMsisdn === "string" ? formatMsisdn(temporaryMsisdn) : "",
    portInReason: portInReason ? t(`orders.portIn.rejected.${portInReason}`, undefined, String(portInReason)) : "",
    approvalKind: approvalKind ? t(`enums.approvalKind.${approvalKind}`, undefined, String(approvalKind)) : "",
    // A payment that did not go through: the gateway's or the bank's code in words, never the code.
    failureReason: failureWords(failureReason),
    returnCode: failureWords(returnCode),
  });
}
