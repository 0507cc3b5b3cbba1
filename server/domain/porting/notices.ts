import type { NotificationKind } from "#resources/notifications";
import type { ResourceEvent } from "#resources/events";
import type { Executor } from "../../audit";
import { notifications, outboxMessages } from "../../db/schema";
import { savedLocalesOf } from "../outbox/recipientLocale";

type Params = Record<string, string | number | boolean | null>;

/** The inbox notice of a port-in's step to the account holder, with the live event to send after the commit. */
export async function portInNotice(
  tx: Executor,
  operator: string,
  recipientUid: string,
  kind: NotificationKind,
  params: Params,
  orderId: string,
): Promise<ResourceEvent> {
  const [row] = await tx
    .insert(notifications)
    .values({ operatorCode: operator, recipientUid, kind, params, link: `/orders/show/${orderId}` })
    .returning({ id: notifications.id });
  return {
    operator,
    resource: "notifications",
    type: "created",
    ids: [row!.id],
    ownerUids: [recipientUid],
    at: new Date().toISOString(),
  };
}

/**
 * The exchange's answer also goes out by email (the account's address) and, once the number is
 * ours, by SMS to it, worded in the holder's saved language (server/domain/outbox/messageText.ts).
 */
export async function portInMessages(
  tx: Executor,
  operator: string,
  holder: { uid: string | null; email: string | null },
  kind: "port_in.accepted" | "port_in.rejected",
  params: Params,
  smsTo: string | null,
): Promise<void> {
  const locale = holder.uid ? ((await savedLocalesOf(tx, operator, [holder.uid])).get(holder.uid) ?? "en") : "en";
  const outgoing = [
    ...(holder.email ? [{ channel: "email" as const, recipient: holder.email }] : []),
    ...(smsTo ? [{ channel: "sms" as const, recipient: smsTo }] : []),
  ];
  if (outgoing.length)
    await tx
      .insert(outboxMessages)
      .values(outgoing.map((m) => ({ ...m, operatorCode: operator, kind, params, locale })));
}
