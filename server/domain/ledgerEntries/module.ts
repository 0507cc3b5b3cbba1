import { and, count, eq, getTableColumns } from "drizzle-orm";
import type { Executor } from "../../audit";
import { accounts, ledgerEntries } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { toLedgerEntry, type LedgerRow } from "../money/ledger";

type LedgerEntryRow = LedgerRow & { ownerUid: string | null };

const selection = { ...getTableColumns(ledgerEntries), ownerUid: accounts.ownerUid };

/** Accounts' ledgers, read-only: a subscriber's are those of the accounts they own; staff read all of their operator's. */
export const ledgerEntriesModule: DomainModule<LedgerEntryRow> = {
  source: {
    rows: (db: Executor) =>
      db.select(selection).from(ledgerEntries).innerJoin(accounts, eq(accounts.id, ledgerEntries.accountId)).$dynamic(),
    count: (db: Executor) =>
      db
        .select({ total: count() })
        .from(ledgerEntries)
        .innerJoin(accounts, eq(accounts.id, ledgerEntries.accountId))
        .$dynamic(),
    id: ledgerEntries.id,
    table: ledgerEntries,
    columns: { accountId: ledgerEntries.accountId, kind: ledgerEntries.kind, createdAt: ledgerEntries.createdAt },
    scope(principal, scope) {
      const sameOperator = eq(ledgerEntries.operatorCode, principal.operator);
      return scope === "all" ? sameOperator : and(sameOperator, eq(accounts.ownerUid, principal.uid))!;
    },
    toRecord: ({ ownerUid: _owner, ...row }) => toLedgerEntry(row),
    ownerUids: (row) => (row.ownerUid ? [row.ownerUid] : []),
  },
};
