import type { Executor } from "../../audit";
import { balanceOf, cycleToRenewOnCredit, lockRenewalLines } from "./renew";
import { RenewalWork } from "./renewalWork";

/**
 * Called by postLedgerEntry right after a credit on a prepaid account, in the credit's transaction and
 * under its lock of the account row: each line of the account in `grace`, or suspended for
 * non_payment after its grace, whose renewal the balance now covers is renewed at once (a `renewal`
 * entry, keyed per line and cycle; the line active again, its allowances those of the new cycle). A
 * line in grace renews the cycle it waits for; a suspended one the cycle it is in now. The renewal is
 * a debit, which does not call back here. Answers the ids of the lines renewed.
 */
export async function renewAfterCredit(
  tx: Executor,
  account: { operatorCode: string; accountId: string },
  now = new Date(),
): Promise<string[]> {
  const waiting = (
    await lockRenewalLines(tx, { accountId: account.accountId, statuses: ["grace", "suspended"] })
  ).filter(
    (line) =>
      line.operatorCode === account.operatorCode &&
      (line.status === "grace" || (line.status === "suspended" && line.suspendReason === "non_payment")),
  );
  if (waiting.length === 0) return [];
  const work = new RenewalWork(new Map([[account.accountId, await balanceOf(tx, account.accountId)]]));
  const renewed: string[] = [];
  // Lines in grace first (the soonest grace end first), then suspended ones.
  waiting.sort((a, b) => (a.graceEndsOn ?? "9999-12-31").localeCompare(b.graceEndsOn ?? "9999-12-31"));
  for (const line of waiting) {
    const done = work.renew(line, cycleToRenewOnCredit(line, now), { reason: "a top-up covered the plan's renewal" });
    if (done.renewed) renewed.push(line.id);
  }
  await work.flush(tx);
  // The credit's own live event (ledger-entries) makes pages that show the balance read again; the
  // line and its meters are read fresh with it (see docs/money.md, Prepaid renewals).
  return renewed;
}
