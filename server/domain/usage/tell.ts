import { and, eq, inArray } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { NotificationKind } from "#resources/notifications";
import type { Executor } from "../../audit";
import { notificationPreferences, notifications, outboxMessages } from "../../db/schema";
import type { NoticeParams } from "../../engine/effects";
import { savedLocalesOf } from "../outbox/recipientLocale";

/** One usage notice to one person: their inbox always, email and SMS as they chose. */
export interface UsageNotice {
  recipientUid: string;
  /** Where their email goes (null: none known). */
  email: string | null;
  /** Where their SMS goes (null: none known). */
  phone: string | null;
  kind: Extract<NotificationKind, `usage.${string}`>;
  params: NoticeParams;
  link: string;
  /** The 100 % limit or a stop, with its own email and SMS choices, rather than the 80 % warning. */
  limit: boolean;
}

/**
 * Writes usage notices in the ingest's (or an action's) transaction: the inbox notices in one
 * statement, each recipient's choices and saved language read once, the emails and SMS in one
 * statement to the outbox. Returns the live events, one per recipient.
 */
export async function tellUsage(
  tx: Executor,
  operator: string,
  notices: readonly UsageNotice[],
): Promise<ResourceEvent[]> {
  if (notices.length === 0) return [];
  const uids = [...new Set(notices.map((n) => n.recipientUid))];
  const [preferences, locales] = await Promise.all([
    tx
      .select()
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.operatorCode, operator), inArray(notificationPreferences.uid, uids))),
    savedLocalesOf(tx, operator, uids),
  ]);
  const written = await tx
    .insert(notifications)
    .values(
      notices.map((n) => ({
        operatorCode: operator,
        recipientUid: n.recipientUid,
        kind: n.kind,
        params: n.params,
        link: n.link,
      })),
    )
    .returning({ id: notifications.id, recipientUid: notifications.recipientUid });
  const outgoing = notices.flatMap((n) => {
    const preference = preferences.find((p) => p.uid === n.recipientUid);
    // The 80 % warning and the 100 % limit each have their own email and SMS choice.
    const byEmail = n.limit ? preference?.usageLimitByEmail : preference?.usageAlertsByEmail;
    const bySms = n.limit ? preference?.usageLimitBySms : preference?.usageAlertsBySms;
    const locale = locales.get(n.recipientUid) ?? "en";
    const message = { operatorCode: operator, kind: n.kind, params: n.params, locale };
    return [
      ...(byEmail && n.email ? [{ ...message, channel: "email" as const, recipient: n.email }] : []),
      ...(bySms && n.phone ? [{ ...message, channel: "sms" as const, recipient: n.phone }] : []),
    ];
  });
  if (outgoing.length) await tx.insert(outboxMessages).values(outgoing);
  const at = new Date().toISOString();
  return uids.map((uid) => ({
    operator,
    resource: "notifications",
    type: "created" as const,
    ids: written.filter((w) => w.recipientUid === uid).map((w) => w.id),
    ownerUids: [uid],
    at,
  }));
}
