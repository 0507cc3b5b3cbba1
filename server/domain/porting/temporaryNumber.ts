import type { Executor } from "../../audit";
import { quarantineNumber } from "../numberInventory/inventory";

/**
 * Gives back the temporary number a ported-in line worked on until its own number arrived: it
 * returns to the operator's number inventory (server/domain/numberInventory/, issue 28 item 1)
 * through the same 90-day quarantine as any released number, since callers may have learnt it.
 * The line already carries the ported number when this runs, in the same transaction.
 */
export async function releaseTemporaryNumber(tx: Executor, operator: string, msisdn: string): Promise<void> {
  await quarantineNumber(tx, operator, msisdn);
}
