import type { ResourceDefinition } from "./define";
import { accountsResource } from "./accounts";
import { auditEventsResource } from "./auditEvents";
import { staffReadsResource } from "./staffReads";
import { deviceClaimsResource } from "./deviceClaims";
import { travelInsurance } from "./travelInsurance";
import { invoicesResource } from "./invoices";
import { ledgerEntriesResource } from "./ledgerEntries";
import { contactRequestsResource } from "./contactRequests";
import { crmOutboxResource } from "./crmOutbox";
import { linesResource } from "./lines";
import { notificationsResource } from "./notifications";
import { ordersResource } from "./orders";
import { plansResource } from "./plans";
import { addOnsResource } from "./addOns";
import { staffResource } from "./staff";
import { voucherBatchesResource } from "./voucherBatches";
import { usageRecordsResource } from "./usageRecords";
import { subscribersResource } from "./subscribers";
import { ticketsResource } from "./tickets";
import { filesResource } from "./files";
import { privacyRequestsResource } from "./privacyRequests";
import { bulkJobsResource } from "./bulkJobs";
import { approvalsResource } from "./approvals";
import { topUpsResource } from "./topUps";
import { paymentMethodsResource } from "./paymentMethods";
import { presenceResource } from "./presence";
import { interactionNotesResource } from "./interactionNotes";

/**
 * The registry: every resource of the product, in menu order, and the only list of them. The
 * backend serves each (server/engine), the portal derives its menus, routes and access from it,
 * and live updates follow it. Add a resource with one line here.
 */
export const resources = [
  subscribersResource,
  linesResource,
  accountsResource,
  ledgerEntriesResource,
  approvalsResource,
  topUpsResource,
  paymentMethodsResource,
  invoicesResource,
  ordersResource,
  usageRecordsResource,
  plansResource,
  addOnsResource,
  deviceClaimsResource,
  ...travelInsurance,
  contactRequestsResource,
  ticketsResource,
  notificationsResource,
  voucherBatchesResource,
  staffResource,
  auditEventsResource,
  staffReadsResource,
  crmOutboxResource,
  filesResource,
  privacyRequestsResource,
  bulkJobsResource,
  presenceResource,
  interactionNotesResource,
] as const satisfies readonly ResourceDefinition[];

export type ResourceName = (typeof resources)[number]["name"];

const byName = new Map<string, ResourceDefinition>(resources.map((r) => [r.name, r]));

export function findResource(name: string): ResourceDefinition | undefined {
  return byName.get(name);
}

/**
 * Live channels that are not lists of records: the operator's security policy is one setting that
 * staff follow (GET /security-policy allows the same roles).
 */
export const liveChannels: Record<string, Pick<ResourceDefinition, "access">> = {
  "security-policy": { access: { list: { agent: "all", admin: "all" } } },
  // A line's meters moved (ids: line ids); subscribers hear about their own lines (server/domain/usage/ingest.ts).
  meters: { access: { list: { subscriber: "own", agent: "all", admin: "all" } } },
};
