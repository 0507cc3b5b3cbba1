import { and, count, eq, ilike, sql } from "drizzle-orm";
import { INVOICE_ITEM_KINDS, type Invoice, type InvoiceItemKind } from "#resources/invoices";
import type { Executor } from "../../audit";
import { accounts, invoicePayments, invoices } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { invoicePdfRoutes } from "./pdfRoute";
import { invoicePaymentRoutes } from "../invoicePayments/routes";

/** What payments still waiting for the gateway (a bank payment on its way) may pay of the bill. */
const pendingAmount = sql<number>`(select coalesce(sum(${invoicePayments.amount}), 0)::int from ${invoicePayments} where ${invoicePayments.invoiceId} = ${invoices.id} and ${invoicePayments.status} = 'created')`;
const selection = { invoice: invoices, accountName: accounts.name, ownerUid: accounts.ownerUid, pendingAmount };

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

/** Postpaid bills: a subscriber's are those of the accounts they own; staff read all of their operator's. Written by the billing cycle (server/domain/money/billing.ts). */
export const invoicesModule: DomainModule<InvoiceRow> = {
  source: {
    rows: (db: Executor) =>
      db.select(selection).from(invoices).innerJoin(accounts, eq(accounts.id, invoices.accountId)).$dynamic(),
    count: (db: Executor) =>
      db.select({ total: count() }).from(invoices).innerJoin(accounts, eq(accounts.id, invoices.accountId)).$dynamic(),
    id: invoices.id,
    table: invoices,
    columns: {
      accountId: invoices.accountId,
      status: invoices.status,
      dueOn: invoices.dueOn,
      issuedAt: invoices.issuedAt,
      number: invoices.number,
    },
    scope(principal, scope) {
      const sameOperator = eq(invoices.operatorCode, principal.operator);
      return scope === "all" ? sameOperator : and(sameOperator, eq(accounts.ownerUid, principal.uid))!;
    },
    search: (q) => ilike(invoices.number, `%${escapeLike(q)}%`),
    toRecord: toInvoice,
    ownerUids: (row) => (row.ownerUid ? [row.ownerUid] : []),
  },
  extraRoutes: (services) => async (app) => {
    await app.register(invoicePdfRoutes(services));
    await app.register(invoicePaymentRoutes(services));
  },
};
