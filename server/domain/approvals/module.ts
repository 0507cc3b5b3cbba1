import { and, count, eq, getTableColumns } from "drizzle-orm";
import type { Approval } from "#resources/approvals";
import type { Executor } from "../../audit";
import { accounts, approvals } from "../../db/schema";
import type { DomainModule } from "../../engine/types";

export type ApprovalRow = typeof approvals.$inferSelect & { accountName: string; ownerUid: string | null };

const selection = { ...getTableColumns(approvals), accountName: accounts.name, ownerUid: accounts.ownerUid };

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
  source: {
    rows: (db: Executor) =>
      db.select(selection).from(approvals).innerJoin(accounts, eq(accounts.id, approvals.accountId)).$dynamic(),
    count: (db: Executor) =>
      db
        .select({ total: count() })
        .from(approvals)
        .innerJoin(accounts, eq(accounts.id, approvals.accountId))
        .$dynamic(),
    id: approvals.id,
    table: approvals,
    columns: {
      status: approvals.status,
      kind: approvals.kind,
      accountId: approvals.accountId,
      amount: approvals.amount,
      createdAt: approvals.createdAt,
    },
    scope(principal, scope) {
      const sameOperator = eq(approvals.operatorCode, principal.operator);
      return scope === "all" ? sameOperator : and(sameOperator, eq(approvals.requestedBy, principal.uid))!;
    },
    toRecord: toApproval,
    // Live events reach staff of the operator; the holder hears about the money, not the request.
    ownerUids: () => [],
  },
};
