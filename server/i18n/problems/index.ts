import { httpWords } from "./http";
import { paymentsWords } from "./payments";
import { moneyWords } from "./money";
import { invoicesWords } from "./invoices";
import { topUpsWords } from "./topUps";
import { billingRunsWords } from "./billingRuns";

/**
 * Every sentence the server writes to a client, by area (one file each, English and Spanish side by
 * side so neither can be forgotten). Keys are "area.what".
 */
export const problemWords = {
  ...httpWords,
  ...paymentsWords,
  ...moneyWords,
  ...invoicesWords,
  ...topUpsWords,
  ...billingRunsWords,
};
