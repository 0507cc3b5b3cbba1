import { ledgerEntries } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { toLedgerEntry, type LedgerRow } from "../money/ledger";
import { tableSource, withoutOwner } from "../tableSource";

type LedgerEntryRow = LedgerRow & { ownerUid: string | null };

/** Accounts' ledgers, read-only: a subscriber's are those of the accounts they own; staff read all of their operator's. */
export const ledgerEntriesModule: DomainModule<LedgerEntryRow> = {
  source: tableSource({
    table: ledgerEntries,
    account: ledgerEntries.accountId,
    columns: { accountId: ledgerEntries.accountId, kind: ledgerEntries.kind, createdAt: ledgerEntries.createdAt },
    toRecord: (row) => toLedgerEntry(withoutOwner(row)),
  }),
};
