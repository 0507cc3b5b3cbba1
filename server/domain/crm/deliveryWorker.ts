import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { retryDelayMs } from "#config/retryBackoff";
import type { Db } from "../../db/client";
import { crmOutbox } from "../../db/schema";
import { addBitrixLead, type BitrixSettings, type LeadDelivery } from "./bitrixClient";

/** How long a taken lead is reserved for one delivery; an instance that dies mid-call frees it after this. */
const LEASE_MS = 60_000;
const BATCH = 10;

export interface DeliveryRound {
  delivered: number;
  failed: number;
  dead: number;
}

/**
 * One round: takes the leads that are due (SKIP LOCKED, so several instances share the work),
 * sends each to Bitrix24, then records the outcome: delivered with its lead id, or the next try on
 * the operator's backoff, or dead after `maxAttempts` tries. At least once: a lead whose answer was
 * lost is sent again after the lease.
 */
export async function deliverDueLeads(
  db: Db,
  settings: BitrixSettings,
  {
    now = new Date(),
    random = Math.random,
    send = addBitrixLead,
  }: { now?: Date; random?: () => number; send?: typeof addBitrixLead } = {},
): Promise<DeliveryRound> {
  const taken = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: crmOutbox.id })
      .from(crmOutbox)
      .where(and(eq(crmOutbox.status, "pending"), lte(crmOutbox.nextAttemptAt, now)))
      .orderBy(asc(crmOutbox.nextAttemptAt))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(crmOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        inArray(
          crmOutbox.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });

  const round: DeliveryRound = { delivered: 0, failed: 0, dead: 0 };
  for (const lead of taken) {
    const outcome: LeadDelivery = await send(settings.webhookUrl, lead.fields);
    const attempts = lead.attempts + 1;
    const changedAt = new Date();
    if (outcome.ok) {
      round.delivered++;
      await db
        .update(crmOutbox)
        .set({
          status: "delivered",
          attempts,
          crmLeadId: outcome.leadId,
          deliveredAt: changedAt,
          lastError: null,
          updatedAt: changedAt,
        })
        .where(eq(crmOutbox.id, lead.id));
    } else if (attempts >= settings.maxAttempts) {
      round.dead++;
      await db
        .update(crmOutbox)
        .set({ status: "dead", attempts, lastError: outcome.error, updatedAt: changedAt })
        .where(eq(crmOutbox.id, lead.id));
    } else {
      round.failed++;
      const nextAttemptAt = new Date(now.getTime() + retryDelayMs(attempts, random()));
      await db
        .update(crmOutbox)
        .set({ attempts, lastError: outcome.error, nextAttemptAt, updatedAt: changedAt })
        .where(eq(crmOutbox.id, lead.id));
    }
  }
  return round;
}

/** Polls for due leads every `intervalMs` until stopped; a failing round is logged and the next one runs. */
export function startCrmDelivery(
  db: Db,
  settings: BitrixSettings,
  log: { warn(obj: object, msg: string): void },
  intervalMs = 1000,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = deliverDueLeads(db, settings)
      .catch((error: unknown) => log.warn({ err: error }, "CRM lead delivery round failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Counts by status, for the admin page's summary and tests. */
export const outboxStatusCounts = (db: Db) =>
  db
    .select({ status: crmOutbox.status, n: sql<number>`count(*)::int` })
    .from(crmOutbox)
    .groupBy(crmOutbox.status);
