import { and, asc, eq } from "drizzle-orm";
import { topUpPaymentOf } from "#resources/topUps";
import type { NotificationKind } from "#resources/notifications";
import type { ResourceEvent } from "#resources/events";
import type { Executor } from "../../audit";
import { accounts, autoTopUps, autoTopUpSettings, notifications, operators, paymentMethods } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import type { JobDefinition } from "../../jobs/jobQueue";
import { publishAfterCommit } from "../../live/eventBus";
import { runCardTopUp } from "../topUps/create";
import { toggleOn } from "../../lib/featureFlags";
import { AUTO_TOP_UP_ACTOR } from "./actor";

export const AUTO_TOP_UP_JOB = "auto-top-ups.run";
export { AUTO_TOP_UP_ACTOR };

type Log = {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
  info?(obj: unknown, msg?: string): void;
};
const quietLog: Log = { warn: () => undefined, error: (obj, msg) => console.error(msg, obj) };

class AlreadyTaken extends Error {}

async function notice(
  tx: Executor,
  row: { operatorCode: string },
  recipientUid: string,
  kind: NotificationKind,
  params: Record<string, string | number>,
) {
  const [n] = await tx
    .insert(notifications)
    .values({ operatorCode: row.operatorCode, recipientUid, kind, params, link: "/top-up" })
    .returning({ id: notifications.id });
  return {
    operator: row.operatorCode,
    resource: "notifications",
    type: "created",
    ids: [n!.id],
    ownerUids: [recipientUid],
    at: new Date().toISOString(),
  } satisfies ResourceEvent;
}

/**
 * Carries out one queued auto top-up through the top-ups code path (./topUps/create.ts): the
 * holder's default card of the operator's gateway is charged `amount`. The queue row is claimed
 * (queued → submitted) in the very transaction that writes the top-up, so two workers never both
 * charge it. When it cannot run (the setting was switched off, no default card, no gateway, card
 * top-ups turned off in Remote Config), it
 * is skipped with the reason and the holder is told. Every attempt and every failure is a notice
 * (a declined charge's by ../topUps/settle.ts, so a late webhook's decline gets the same one).
 */
export async function runAutoTopUp(
  services: Pick<EngineServices, "db" | "payments" | "featureFlags"> & { events?: EngineServices["events"] },
  id: string,
  log: Log = quietLog,
): Promise<void> {
  const { db, events } = services;
  const [item] = await db
    .select({
      queued: autoTopUps,
      ownerUid: accounts.ownerUid,
      enabled: autoTopUpSettings.enabled,
      balance: accounts.balanceAmount,
      settings: operators.settings,
    })
    .from(autoTopUps)
    .innerJoin(accounts, eq(accounts.id, autoTopUps.accountId))
    .innerJoin(operators, eq(operators.code, autoTopUps.operatorCode))
    .leftJoin(autoTopUpSettings, eq(autoTopUpSettings.accountId, autoTopUps.accountId))
    .where(and(eq(autoTopUps.id, id), eq(autoTopUps.status, "queued")));
  if (!item) return;
  const { queued, ownerUid } = item;
  const money = { amount: queued.amount, currency: queued.currency };

  const skip = async (reason: string) => {
    const sent = await db.transaction(async (tx) => {
      const [taken] = await tx
        .update(autoTopUps)
        .set({ status: "skipped", skipReason: reason, updatedAt: new Date() })
        .where(and(eq(autoTopUps.id, id), eq(autoTopUps.status, "queued")))
        .returning({ id: autoTopUps.id });
      if (!taken || !ownerUid || reason === "disabled") return [];
      return [await notice(tx, queued, ownerUid, "auto_top_up.failed", { ...money, failureReason: reason })];
    });
    for (const event of sent) await publishAfterCommit(events, log, event);
  };

  if (!item.enabled || !ownerUid) return skip("disabled");
  const gatewayName = topUpPaymentOf(item.settings);
  const gateway = gatewayName ? services.payments?.[gatewayName] : undefined;
  if (!gateway) return skip("card_top_up_unavailable");
  if (!toggleOn(services.featureFlags, "card_top_up_enabled")) return skip("card_top_up_turned_off");
  const [method] = await db
    .select({ id: paymentMethods.id, gatewayMethodId: paymentMethods.gatewayMethodId })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.operatorCode, queued.operatorCode),
        eq(paymentMethods.ownerUid, ownerUid),
        eq(paymentMethods.isDefault, true),
        eq(paymentMethods.gateway, gateway.name),
        eq(paymentMethods.type, "card"),
      ),
    );
  if (!method) return skip("no_default_payment_method");

  const pending: ResourceEvent[] = [];
  let record;
  try {
    record = await runCardTopUp(services, {
      operator: queued.operatorCode,
      accountId: queued.accountId,
      ownerUid,
      amount: money,
      gateway,
      source: method.gatewayMethodId,
      paymentMethodId: method.id,
      actor: AUTO_TOP_UP_ACTOR,
      requestId: `auto-top-up:${id}`,
      log,
      async onCreated(tx, topUp) {
        const [taken] = await tx
          .update(autoTopUps)
          .set({ status: "submitted", topUpId: topUp.id, updatedAt: new Date() })
          .where(and(eq(autoTopUps.id, id), eq(autoTopUps.status, "queued")))
          .returning({ id: autoTopUps.id });
        if (!taken) throw new AlreadyTaken();
        pending.push(await notice(tx, queued, ownerUid, "auto_top_up.attempted", { ...money, balance: item.balance }));
      },
      // A decline's auto_top_up.failed notice is sent by settleTopUp, whether the answer or a late webhook settles it.
    });
  } catch (error) {
    if (error instanceof AlreadyTaken) return;
    throw error;
  }
  for (const event of pending) await publishAfterCommit(events, log, event);
  void record;
}

