// Without zod or the engine: the light Money page on a phone reads these before the declarations load.

/** A bill's states (TMF678 CustomerBill): issued → paid / overdue → paid; void by an admin. */
export const INVOICE_STATUSES = ["issued", "paid", "overdue", "void"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Bills that still ask for money (paid and voided while in one of these): the account's amount due is their sum. */
export const OPEN_INVOICE_STATUSES = ["issued", "overdue"] as const satisfies readonly InvoiceStatus[];
