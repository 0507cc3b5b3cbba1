import { AuditSection } from "./AuditSection";
import { ClaimsSection } from "./ClaimsSection";
import { FamilySection } from "./FamilySection";
import { MoneySection } from "./MoneySection";
import { UsageSection } from "./UsageSection";
import { IdentitySection } from "./IdentitySection";
import { LinesSection } from "./LinesSection";
import { NotificationsSection } from "./NotificationsSection";
import { OrdersSection } from "./OrdersSection";
import { TicketsSection } from "./TicketsSection";
import type { SubscriberSection } from "./types";
import { auditEventsResource } from "../../../resources/auditEvents";

/**
 * The sections of the subscriber 360, in page order. Each loads its own data the first time it is
 * opened, as a PagedSection (identity is one record, not a page). A new one is one component in
 * this folder and one line here.
 */
export const subscriberSections: SubscriberSection[] = [
  { key: "lines", title: "care.sections.lines", Component: LinesSection, open: true },
  { key: "tickets", title: "care.sections.tickets", Component: TicketsSection, open: true },
  // The holder, the people on the account, its lines and shared data (issue 28).
  { key: "family", title: "care.sections.family", Component: FamilySection },
  { key: "money", title: "care.sections.money", Component: MoneySection },
  { key: "usage", title: "care.sections.usage", Component: UsageSection },
  { key: "orders", title: "care.sections.orders", Component: OrdersSection },
  { key: "claims", title: "care.sections.claims", Component: ClaimsSection },
  { key: "notifications", title: "care.sections.notifications", Component: NotificationsSection },
  { key: "identity", title: "care.sections.identity", Component: IdentitySection },
  { key: "audit", title: "care.sections.audit", Component: AuditSection, resource: auditEventsResource },
];
