import type { ActionHandler } from "../engine/types";
import { issuePortOutPin, lockNumber, restoreLine, revealPuk, suspendLine, swapSim, unlockNumber } from "./lines/handlers";
import { markNotificationRead } from "./notifications/module";
import { cancelOrder } from "./orders/handlers";

/**
 * Every domain action, by the name declarations give in `actions.<name>.handler`. The route factory
 * runs one in the write's transaction, after access, state and re-authentication checks.
 */
export const handlers: Record<string, ActionHandler> = {
  "lines.suspend": suspendLine,
  "lines.restore": restoreLine,
  "lines.lockNumber": lockNumber,
  "lines.unlockNumber": unlockNumber,
  "lines.portOutPin": issuePortOutPin,
  "lines.revealPuk": revealPuk,
  "lines.swapSim": swapSim,
  "orders.cancel": cancelOrder,
  "notifications.markRead": markNotificationRead,
};
