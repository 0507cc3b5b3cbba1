import { and, count, eq, ilike } from "drizzle-orm";
import type { Invoice } from "../../../src/resources/invoices";
import type { Executor } from "../../audit";
import { accounts, invoices } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { invoicePdfRoutes } from "./pdfRoute";
import { invoicePaymentRoutes } from "../invoicePayments/routes";

const selection = { invoice: invoices, accountName: accounts.name, ownerUid: accounts.ownerUid };

export type InvoiceRow = { invoice: typeof invoices.$inferSelect; accountName: string; ownerUid: string | null };

export function toInvoice({ invoice: row, accountName, ownerUid }: InvoiceRow): Invoice {
  const money = (amount: number) => ({ amount, currency: row.currency });
  return {
    id: row.id,
    accountId: row.accountId,
    accountName,
    ownerUid,
    number: row.number,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    items: row.items.map((item) => ({ description: item.description, amount: money(item.amount) })),
    subtotal: money(row.subtotalAmount),
    tax: money(row.taxAmount),
    taxRateBps: row.taxRateBps,
    total: money(row.totalAmount),
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
    rows: (db: Executor) => db.select(selection).from(invoices).innerJoin(accounts, eq(accounts.id, invoices.accountId)).$dynamic(),
    count: (db: Executor) => db.select({ total: count() }).from(invoices).innerJoin(accounts, eq(accounts.id, invoices.accountId)).$dynamic(),
    id: invoices.id,
    table: invoices,
    columns: { accountId: invoices.accountId, status: invoices.status, dueOn: invoices.dueOn, issuedAt: invoices.issuedAt, number: invoices.number },
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
