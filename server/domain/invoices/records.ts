import { ilike, sql } from "drizzle-orm";
import { INVOICE_ITEM_KINDS, type Invoice, type InvoiceItemKind } from "#resources/invoices";
import { accounts, invoicePayments, invoices } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

/** What payments still waiting for the gateway (a bank payment on its way) may pay of the bill. */
const pendingAmount = sql<number>`(select coalesce(sum(${invoicePayments.amount}), 0)::int from ${invoicePayments} where ${invoicePayments.invoiceId} = ${invoices.id} and ${invoicePayments.status} = 'created')`;
const selection = { invoice: invoices, accountName: accounts.name, pendingAmount };

export type InvoiceRow = {
  invoice: typeof invoices.$inferSelect;
  accountName: string;
  ownerUid: string | null;
  pendingAmount?: number;
};

/** A stored item's kind: bills issued before itemization (label "charge") read as other. */
const kindOf = (label: string): InvoiceItemKind =>
  (INVOICE_ITEM_KINDS as readonly string[]).includes(label) ? (label as InvoiceItemKind) : "other";

export function toInvoice({ invoice: row, accountName, ownerUid, pendingAmount: pending }: InvoiceRow): Invoice {
  const money = (amount: number) => ({ amount, currency: row.currency });
  return {
    id: row.id,
    accountId: row.accountId,
    accountName,
    ownerUid,
    number: row.number,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    items: row.items.map((item) => ({
      kind: kindOf(item.label),
      description: item.description,
      amount: money(item.amount),
      usageType: item.usageType ?? null,
      roamingZone: item.roamingZone ?? null,
    })),
    subtotal: money(row.subtotalAmount),
    tax: money(row.taxAmount),
    taxRateBps: row.taxRateBps,
    credit: money(row.creditAmount),
    total: money(row.totalAmount),
    amountPaid: money(row.paidAmount),
    amountDue: money(row.status === "issued" || row.status === "overdue" ? row.totalAmount - row.paidAmount : 0),
    amountPending: money(Number(pending ?? 0)),
    previousTotal: row.previousTotalAmount === null ? null : money(row.previousTotalAmount),
    status: row.status,
    issuedAt: row.issuedAt.toISOString(),
    dueOn: row.dueOn,
    paidAt: row.paidAt?.toISOString() ?? null,
    voidReason: row.voidReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * How invoices are read, without their routes: the routes (./pdfRoute.ts, ../invoicePayments/routes.ts)
 * find a bill through this, and ./module.ts adds them, so neither imports the other.
 */
export const invoiceRecords: DomainModule<InvoiceRow> = {
  source: tableSource({
    table: invoices,
    selection,
    account: invoices.accountId,
    columns: {
      accountId: invoices.accountId,
      status: invoices.status,
      dueOn: invoices.dueOn,
      issuedAt: invoices.issuedAt,
      number: invoices.number,
    },
    search: (q) => ilike(invoices.number, `%${escapeLike(q)}%`),
    toRecord: toInvoice,
  }),
};
