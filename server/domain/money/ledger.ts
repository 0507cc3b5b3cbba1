import { and, eq } from "drizzle-orm";
import type { Money } from "#resources/common";
import type { ResourceEvent } from "#resources/events";
import { signOf, type LedgerEntry, type LedgerKind } from "#resources/ledgerEntries";
import type { Executor } from "../../audit";
import { accounts, ledgerEntries, operators } from "../../db/schema";
import { notFound, ProblemError, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { queueAutoTopUpIfLow } from "../autoTopUps/queue";
import { renewAfterCredit } from "../renewals/renewAfterCredit";
import { liftCapsAfterCredit } from "../usage/liftCaps";

export interface NewLedgerEntry {
  operatorCode: string;
  accountId: string;
  kind: LedgerKind;
  /** Positive integer minor units; the kind gives the sign. */
  amount: number;
  currency: string;
  reason: string;
  actorUid: string | null;
  actorRole: string;
  /** The same key on the same account posts once: a repeat answers the first entry. */
  idempotencyKey?: string;
  reference?: { type: string; id: string };
}

export type LedgerRow = typeof ledgerEntries.$inferSelect;

/**
 * Where a posting sends the live events of what it moved besides the entry (lines renewed, caps
 * lifted by a credit): the engine's `ctx.effects.publish`, or a job's list sent after its commit.
 * Never sent before the commit: a receiver would read the old state.
 */
export type LedgerLive = (event: Pick<ResourceEvent, "resource" | "type" | "ids"> & { ownerUids?: string[] }) => void;

/** The problem type of a charge refused for want of balance (its body carries `shortfall`). */
export const INSUFFICIENT_BALANCE_TYPE = "/problems/insufficient-balance";

export function toLedgerEntry(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    accountId: row.accountId,
    kind: row.kind,
    amount: { amount: row.amount, currency: row.currency },
    balanceAfter: row.balanceAfter === null ? null : { amount: row.balanceAfter, currency: row.currency },
    reason: row.reason,
    actorRole: row.actorRole,
    referenceType: row.referenceType,
    referenceId: row.referenceId,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Posts one entry to an account's ledger inside the caller's transaction. The account row is locked
 * first, so entries of one account are serialised: the balance read, the shortfall check and the
 * idempotency check all see the latest state. The insert trigger moves the prepaid balance (the
 * database refuses a negative one too); a postpaid charge is stored unbilled until its cycle closes.
 */
export async function postLedgerEntry(
  tx: Executor,
  entry: NewLedgerEntry,
  live?: LedgerLive,
): Promise<{ entry: LedgerEntry; balance: Money | null }> {
  if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0) {
    throw unprocessable(words("money.amountNotWhole"), [
      { path: "amount", message: words("money.amountNotWholeField") },
    ]);
  }
  const [account] = await tx
    .select({ id: accounts.id, type: accounts.type, balance: accounts.balanceAmount, currency: operators.currency })
    .from(accounts)
    .innerJoin(operators, eq(operators.code, accounts.operatorCode))
    .where(and(eq(accounts.id, entry.accountId), eq(accounts.operatorCode, entry.operatorCode)))
    .for("update", { of: accounts });
  if (!account) throw notFound(words("money.noSuchAccount"));
  if (entry.currency !== account.currency) {
    throw unprocessable(words("money.keptIn", { currency: account.currency }), [
      { path: "currency", message: words("money.mustBeCurrency", { currency: account.currency }) },
    ]);
  }
  const prepaid = account.type === "prepaid";

  if (entry.idempotencyKey) {
    const [first] = await tx
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, entry.accountId), eq(ledgerEntries.idempotencyKey, entry.idempotencyKey)))
      .limit(1);
    if (first) {
      if (first.kind !== entry.kind || first.amount !== entry.amount || first.currency !== entry.currency) {
        throw unprocessable(words("money.entryKeyReused"), [
          { path: "idempotency-key", message: words("money.entryKeyReusedField") },
        ]);
      }
      return {
        entry: toLedgerEntry(first),
        balance: prepaid ? { amount: account.balance, currency: account.currency } : null,
      };
    }
  }

  const delta = signOf(entry.kind) * entry.amount;
  if (prepaid && account.balance + delta < 0) {
    const shortfall = { amount: -(account.balance + delta), currency: account.currency };
    const balance = { amount: account.balance, currency: account.currency };
    throw new ProblemError(
      422,
      words("money.shortfall", { balance, shortfall, amount: { amount: entry.amount, currency: entry.currency } }),
      [{ path: "amount", message: words("money.shortfallField", { shortfall }) }],
      INSUFFICIENT_BALANCE_TYPE,
      undefined,
      { shortfall, balance },
    );
  }

  const [row] = await tx
    .insert(ledgerEntries)
    .values({
      operatorCode: entry.operatorCode,
      accountId: entry.accountId,
      kind: entry.kind,
      amount: entry.amount,
      currency: entry.currency,
      reason: entry.reason,
      actorUid: entry.actorUid,
      actorRole: entry.actorRole,
      idempotencyKey: entry.idempotencyKey ?? null,
      referenceType: entry.reference?.type ?? null,
      referenceId: entry.reference?.id ?? null,
    })
    .returning();
  if (prepaid && delta < 0) {
    // A debit that leaves the balance below the account's auto top-up threshold queues one, here in its transaction.
    await queueAutoTopUpIfLow(tx, {
      operatorCode: entry.operatorCode,
      accountId: entry.accountId,
      currency: account.currency,
      balanceAfter: row!.balanceAfter!,
    });
  }
  if (prepaid && delta > 0) {
    // A credit first renews a waiting prepaid plan (a line in grace or suspended after it) when it covers it,
    // then lifts the caps the balance caused (after the renewal: what is left decides the next record).
    const renewed = await renewAfterCredit(tx, { operatorCode: entry.operatorCode, accountId: entry.accountId });
    const lifted = await liftCapsAfterCredit(tx, { operatorCode: entry.operatorCode, accountId: entry.accountId });
    // The meters of the lines it moved change with it: pages following them read them again, live.
    const moved = [...new Set([...renewed, ...lifted])];
    if (live && moved.length) {
      // The account's holder: the lines moved are all the account's.
      const [holder] = await tx
        .select({ uid: accounts.ownerUid })
        .from(accounts)
        .where(eq(accounts.id, entry.accountId));
      const ownerUids = holder?.uid ? [holder.uid] : [];
      live({ resource: "meters", type: "updated", ids: moved, ownerUids });
      if (renewed.length) live({ resource: "lines", type: "updated", ids: renewed, ownerUids });
    }
    if (renewed.length) {
      const [after] = await tx
        .select({ balance: accounts.balanceAmount })
        .from(accounts)
        .where(eq(accounts.id, entry.accountId));
      return { entry: toLedgerEntry(row!), balance: { amount: after!.balance, currency: row!.currency } };
    }
  }
  return {
    entry: toLedgerEntry(row!),
    balance: prepaid ? { amount: row!.balanceAfter!, currency: row!.currency } : null,
  };
}
