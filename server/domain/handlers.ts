import type { ActionHandler } from "../engine/types";
import { cancelBulkJob } from "./bulkJobs/module";
import { approveRequest, rejectRequest } from "./approvals/decide";
import { confirmStaffMember } from "./staff/confirm";
import { approveTopUpRefund, cancelTopUp, claimTopUpRefund } from "./topUps/handlers";
import { setDefaultPaymentMethod } from "./paymentMethods/module";
import {
  issuePortOutPin,
  lockNumber,
  orderSim,
  restoreLine,
  revealPuk,
  suspendLine,
  swapSim,
  unlockNumber,
} from "./lines/handlers";
import { activateSim, addLine, cancelLine, changeNumber, keepLine } from "./lines/lifecycle";
import { adjustAccount, chargeAccount, refundAccount } from "./money/accountActions";
import { redeemVoucher } from "./money/vouchers";
import { setAutoTopUp } from "./autoTopUps/settings";
import { voidInvoice } from "./money/billing";
import { setAutopay } from "./invoicePayments/autopay";
import { markNotificationRead } from "./notifications/module";
import { cancelOrder } from "./orders/handlers";
import { resubmitPortIn } from "./porting/resubmit";
import { changePlan } from "./plans/changePlan";
import { activatePlan, changePlanPrice, retirePlan } from "./plans/priceChange";
import { activateAddOn, retireAddOn } from "./addOns/module";
import { buyAddOn, stopAddOnRenewal } from "./addOns/purchases";
import { setOverage } from "./usage/setOverage";
import { setCap } from "./usage/setCap";
import { retryCrmLead } from "./crmOutbox/module";
import { completePrivacyRequest } from "./privacy/module";
import { verifyCaller } from "./callerVerification/verifyCaller";
import {
  cancelTicket,
  closeTicket,
  pendTicket,
  prioritizeTicket,
  replyToTicket,
  resolveTicket,
  takeTicket,
} from "./tickets/handlers";

/**
 * Every domain action, by the name declarations give in `actions.<name>.handler`. The route factory
 * runs one in the write's transaction, after access, state and re-authentication checks.
 */
export const handlers: Record<string, ActionHandler> = {
  "subscribers.verifyCaller": verifyCaller,
  "lines.suspend": suspendLine,
  "lines.restore": restoreLine,
  "lines.lockNumber": lockNumber,
  "lines.unlockNumber": unlockNumber,
  "lines.portOutPin": issuePortOutPin,
  "lines.revealPuk": revealPuk,
  "lines.swapSim": swapSim,
  "lines.orderSim": orderSim,
  "accounts.addLine": addLine,
  "lines.activateSim": activateSim,
  "lines.changeNumber": changeNumber,
  "lines.cancel": cancelLine,
  "lines.keepLine": keepLine,
  "orders.cancel": cancelOrder,
  "orders.resubmitPortIn": resubmitPortIn,
  "lines.changePlan": changePlan,
  "notifications.markRead": markNotificationRead,
  "accounts.adjust": adjustAccount,
  "accounts.charge": chargeAccount,
  "accounts.refund": refundAccount,
  "accounts.redeemVoucher": redeemVoucher,
  "accounts.setAutoTopUp": setAutoTopUp,
  "invoices.void": voidInvoice,
  "accounts.setAutopay": setAutopay,
  "crmOutbox.retry": retryCrmLead,
  "tickets.reply": replyToTicket,
  "tickets.take": takeTicket,
  "tickets.pend": pendTicket,
  "tickets.resolve": resolveTicket,
  "tickets.close": closeTicket,
  "tickets.cancel": cancelTicket,
  "tickets.prioritize": prioritizeTicket,
  "privacyRequests.complete": completePrivacyRequest,
  "addOns.activate": activateAddOn,
  "addOns.retire": retireAddOn,
  "lines.buyAddOn": buyAddOn,
  "lines.stopAddOnRenewal": stopAddOnRenewal,
  "lines.setOverage": setOverage,
  "lines.setCap": setCap,
  "bulkJobs.cancel": cancelBulkJob,
  "approvals.approve": approveRequest,
  "approvals.reject": rejectRequest,
  "staff.confirm": confirmStaffMember,
  "plans.activate": activatePlan,
  "plans.retire": retirePlan,
  "plans.changePrice": changePlanPrice,
  "topUps.cancel": cancelTopUp,
  "topUps.claimRefund": claimTopUpRefund,
  "topUps.approveRefund": approveTopUpRefund,
  "paymentMethods.setDefault": setDefaultPaymentMethod,
};
