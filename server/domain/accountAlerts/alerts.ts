import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { ALERT_LINK_DAYS, thisWasntMeLink, type AccountChange } from "#resources/accountAlerts";
import type { Executor } from "../../audit";
import {
  accountAlertLinks,
  accounts,
  lines,
  notifications,
  operators,
  outboxMessages,
  subscriberProfiles,
} from "../../db/schema";
import { savedLocalesOf } from "../outbox/recipientLocale";

/** An account change to alert about (issue 27). */
export interface AccountAlert {
  operator: string;
  /** The account holder (the person whose sign-in or lines changed). */
  uid: string;
  change: AccountChange;
  /**
   * The contact points as they were BEFORE the change, when the change itself altered them (an email
   * or phone change, told by the identity events): they are alerted besides the ones stored now.
   */
  contacts?: { email?: string | null; phone?: string | null };
  /** The line the change was made to (SIM swap, eSIM transfer, port-out PIN, number lock). */
  lineId?: string | null;
  // The request that made the change, when one did (identity changes are seen on a later request).
  requestId: string | null;
}

/** What an alert wrote: the inbox notice (for its live event), the link's row, and where it went. */
export interface AlertSent {
  notificationId: string;
  linkId: string;
  emails: string[];
  phones: string[];
}

export const ALERT_LINK_MS = ALERT_LINK_DAYS * 24 * 60 * 60 * 1000;

/** A link's token is stored only as its SHA-256 (hex): 32 random bytes need no salt nor a slow hash. */
export const alertTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

const emailKey = (email: string) => email.trim().toLowerCase();
const phoneKey = (phone: string) => phone.replace(/[^0-9]/g, "");

/**
 * Every contact point the holder has now, for an operator: the email and phone of each account they
 * hold, the contact email and phone of their profile, and the number of each of their active lines
 * (the SMS to a line whose SIM was just swapped reaches the new SIM: the other contact points are
 * what reaches the real holder). Each once (emails case-insensitively, numbers by their digits).
 */
export async function contactPointsOf(
  tx: Executor,
  operator: string,
  uid: string,
  before: AccountAlert["contacts"] = {},
): Promise<{ emails: string[]; phones: string[] }> {
  const held = await tx
    .select({ id: accounts.id, email: accounts.email, phone: accounts.phone })
    .from(accounts)
    .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)))
    .orderBy(accounts.createdAt, accounts.id);
  const activeLines = held.length
    ? await tx
        .select({ msisdn: lines.msisdn })
        .from(lines)
        .where(
          and(
            inArray(
              lines.accountId,
              held.map((a) => a.id),
            ),
            eq(lines.status, "active"),
          ),
        )
        .orderBy(lines.msisdn)
    : [];
  const [profile] = await tx
    .select({ details: subscriberProfiles.details })
    .from(subscriberProfiles)
    .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid)));
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

  const emails = new Map<string, string>();
  for (const email of [before.email, ...held.map((a) => a.email), profile?.details?.contactEmail].map(text))
    if (email && !emails.has(emailKey(email))) emails.set(emailKey(email), email);
  const phones = new Map<string, string>();
  for (const phone of [
    before.phone,
    ...held.map((a) => a.phone),
    profile?.details?.contactPhone,
    ...activeLines.map((l) => l.msisdn),
  ].map(text))
    if (phone && phoneKey(phone) && !phones.has(phoneKey(phone))) phones.set(phoneKey(phone), phone);
  return { emails: [...emails.values()], phones: [...phones.values()] };
}

/**
 * Alerts the holder of an account change, in the caller's transaction: a "This wasn't me" link
 * (one use, valid ALERT_LINK_DAYS days, only its hash kept), an inbox notice, and an email and an
 * SMS through the outbox to every contact point the account had before the change, worded in the
 * holder's saved language. The messages carry the link (`/this-wasnt-me#<token>` after the operator's
 * `portalUrl` setting, a path alone while none is set): they are the only place the token exists.
 */
export async function alertAccountChange(tx: Executor, alert: AccountAlert): Promise<AlertSent> {
  const { operator, uid, change } = alert;
  const token = randomBytes(32).toString("base64url");
  const link = thisWasntMeLink(token);
  const [row] = await tx
    .insert(accountAlertLinks)
    .values({
      operatorCode: operator,
      uid,
      change,
      lineId: alert.lineId ?? null,
      tokenHash: alertTokenHash(token),
      expiresAt: new Date(Date.now() + ALERT_LINK_MS),
    })
    .returning({ id: accountAlertLinks.id });

  let msisdn: string | null = null;
  if (alert.lineId) {
    const [line] = await tx.select({ msisdn: lines.msisdn }).from(lines).where(eq(lines.id, alert.lineId));
    msisdn = line?.msisdn ?? null;
  }
  const params = { change, msisdn, link, days: ALERT_LINK_DAYS };
  const [notice] = await tx
    .insert(notifications)
    .values({ operatorCode: operator, recipientUid: uid, kind: "account.alert", params, link })
    .returning({ id: notifications.id });
  // An email or SMS needs the portal's address before the path: the operator's `portalUrl` setting.
  const [settings] = await tx
    .select({ settings: operators.settings })
    .from(operators)
    .where(eq(operators.code, operator));
  const setting = settings?.settings.portalUrl;
  const portalUrl = typeof setting === "string" ? setting.replace(/\/+$/, "") : "";
  const sentParams = { ...params, link: `${portalUrl}${link}` };

  const { emails, phones } = await contactPointsOf(tx, operator, uid, alert.contacts);
  const locale = (await savedLocalesOf(tx, operator, [uid])).get(uid) ?? "en";
  const outgoing = [
    ...emails.map((recipient) => ({ channel: "email" as const, recipient })),
    ...phones.map((recipient) => ({ channel: "sms" as const, recipient })),
  ];
  if (outgoing.length)
    await tx
      .insert(outboxMessages)
      .values(
        outgoing.map((m) => ({ ...m, operatorCode: operator, kind: "account.alert", params: sentParams, locale })),
      );
  return { notificationId: notice!.id, linkId: row!.id, emails, phones };
}
