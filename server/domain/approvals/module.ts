import { getTableColumns } from "drizzle-orm";
import type { Approval } from "#resources/approvals";
import { accounts, approvals } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

export type ApprovalRow = typeof approvals.$inferSelect & { accountName: string; ownerUid: string | null };

const selection = { ...getTableColumns(approvals), accountName: accounts.name };

export const toApproval = (row: ApprovalRow): Approval => ({
  id: row.id,
  kind: row.kind,
  accountId: row.accountId,
  accountName: row.accountName,
  amount: { amount: row.amount, currency: row.currency },
  reason: row.reason,
  requestedBy: row.requestedBy,
  requestedByRole: row.requestedByRole,
  status: row.status,
  decidedBy: row.decidedBy,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decisionReason: row.decisionReason,
  ledgerEntryId: row.ledgerEntryId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * The two-person queue: admins read every request of their operator, agents only those they made
 * ("own" = requested by them). Requests are created by the account money actions
 * (server/domain/money/accountActions.ts), decided by approve and reject (./decide.ts).
 */
export const approvalsModule: DomainModule<ApprovalRow> = {
  source: tableSource({
    table: approvals,
    selection,
    account: approvals.accountId,
    owner: approvals.requestedBy,
    columns: {
      status: approvals.status,
      kind: approvals.kind,
      accountId: approvals.accountId,
      amount: approvals.amount,
      createdAt: approvals.createdAt,
    },
    toRecord: toApproval,
    // Live events reach staff of the operator; the holder hears about the money, not the request.
    ownerUids: () => [],
  }),
};
