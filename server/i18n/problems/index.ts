import { httpWords } from "./http";
import { plansWords } from "./plans";
import { addOnsWords } from "./addOns";
import { linesWords } from "./lines";
import { subscribersWords } from "./subscribers";
import { ordersWords } from "./orders";
import { voucherBatchesWords } from "./voucherBatches";
import { carePinWords } from "./carePin";
import { accessLogWords } from "./accessLog";
import { callerVerificationWords } from "./callerVerification";
import { filesWords } from "./files";
import { staffWords } from "./staff";
import { approvalsWords } from "./approvals";
import { ticketsWords } from "./tickets";
import { privacyWords } from "./privacy";
import { bulkJobsWords } from "./bulkJobs";
import { paymentsWords } from "./payments";
import { moneyWords } from "./money";
import { invoicesWords } from "./invoices";
import { topUpsWords } from "./topUps";
import { billingRunsWords } from "./billingRuns";
import { engineWords } from "./engine";
import { libWords } from "./lib";
import { routesWords } from "./routes";
import { authWords } from "./auth";
import { genericWords } from "./generic";
import { catalogWords } from "./catalog";
import { accountAlertsWords } from "./accountAlerts";
import { portingWords } from "./porting";
import { sharedPoolWords } from "./sharedPool";
import { accountMembersWords } from "./accountMembers";
import { numbersWords } from "./numbers";

/**
 * Every sentence the server writes to a client, by area (one file each, English and Spanish side by
 * side so neither can be forgotten). Keys are "area.what".
 */
export const problemWords = {
  ...httpWords,
  ...plansWords,
  ...addOnsWords,
  ...linesWords,
  ...numbersWords,
  ...subscribersWords,
  ...ordersWords,
  ...voucherBatchesWords,
  ...carePinWords,
  ...accessLogWords,
  ...callerVerificationWords,
  ...filesWords,
  ...staffWords,
  ...approvalsWords,
  ...ticketsWords,
  ...privacyWords,
  ...bulkJobsWords,
  ...paymentsWords,
  ...moneyWords,
  ...invoicesWords,
  ...topUpsWords,
  ...billingRunsWords,
  ...engineWords,
  ...libWords,
  ...routesWords,
  ...authWords,
  ...genericWords,
  ...portingWords,
  ...sharedPoolWords,
  ...accountMembersWords,
  ...catalogWords,
  ...accountAlertsWords,
};
