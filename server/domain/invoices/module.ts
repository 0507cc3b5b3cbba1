import type { DomainModule } from "../../engine/types";
import { invoicePaymentRoutes } from "../invoicePayments/routes";
import { invoicePdfRoutes } from "./pdfRoute";
import { invoiceRecords, type InvoiceRow } from "./records";

export type { InvoiceRow } from "./records";

/** Postpaid bills: a subscriber's are those of the accounts they own; staff read all of their operator's. Written by the billing cycle (server/domain/money/billing.ts). */
export const invoicesModule: DomainModule<InvoiceRow> = {
  ...invoiceRecords,
  extraRoutes: (services) => async (app) => {
    await app.register(invoicePdfRoutes(services));
    await app.register(invoicePaymentRoutes(services));
  },
};