/** Runs every queued auto top-up, oldest first (the job's sweep; a row another worker took is left alone). */
export async function runQueuedAutoTopUps(
  services: Pick<EngineServices, "db" | "payments" | "featureFlags"> & { events?: EngineServices["events"] },
  log?: Log,
): Promise<number> {
  const queued = await services.db
    .select({ id: autoTopUps.id })
    .from(autoTopUps)
    .where(eq(autoTopUps.status, "queued"))
    .orderBy(asc(autoTopUps.createdAt))
    .limit(100);
  for (const { id } of queued) {
    try {
      await runAutoTopUp(services, id, log);
    } catch (error) {
      (log ?? quietLog).error({ err: error, autoTopUpId: id }, "auto top-up failed to run; the next sweep retries it");
    }
  }
  return queued.length;
}

/** The sweep, every minute: auto top-ups queued by debits that committed are carried out. */
export const autoTopUpJobs = (services: EngineServices): JobDefinition<object>[] => [
  { name: AUTO_TOP_UP_JOB, cron: "* * * * *", run: async () => void (await runQueuedAutoTopUps(services)) },
];

/**
 * Runs queued auto top-ups right after the debits that queued them commit, instead of at the next
 * minute's sweep: a debit's `ledger-entries` event (sent after its commit, on every instance)
 * prompts this instance's job queue when a queued row exists. Events arriving together prompt once.
 * Debits that send no event (the billing cron) wait for the sweep. Returns the unsubscribe.
 */
export function promptAutoTopUps(services: Pick<EngineServices, "db" | "events" | "jobs">, log: Log): () => void {
  let prompting = false;
  return services.events.subscribe((event) => {
    if (event.resource !== "ledger-entries" || event.type !== "created" || prompting || !services.jobs) return;
    prompting = true;
    setImmediate(() => void prompt());
  });
  async function prompt() {
    try {
      const [queued] = await services.db
        .select({ id: autoTopUps.id })
        .from(autoTopUps)
        .where(eq(autoTopUps.status, "queued"))
        .limit(1);
      if (queued) await services.jobs?.send(AUTO_TOP_UP_JOB, {});
    } catch (error) {
      log.error({ err: error }, "auto top-up not prompted; the minute's sweep runs it");
    } finally {
      prompting = false;
    }
  }
}
