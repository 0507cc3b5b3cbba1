import { and, eq, sql } from "drizzle-orm";
import type { TopUp } from "#resources/topUps";
import { recordAudit, type Executor } from "../../audit";
import { accounts, topUps } from "../../db/schema";
import type { EngineServices } from "../../engine/services";
import { unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { publishAfterCommit } from "../../live/eventBus";
import { GatewayRefusal, type ChargeResult, type PaymentGateway } from "../../payments/gateway";
import { toTopUp, topUpSelection, type TopUpRow } from "./records";
import { settleTopUp } from "./settle";

export interface CardTopUpInput {
  operator: string;
  accountId: string;
  ownerUid: string | null;
  amount: { amount: number; currency: string };
  gateway: PaymentGateway;
  /** A one-time card token or a saved card's gateway reference. */
  source: string;
  paymentMethodId: string | null;
  actor: { uid: string; role: string };
  requestId: string;
  /** The client's Idempotency-Key: a top-up already written under it is answered or charged again with its own gateway key, never written twice. */
  idempotencyKey?: string;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** Runs in the transaction that writes the top-up (an auto top-up claims its queue row there); not for one found under its key. */
  onCreated?(tx: Executor, row: TopUpRow): Promise<void>;
  /** Runs in the transaction that settles it (a route completes its idempotency key there). */
  onSettled?(tx: Executor, record: TopUp): Promise<void>;
}

/**
 * The one path of a card top-up, for `POST /top-ups` and the auto top-up job alike: the top-up is
 * written as `created`; then the gateway charges the source (never inside a transaction); then the
 * answer settles it (./settle.ts) — or, when the gateway does not answer in time, it stays
 * `created` and the signed webhook settles it later. The gateway's idempotency key is the top-up's
 * id, so a retried charge is never a second one. Live events go out after each commit.
 *
 * With the client's Idempotency-Key, the key is stored on the top-up in the transaction that writes
 * it, so a retry whose first try died after the charge (its settlement failed, the process was
 * killed) finds it instead of writing a new one: a settled top-up is answered as it stands; a
 * `created` one is charged again under the same gateway key (the gateway answers the first charge's
 * result, charging nothing) and settled as usual.
 */
export async function runCardTopUp(
  services: Pick<EngineServices, "db"> & { events?: EngineServices["events"] },
  input: CardTopUpInput,
): Promise<TopUp> {
  const { db, events } = services;
  const { amount, gateway, actor } = input;
  const key = input.idempotencyKey;
  const { created, isNew } = await db.transaction(async (tx) => {
    const values = {
      operatorCode: input.operator,
      accountId: input.accountId,
      amount: amount.amount,
      currency: amount.currency,
      gateway: gateway.name,
      paymentMethodId: input.paymentMethodId,
      createdBy: actor.uid,
      idempotencyKey: key ?? null,
    };
    const [inserted] = key
      ? await tx
          .insert(topUps)
          .values(values)
          .onConflictDoNothing({
            target: [topUps.accountId, topUps.createdBy, topUps.idempotencyKey],
            where: sql`${topUps.idempotencyKey} is not null`,
          })
          .returning()
      : await tx.insert(topUps).values(values).returning();
    if (!inserted) {
      const [existing] = await tx
        .select(topUpSelection)
        .from(topUps)
        .innerJoin(accounts, eq(accounts.id, topUps.accountId))
        .where(
          and(eq(topUps.accountId, input.accountId), eq(topUps.createdBy, actor.uid), eq(topUps.idempotencyKey, key!)),
        );
      // Reachable only once the key's reservation is gone (kept 24 h): the request hash no longer guards it.
      if (
        existing!.amount !== amount.amount ||
        existing!.currency !== amount.currency ||
        existing!.paymentMethodId !== input.paymentMethodId
      ) {
        throw unprocessable(words("topUps.keyReused"), [
          { path: "idempotency-key", message: words("payments.keyUsedField") },
        ]);
      }
      return { created: existing!, isNew: false };
    }
    const row: TopUpRow = { ...inserted, ownerUid: input.ownerUid };
    await recordAudit(tx, {
      operator: input.operator,
      actorUid: actor.uid,
      actorRole: actor.role,
      action: "top-ups.create",
      targetType: "top-ups",
      targetId: row.id,
      before: null,
      after: toTopUp(row),
      reason: null,
      requestId: input.requestId,
    });
    await input.onCreated?.(tx, row);
    return { created: row, isNew: true };
  });

  if (created.status !== "created") {
    // Settled already (by its first try's answer or by the webhook): answered as it stands, nothing charged.
    const record = toTopUp(created);
    if (input.onSettled) await db.transaction((tx) => input.onSettled!(tx, record));
    return record;
  }

  let result: ChargeResult;
  try {
    result = await gateway.charge({
      amount: created.amount,
      currency: created.currency,
      source: input.source,
      reference: created.id,
      idempotencyKey: `top-up:${created.id}`,
    });
  } catch (error) {
    if (!(error instanceof GatewayRefusal))
      input.log.warn({ err: error, topUpId: created.id }, "card gateway did not take the charge");
    // Refused before any charge (an unknown or used token) or the gateway failed: the top-up failed.
    result = {
      outcome: "failed",
      chargeId: null,
      failureCode: error instanceof GatewayRefusal ? error.code : "gateway_error",
    };
  }

  const done = await db.transaction(async (tx) => {
    const settled =
      result.outcome === "pending"
        ? {
            row: (
              await tx
                .select(topUpSelection)
                .from(topUps)
                .innerJoin(accounts, eq(accounts.id, topUps.accountId))
                .where(eq(topUps.id, created.id))
            )[0]!,
            events: [],
          }
        : (await settleTopUp(tx, created.id, result, { via: "charge", requestId: input.requestId }))!;
    const record = toTopUp(settled.row);
    await input.onSettled?.(tx, record);
    return { record, events: settled.events };
  });
  const at = new Date().toISOString();
  if (isNew)
    await publishAfterCommit(events, input.log, {
      operator: input.operator,
      resource: "top-ups",
      type: "created",
      ids: [created.id],
      ownerUids: created.ownerUid ? [created.ownerUid] : [],
      at,
    });
  for (const event of done.events) await publishAfterCommit(events, input.log, { ...event, at });
  return done.record;
}
