/** Who the ledger, the audit and the top-up's `created_by` name for an auto top-up (settling tells an auto top-up by it). */
export const AUTO_TOP_UP_ACTOR = { uid: "system:auto-top-up", role: "system" } as const;
