import { z } from "zod";
import { isoDate } from "./common";

// POST /api/v1/billing-runs (issue 24 item 7): an admin runs the carrier's daily job as of a day.
// Pure data + zod, shared by the backend (validation, OpenAPI) and tests.

export const billingRunInputSchema = z.object({ asOf: isoDate }).strict();
export type BillingRunInput = z.output<typeof billingRunInputSchema>;

/** What the run changed, each counter only what this call did: a second run for the same day answers zeros. */
export const billingRunResultSchema = z.object({
  /** Prepaid plans renewed from the balance. */
  renewed: z.number().int().nonnegative(),
  /** Prepaid lines whose balance was short of their renewal: now in grace. */
  enteredGrace: z.number().int().nonnegative(),
  /** Prepaid lines whose grace ended unpaid: now suspended (non_payment). */
  suspended: z.number().int().nonnegative(),
  /** Postpaid bills issued by the cycle close. */
  billsIssued: z.number().int().nonnegative(),
  /** Bills past their due date, now overdue. */
  overdue: z.number().int().nonnegative(),
});
export type BillingRunResult = z.output<typeof billingRunResultSchema>;

/** How far from today a run may be asked for: a year either way (the bills and renewals of a real calendar). */
export const BILLING_RUN_MAX_DAYS = 366;
