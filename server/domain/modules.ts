import type { DeclaredResource } from "../lib/declaredResource";
import type { DomainModule } from "../engine/types";
import { accountsModule } from "./accounts/module";
import { auditEventsModule } from "./auditEvents/module";
import { staffReadsModule } from "./accessLog/module";
import { invoicesModule } from "./invoices/module";
import { ledgerEntriesModule } from "./ledgerEntries/module";
import { linesModule } from "./lines/module";
import { notificationsModule } from "./notifications/module";
import { ordersModule } from "./orders/module";
import { plansModule } from "./plans/module";
import { staffModule } from "./staff/module";
import { voucherBatchesModule } from "./voucherBatches/module";
import { usageRecordsModule } from "./usageRecords/module";
import { crmOutboxModule } from "./crmOutbox/module";
import { contactRequestLeads, deviceClaimLeads } from "./crm/leadSources";
import { subscribersModule } from "./subscribers/module";
import { ticketsModule } from "./tickets/module";
import { filesModule } from "./files/module";
import { privacyRequestsModule } from "./privacy/module";
import { addOnsModule } from "./addOns/module";
import { bulkJobsModule } from "./bulkJobs/module";
import { approvalsModule } from "./approvals/module";
import { topUpsModule } from "./topUps/module";
import { paymentMethodsModule } from "./paymentMethods/module";
import { interactionNotesModule } from "./interactionNotes/module";

/** The module of every resource declared with `store: "table"`, by resource name (start-up checks both lists agree). */
export const domainModules: Record<string, DomainModule> = {
  lines: linesModule,
  accounts: accountsModule,
  orders: ordersModule,
  plans: plansModule,
  notifications: notificationsModule,
  staff: staffModule,
  "audit-events": auditEventsModule,
  "staff-reads": staffReadsModule,
  "usage-records": usageRecordsModule,
  "ledger-entries": ledgerEntriesModule,
  "voucher-batches": voucherBatchesModule,
  invoices: invoicesModule,
  "crm-outbox": crmOutboxModule,
  subscribers: subscribersModule,
  tickets: ticketsModule,
  files: filesModule,
  "add-ons": addOnsModule,
  "bulk-jobs": bulkJobsModule,
  approvals: approvalsModule,
  "top-ups": topUpsModule,
  "payment-methods": paymentMethodsModule,
};

/**
 * Document resources served by the generic module plus domain effects, by resource name: their new
 * records also become CRM leads, in the same transaction (server/domain/crm).
 */
export const documentModuleFactories: Record<string, (resource: DeclaredResource) => DomainModule> = {
  "device-claims": deviceClaimLeads,
  "contact-requests": contactRequestLeads,
  "privacy-requests": privacyRequestsModule,
  "interaction-notes": interactionNotesModule,
};
