import { eq } from "drizzle-orm";
import type { Executor } from "../../audit";
import { accounts, orders, portInSubmissions } from "../../db/schema";
import type { Effects } from "../../engine/effects";
import { portInNotice } from "./notices";

/** What a port-in order keeps in `details` (add-line writes it; a correction replaces `portIn`'s fields). */
export interface PortInDetails {
  portIn: {
    msisdn: string;
    carrierAccount: string;
    zip: string;
    /** The transfer PIN sealed with the backend's SecretBox (server/lib/secretBox.ts); never returned. */
    transferPinCipher: string;
    /** The exchange's last refusal, while the order waits for a correction. */
    rejection?: { code: string; text: string | null } | null;
  };
  /** The number the line works on until the port completes. */
  temporaryMsisdn: string;
}

export const portInDetailsOf = (details: Record<string, unknown>): PortInDetails | null => {
  const portIn = details.portIn as PortInDetails["portIn"] | undefined;
  if (!portIn || typeof portIn.msisdn !== "string" || typeof portIn.transferPinCipher !== "string") return null;
  return { portIn, temporaryMsisdn: typeof details.temporaryMsisdn === "string" ? details.temporaryMsisdn : "" };
};

/**
 * Queues a port-in order (type `port_in`, in_progress, its `details` as PortInDetails) for the number
 * portability exchange, in the caller's transaction: a `port_in_submissions` row the sending job
 * (./send.ts) carries out after the commit (the exchange is never called inside a transaction),
 * and the holder's "submitted" notice. `effects` (an action's) also sends the notice's live event.
 */
export async function submitPortIn(tx: Executor, orderId: string, effects?: Pick<Effects, "notify">): Promise<void> {
  const [order] = await tx
    .select({
      operatorCode: orders.operatorCode,
      type: orders.type,
      details: orders.details,
      ownerUid: accounts.ownerUid,
    })
    .from(orders)
    .innerJoin(accounts, eq(accounts.id, orders.accountId))
    .where(eq(orders.id, orderId));
  const details = order ? portInDetailsOf(order.details) : null;
  if (!order || order.type !== "port_in" || !details)
    throw new Error(`order ${orderId} is not a port-in with its details`);
  await tx.insert(portInSubmissions).values({ operatorCode: order.operatorCode, orderId });
  if (!order.ownerUid) return;
  const params = { msisdn: details.portIn.msisdn, temporaryMsisdn: details.temporaryMsisdn };
  if (effects)
    await effects.notify({
      recipientUid: order.ownerUid,
      kind: "port_in.submitted",
      params,
      link: `/orders/show/${orderId}`,
    });
  else await portInNotice(tx, order.operatorCode, order.ownerUid, "port_in.submitted", params, orderId);
}
