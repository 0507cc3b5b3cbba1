import { and, eq, inArray, or } from "drizzle-orm";
import type { Executor } from "../../audit";
import {
  accounts,
  auditEvents,
  invoices,
  ledgerEntries,
  lines,
  notificationPreferences,
  notifications,
  orders,
  paymentMethods,
  resourceDocuments,
  storedFiles,
  subscriberProfiles,
  ticketMessages,
  tickets,
  topUps,
  invoicePayments,
  usageRecords,
} from "../../db/schema";

export type Row = Record<string, unknown>;

/** Columns never handed out, even to their owner: secrets sealed or hashed at rest, internal storage paths. */
const WITHHELD = new Set(["pukCipher", "portOutPinHash", "storageKey", "idempotencyKey", "gatewayMethodId"]);
const shown = (row: Row): Row => Object.fromEntries(Object.entries(row).filter(([key]) => !WITHHELD.has(key)));

/**
 * Everything the portal holds about one person of one operator, table by table (documents by their
 * resource name): what the data export hands out and what an erasure goes through.
 */
export async function collectSubscriberData(
  db: Executor,
  operator: string,
  uid: string,
): Promise<Record<string, Row[]>> {
  const ownAccounts = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)));
  const accountIds = ownAccounts.map((a) => a.id);
  const byAccount = <T>(query: (ids: string[]) => Promise<T[]>) =>
    accountIds.length ? query(accountIds) : Promise.resolve([] as T[]);
  const ownLines = await byAccount((ids) => db.select().from(lines).where(inArray(lines.accountId, ids)));
  const lineIds = ownLines.map((l) => l.id);
  const ownTickets = await byAccount((ids) => db.select().from(tickets).where(inArray(tickets.accountId, ids)));
  const documents = await db
    .select()
    .from(resourceDocuments)
    .where(
      and(
        eq(resourceDocuments.operatorCode, operator),
        or(eq(resourceDocuments.ownerUid, uid), eq(resourceDocuments.createdBy, uid)),
      ),
    );

  const tables: Record<string, Row[]> = {
    profile: await db
      .select()
      .from(subscriberProfiles)
      .where(and(eq(subscriberProfiles.operatorCode, operator), eq(subscriberProfiles.uid, uid))),
    notification_preferences: await db
      .select()
      .from(notificationPreferences)
      .where(and(eq(notificationPreferences.operatorCode, operator), eq(notificationPreferences.uid, uid))),
    accounts: ownAccounts,
    lines: ownLines,
    orders: await byAccount((ids) => db.select().from(orders).where(inArray(orders.accountId, ids))),
    invoices: await byAccount((ids) => db.select().from(invoices).where(inArray(invoices.accountId, ids))),
    ledger_entries: await byAccount((ids) =>
      db.select().from(ledgerEntries).where(inArray(ledgerEntries.accountId, ids)),
    ),
    top_ups: await byAccount((ids) => db.select().from(topUps).where(inArray(topUps.accountId, ids))),
    invoice_payments: await byAccount((ids) =>
      db.select().from(invoicePayments).where(inArray(invoicePayments.accountId, ids)),
    ),
    payment_methods: await db
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.operatorCode, operator), eq(paymentMethods.ownerUid, uid))),
    usage_records: lineIds.length
      ? await db.select().from(usageRecords).where(inArray(usageRecords.lineId, lineIds))
      : [],
    tickets: ownTickets,
    ticket_messages: ownTickets.length
      ? await db
          .select()
          .from(ticketMessages)
          .where(
            inArray(
              ticketMessages.ticketId,
              ownTickets.map((t) => t.id),
            ),
          )
      : [],
    notifications: await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.operatorCode, operator), eq(notifications.recipientUid, uid))),
    files: await db
      .select()
      .from(storedFiles)
      .where(and(eq(storedFiles.operatorCode, operator), eq(storedFiles.ownerUid, uid))),
    audit_events: await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.operatorCode, operator), eq(auditEvents.actorUid, uid))),
  };
  // Declared resources kept as documents (device claims, contact requests, privacy requests): one table each.
  for (const document of documents) {
    const name = `documents_${document.resource.replaceAll("-", "_")}`;
    (tables[name] ??= []).push({
      id: document.id,
      ...document.data,
      createdAt: document.createdAt,
      updatedAt: document.updatedAt,
    });
  }
  return Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.map(shown)]));
}
