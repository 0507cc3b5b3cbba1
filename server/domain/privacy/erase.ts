import { and, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import {
  accounts,
  carePins,
  crmOutbox,
  lines,
  notificationPreferences,
  notifications,
  paymentMethods,
  resourceDocuments,
  storedFiles,
  subscriberProfiles,
  ticketMessages,
  tickets,
} from "../../db/schema";

export const ERASED_MARK = "[erased at the subscriber's request]";

/** What an erasure did: the kinds of data deleted (for the request's record) and the file keys to remove from storage. */
export interface Erasure {
  erased: string[];
  storageKeys: string[];
}

/**
 * Closes a person's accounts and deletes what the portal holds about them, in the caller's
 * transaction. Kept (RETAINED_BY_LAW): invoices, ledger entries, card top-ups, usage records and the audit trail,
 * plus the account's name and the lines' numbers that those refer to. Contact details, profile,
 * preferences, notifications, saved cards, files, documents and their message texts go.
 */
export async function eraseSubscriber(tx: Executor, operator: string, uid: string): Promise<Erasure> {
  const erased: string[] = [];
  const ownAccounts = await tx
    .update(accounts)
    .set({ status: "closed", email: null, phone: null, address: null, updatedAt: new Date() })
    .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)))
    .returning({ id: accounts.id });
  const accountIds = ownAccounts.map((a) => a.id);
  if (accountIds.length) {
    erased.push("accounts: closed; email, phone and address deleted");
    await tx
      .update(lines)
      .set({
        status: "terminated",
        suspendReason: null,
        pukCipher: null,
        portOutPinHash: null,
        portOutPinExpiresAt: null,
        updatedAt: new Date(),
      })
      .where(inArray(lines.accountId, accountIds));
    erased.push("lines: terminated; PUK and port-out PIN deleted");
    const ownTickets = await tx
      .update(tickets)
      .set({ subject: ERASED_MARK, updatedAt: new Date() })
      .where(and(inArray(tickets.accountId, accountIds), eq(tickets.createdBy, uid)))
      .returning({ id: tickets.id });
    const allTickets = await tx.select({ id: tickets.id }).from(tickets).where(inArray(tickets.accountId, accountIds));
    if (allTickets.length) {
      await tx
        .update(ticketMessages)
        .set({ body: ERASED_MARK })
        .where(
          and(
            inArray(
              ticketMessages.ticketId,
              allTickets.map((t) => t.id),
            ),
            eq(ticketMessages.authorUid, uid),
          ),
        );
    }
    if (ownTickets.length || allTickets.length) erased.push("tickets: subjects and your messages deleted");
  }

  await tx
    .delete(subscriberProfiles)
    .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid)));
  erased.push("profile: name, contact details, address, language and consent deleted");
  const pins = await tx
    .delete(carePins)
    .where(and(eq(carePins.operatorCode, operator), eq(carePins.uid, uid)))
    .returning({ uid: carePins.uid });
  if (pins.length) erased.push("care PIN deleted");
  await tx
    .delete(notificationPreferences)
    .where(and(eq(notificationPreferences.operatorCode, operator), eq(notificationPreferences.uid, uid)));
  await tx
    .delete(notifications)
    .where(and(eq(notifications.operatorCode, operator), eq(notifications.recipientUid, uid)));
  erased.push("notifications and notification preferences deleted");
  const cards = await tx
    .delete(paymentMethods)
    .where(and(eq(paymentMethods.operatorCode, operator), eq(paymentMethods.ownerUid, uid)))
    .returning({ id: paymentMethods.id });
  if (cards.length) erased.push(`payment methods: ${cards.length} saved card(s) deleted`);

  const files = await tx
    .delete(storedFiles)
    .where(and(eq(storedFiles.operatorCode, operator), eq(storedFiles.ownerUid, uid)))
    .returning({ storageKey: storedFiles.storageKey });
  erased.push(`files: ${files.length} uploaded file(s) deleted`);

  // Device claims, contact requests...: gone, and the CRM leads made from them too (a lead not yet sent never leaves).
  const documents = await tx
    .delete(resourceDocuments)
    .where(
      and(
        eq(resourceDocuments.operatorCode, operator),
        ne(resourceDocuments.resource, "privacy-requests"),
        or(eq(resourceDocuments.ownerUid, uid), eq(resourceDocuments.createdBy, uid)),
      ),
    )
    .returning({ id: resourceDocuments.id });
  if (documents.length) {
    await tx
      .update(crmOutbox)
      .set({
        fields: { erased: true },
        status: sql`case when ${crmOutbox.status} = 'pending' then 'dead' else ${crmOutbox.status} end`,
        lastError: sql`case when ${crmOutbox.status} = 'pending' then 'erased at the subscriber''s request before delivery' else ${crmOutbox.lastError} end`,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(crmOutbox.operatorCode, operator),
          inArray(
            crmOutbox.sourceId,
            documents.map((d) => d.id),
          ),
        ),
      );
  }
  erased.push(`requests and claims: ${documents.length} deleted, with the CRM leads made from them`);
  return { erased, storageKeys: files.map((f) => f.storageKey) };
}
