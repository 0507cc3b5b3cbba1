import type { Executor } from "../../audit";

/**
 * Gives back the temporary number a ported-in line worked on until its own number arrived: it
 * returns to the operator's number inventory (server/domain/numberInventory/, issue 28 item 1).
 * The line already carries the ported number when this runs, in the same transaction.
 */
export function releaseTemporaryNumber(tx: Executor, operator: string, msisdn: string): Promise<void> {
  // TODO(issue 28, number inventory): call the inventory's release here once it is merged, e.g.
  //   await releaseNumber(tx, operator, msisdn, { quarantine: false });
  void tx;
  void operator;
  void msisdn;
  return Promise.resolve();
}
