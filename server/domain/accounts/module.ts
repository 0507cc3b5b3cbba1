import { eq, ilike, or, sql } from "drizzle-orm";
import type { Account } from "#resources/accounts";
import { accounts, autoTopUpSettings, operators } from "../../db/schema";
import { amountDueSql } from "../money/accountMoney";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { heldBy, tableSource } from "../tableSource";
import { accountMemberRoutes } from "../accountMembers/routes";

const selection = {
  id: accounts.id,
  ownerUid: accounts.ownerUid,
  name: accounts.name,
  email: accounts.email,
  phone: accounts.phone,
  type: accounts.type,
  status: accounts.status,
  lineCount: sql<number>`(select count(*)::int from lines where lines.account_id = ${accounts.id} and lines.status <> 'terminated')`,
  balanceAmount: accounts.balanceAmount,
  currency: operators.currency,
  amountDue: amountDueSql(accounts.id),
  autoTopUpEnabled: autoTopUpSettings.enabled,
  autoTopUpThreshold: autoTopUpSettings.thresholdAmount,
  autoTopUpAmount: autoTopUpSettings.amount,
  autoTopUpMaxPerMonth: autoTopUpSettings.maxPerMonth,
  autopayPaymentMethodId: accounts.autopayPaymentMethodId,
  createdAt: accounts.createdAt,
  updatedAt: accounts.updatedAt,
};

type AccountRow = Omit<Account, "createdAt" | "updatedAt" | "balance" | "amountDue" | "autoTopUp"> & {
  autoTopUpEnabled: boolean | null;
  autoTopUpThreshold: number | null;
  autoTopUpAmount: number | null;
  autoTopUpMaxPerMonth: number | null;
  ownerUid: string | null;
  balanceAmount: number;
  currency: string;
  amountDue: number;
  createdAt: Date;
  updatedAt: Date;
};

/** Customer accounts: a subscriber's are those they own. */
export const accountsModule: DomainModule<AccountRow> = {
  source: tableSource({
    table: accounts,
    selection,
    rowJoins: (query) =>
      query
        .innerJoin(operators, eq(operators.code, accounts.operatorCode))
        .leftJoin(autoTopUpSettings, eq(autoTopUpSettings.accountId, accounts.id)),
    owner: accounts.ownerUid,
    columns: { name: accounts.name, createdAt: accounts.createdAt, status: accounts.status, type: accounts.type },
    search: (q) => or(ilike(accounts.name, `%${escapeLike(q)}%`), ilike(accounts.email, `%${escapeLike(q)}%`)),
    // Prepaid accounts show their balance, postpaid ones what their open bills add up to (server/domain/money).
    toRecord: ({
      balanceAmount,
      currency,
      amountDue,
      autoTopUpEnabled,
      autoTopUpThreshold,
      autoTopUpAmount,
      autoTopUpMaxPerMonth,
      ...row
    }) => ({
      ...row,
      autoTopUp:
        autoTopUpEnabled === null
          ? null
          : {
              enabled: autoTopUpEnabled,
              threshold: { amount: autoTopUpThreshold!, currency },
              amount: { amount: autoTopUpAmount!, currency },
              maxPerMonth: autoTopUpMaxPerMonth!,
            },
      balance: row.type === "prepaid" ? { amount: balanceAmount, currency } : null,
      amountDue: row.type === "postpaid" ? { amount: Number(amountDue), currency } : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
    ownerUids: heldBy,
  }),
  // The people on the account (issue 28): invite-member and remove-member answer the shapes, not the account.
  extraRoutes: accountMemberRoutes,
};
