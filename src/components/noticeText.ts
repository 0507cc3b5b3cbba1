import type { Notification } from "../resources/notifications";
import { translate as t } from "../i18n";
import { formatMsisdn } from "./format";

/** A notice in the reader's language: its kind's sentence, with the actor's role and enum values in words. */
export function noticeText(notice: Pick<Notification, "kind" | "params">): string {
  const { byRole, msisdn, suspendReason, ...rest } = notice.params;
  return t(`notifications.kinds.${notice.kind}`, {
    ...rest,
    by: byRole ? t(`notifications.by.${byRole}`, undefined, String(byRole)) : "",
    msisdn: typeof msisdn === "string" ? formatMsisdn(msisdn) : "",
    suspendReason: suspendReason ? t(`enums.suspendReason.${suspendReason}`, undefined, String(suspendReason)) : "",
  });
}
