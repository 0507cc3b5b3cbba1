// Without zod or the engine: the light Money page on a phone reads these before the declarations load.

/** What moved money on an account. The kind gives the sign: credits add to a prepaid balance, debits take from it. */
/** `usage` is rated usage taken from a prepaid balance; `renewal` a prepaid plan renewed from it (migration 0022). */
export const LEDGER_KINDS = [
  "top_up",
  "charge",
  "adjustment",
  "refund",
  "reversal",
  "payment",
  "usage",
  "renewal",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** A `reversal` undoes a top-up that failed on our side after the gateway took the card's money: it credits what was captured (migration 0020). */
export const CREDIT_KINDS = [
  "top_up",
  "adjustment",
  "refund",
  "reversal",
  "payment",
] as const satisfies readonly LedgerKind[];
export const DEBIT_KINDS = ["charge", "usage", "renewal"] as const satisfies readonly LedgerKind[];

/** +1 for a credit, -1 for a debit. */
export const signOf = (kind: LedgerKind) => ((DEBIT_KINDS as readonly string[]).includes(kind) ? -1 : 1);
