import type { Effects } from "../../engine/effects";

/** The records that count an account's lines: the account's own and the care 360's (`lineCount` both). */
const COUNTING = ["accounts", "subscribers"] as const;

/**
 * A line came to or left an account: the live events of the records that count its lines, so a page
 * that shows them (the account page, the 360's account card) reads them again. The engine sends an
 * event only for the record an action ran on, so a line ended by its own action or by the cycle-end
 * job, or added while a 360 was open, left those counts stale. `except` names what the running
 * action's own event already covers (add-line runs on the account).
 */
export function publishLineCountChanged(
  effects: Pick<Effects, "publish">,
  account: { id: string; ownerUid: string | null },
  except: readonly (typeof COUNTING)[number][] = [],
): void {
  const ownerUids = account.ownerUid ? [account.ownerUid] : [];
  for (const resource of COUNTING)
    if (!except.includes(resource)) effects.publish({ resource, type: "updated", ids: [account.id], ownerUids });
}
