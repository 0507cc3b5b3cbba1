import type { DeclaredResource } from "./declaredResource";
import type { ComponentType } from "react";
import type { ResourceName } from "../resources";
import type { View } from "../resources/define";

/** A page of a resource: the generic one, or its own from the map below. */
export type ViewComponent = ComponentType<{ resource: DeclaredResource }>;

/** Loads a resource's own page (default export: a component taking `{resource}`) on demand. */
export type ViewLoader = () => Promise<{ default: ViewComponent }>;

export type ResourceViews = Partial<Record<ResourceName, Partial<Record<View, ViewLoader>>>>;

/**
 * The pages that replace a generic view of a resource, keyed by the resource's name. They live here,
 * beside the pages, so the declarations in src/resources stay data the server imports without React.
 * A `create` or `edit` page may stand without a declared `form` when the resource's module serves its
 * own write route (tests/unit/resourceViews.test.ts checks it does).
 */
export const resourceViews: ResourceViews = {
  subscribers: {
    list: () => import("./care/SubscriberSearchPage"),
    show: () => import("./care/Subscriber360Page"),
  },
  // The line page adds the line's add-ons (active ones, passes to buy) under the generic record view;
  // the list lets staff select rows for a bulk suspend or restore (bulk-jobs); subscribers get the plain list.
  lines: { show: () => import("./lines/LineShowPage"), list: () => import("./care/LinesListPage") },
  approvals: { list: () => import("./money/ApprovalsPage") },
  // The subscriber's bill page (what it is made of, Pay); staff keep the generic record page.
  invoices: { show: () => import("./money/InvoiceShowPage") },
  // Subscribers get a page in words with the order's timeline; staff the generic record page.
  orders: { show: () => import("./orders/OrderShowPage") },
  "usage-records": { list: () => import("./usage/UsageRecordsPage") },
  tickets: {
    list: () => import("./care/TicketsPage"),
    show: () => import("./care/TicketPage"),
  },
  notifications: { list: () => import("./notifications/NotificationsPage") },
  // No generic form: the codes are answered once, so the create page shows them (and saves them as CSV) itself.
  "voucher-batches": { create: () => import("./money/VoucherBatchCreatePage") },
  staff: { list: () => import("./staff/StaffPage") },
  "audit-events": { list: () => import("./care/AuditViewerPage") },
  "bulk-jobs": { show: () => import("./care/BulkJobPage") },
};

/** The resource's own page for one view, if it has one. */
export function viewLoaderOf(resource: Pick<DeclaredResource, "name">, view: View): ViewLoader | undefined {
  return resourceViews[resource.name]?.[view];
}

/**
 * Whether the portal has a create or edit page for the resource: its declared form, or its own page
 * for one the generic form cannot express (vouchers' codes, shown once after creating).
 */
export function hasPage(resource: DeclaredResource, view: "create" | "edit"): boolean {
  return Boolean(resource.form?.[view].length || viewLoaderOf(resource, view));
}
