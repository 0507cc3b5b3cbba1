import { and, asc, eq, inArray, lte } from "drizzle-orm";
import { retryDelayMs } from "#config/retryBackoff";
import type { Db } from "../../db/client";
import { orders, portInSubmissions } from "../../db/schema";
import type { SecretBox } from "../../lib/secretBox";
import type { EngineServices } from "../../engine/services";
import type { JobDefinition } from "../../jobs/jobQueue";
import { ExchangeUnavailable, type PortingExchange } from "../../portingExchange/client";
import { portInDetailsOf } from "./submit";

/** The job that sends queued port-ins to the exchange: every minute, and at once after a port-in is queued. */
export const PORT_IN_SEND_JOB = "porting.send";

/** How long a taken submission is reserved for one send; an instance that dies mid-call frees it after this. */
const LEASE_MS = 60_000;
/** How long a sent request may go unanswered before it is sent again (the exchange then answers it again: an answer lost on the way). */
export const ANSWER_WAIT_MS = 30 * 60_000;
const BATCH = 10;

export interface SendRound {
  sent: number;
  failed: number;
}

type Log = { warn(obj: unknown, msg?: string): void };

/**
 * One round: takes the submissions that are due (SKIP LOCKED, so instances share the work): queued
 * ones, and sent ones the exchange has not answered within ANSWER_WAIT_MS (sent again: the exchange
 * answers a reference it knows again, so an answer lost on the way is not the order's end),
 * opens each one's transfer PIN and files it with the exchange, outside any transaction. Taken by
 * the exchange: `sent` with its request id. Unreachable, timed out or refused: tried again on the
 * operator's backoff (src/config/retryBackoff.ts, capped at 4 hours), never given up, so no order is
 * lost while the exchange is down. The submission's id is the request's reference and idempotency
 * key, so a send whose answer was lost is one request at the exchange.
 */
export async function sendDuePortIns(
  services: { db: Db; secrets: SecretBox; exchange?: PortingExchange },
  { now = new Date(), random = Math.random, log }: { now?: Date; random?: () => number; log?: Log } = {},
): Promise<SendRound> {
  const round: SendRound = { sent: 0, failed: 0 };
  const exchange = services.exchange;
  if (!exchange) return round;
  const { db } = services;
  const taken = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: portInSubmissions.id })
      .from(portInSubmissions)
      .where(and(inArray(portInSubmissions.status, ["queued", "sent"]), lte(portInSubmissions.nextAttemptAt, now)))
      .orderBy(asc(portInSubmissions.nextAttemptAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(portInSubmissions)
      .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        inArray(
          portInSubmissions.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });

  for (const submission of taken) {
    const [order] = await db
      .select({ details: orders.details, operatorCode: orders.operatorCode })
      .from(orders)
      .where(eq(orders.id, submission.orderId));
    const details = order ? portInDetailsOf(order.details) : null;
    const attempts = submission.attempts + 1;
    const changedAt = new Date();
    try {
      if (!details) throw new ExchangeUnavailable("the order has no port-in details");
      const { requestId } = await exchange.submit({
        reference: submission.id,
        msisdn: details.portIn.msisdn,
        carrierAccount: details.portIn.carrierAccount,
        transferPin: services.secrets.open(details.portIn.transferPinCipher),
        zip: details.portIn.zip,
        recipientCarrier: order!.operatorCode,
      });
      round.sent++;
      // Still unanswered: an answer that came back faster than this update already recorded itself.
      await db
        .update(portInSubmissions)
        .set({
          status: "sent",
          attempts,
          exchangeRequestId: requestId,
          lastError: null,
          nextAttemptAt: new Date(now.getTime() + ANSWER_WAIT_MS),
          updatedAt: changedAt,
        })
        .where(and(eq(portInSubmissions.id, submission.id), inArray(portInSubmissions.status, ["queued", "sent"])));
    } catch (error) {
      round.failed++;
      // Only our own wording: nothing of the request (its PIN) reaches the row or the log.
      const why = error instanceof ExchangeUnavailable ? error.message : "the request failed";
      log?.warn({ submissionId: submission.id, attempts, why }, "port-in not sent to the exchange; tried again later");
      await db
        .update(portInSubmissions)
        .set({
          attempts,
          lastError: why,
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts, random())),
          updatedAt: changedAt,
        })
        .where(and(eq(portInSubmissions.id, submission.id), inArray(portInSubmissions.status, ["queued", "sent"])));
    }
  }
  return round;
}

/** The sweep, every minute (pg-boss retries a round that throws): queued port-ins are sent. */
export const portInJobs = (services: EngineServices): JobDefinition<object>[] => [
  {
    name: PORT_IN_SEND_JOB,
    cron: "* * * * *",
    run: async () =>
      void (await sendDuePortIns({ db: services.db, secrets: services.secrets, exchange: services.portingExchange })),
  },
];

/**
 * Sends queued port-ins right after the write that queued them commits (add-line, a resubmission),
 * instead of at the next minute's sweep: an `orders` event prompts this instance's job queue when a
 * queued submission is due. Returns the unsubscribe.
 */
export function promptPortIns(
  services: Pick<EngineServices, "db" | "events" | "jobs">,
  log: { error(obj: unknown, msg?: string): void },
): () => void {
  let prompting = false;
  return services.events.subscribe((event) => {
    if (event.resource !== "orders" || prompting || !services.jobs) return;
    prompting = true;
    setImmediate(() => void prompt());
  });
  async function prompt() {
    try {
      const [queued] = await services.db
        .select({ id: portInSubmissions.id })
        .from(portInSubmissions)
        .where(and(eq(portInSubmissions.status, "queued"), lte(portInSubmissions.nextAttemptAt, new Date())))
        .limit(1);
      if (queued) await services.jobs?.send(PORT_IN_SEND_JOB, {});
    } catch (error) {
      log.error({ err: error }, "port-in send not prompted; the minute's sweep runs it");
    } finally {
      prompting = false;
    }
  }
}
