import type { DomainModule } from "../engine/types";
import { accountsModule } from "./accounts/module";
import { auditEventsModule } from "./auditEvents/module";
import { linesModule } from "./lines/module";
import { notificationsModule } from "./notifications/module";
import { ordersModule } from "./orders/module";
import { plansModule } from "./plans/module";
import { staffModule } from "./staff/module";

/** The module of every resource declared with `store: "table"`, by resource name (start-up checks both lists agree). */
export const domainModules: Record<string, DomainModule> = {
  lines: linesModule,
  accounts: accountsModule,
  orders: ordersModule,
  plans: plansModule,
  notifications: notificationsModule,
  staff: staffModule,
  "audit-events": auditEventsModule,
};
