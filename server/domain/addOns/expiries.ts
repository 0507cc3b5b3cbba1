import { randomUUID } from "node:crypto";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { OrderStep } from "#resources/orders";
import type { Db } from "../../db/client";
import { rowsOf } from "../../db/rowsOf";
import { accounts, addOnPurchases, addOns, lines, notifications, orders } from "../../db/schema";
import type { EventBus } from "../../live/eventBus";
import { postLedgerEntries, type BatchLedgerEntry } from "../money/ledgerBatch";
import { inAccountRange, type AccountRange } from "../billingRuns/accountRanges";

export const ADD_ON_EXPIRY_JOB = "add-ons.expire-and-renew";

const DAY_MS = 86_400_000;
/** Add-ons handled in one transaction (issue 30: a few statements a page, not a transaction each). */
export const ADD_ONS_PER_PAGE = 500;

/**
 * Renews or expires every active add-on whose validity has run out, a page of ADD_ONS_PER_PAGE at a
 * time, each page one transaction whose purchases are locked with SKIP LOCKED (so two instances, or
 * two parts of the daily job, never take the same one; the table is the durable schedule, the job
 * its clock). Renewal charges again through the ledger (idempotent per period) and places a
 * completed add_on order; a prepaid balance that is short, a retired add-on, a plan left unpaid or
 * renewal turned off lets it expire. The holder is told either way. Returns how many were handled.
 *
 * A page decides in memory what each purchase does (in the order they ran out, against each
 * prepaid account's balance as its earlier renewals left it, the accounts locked) and then writes
 * the ledger entries, orders, purchases and notices one statement each.
 */
export async function runAddOnExpiries(
  db: Db,
  events: Pick<EventBus, "publish">,
  now = new Date(),
  /** `accounts`: only the add-ons of accounts in this slice of ids (a part of the daily job). */
  options: { operatorCode?: string; accounts?: AccountRange; perPage?: number } = {},
): Promise<number> {
  let done = 0;
  // Each page starts after the last one's (expires_at, id): what it renewed moved on, and what it
  // expired left the index only as dead entries, which asking from the start would read again.
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const pending: ResourceEvent[] = [];
    const handled = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          purchase: addOnPurchases,
          ownerUid: accounts.ownerUid,
          accountType: accounts.type,
          msisdn: lines.msisdn,
          // The time exactly as stored (microseconds): the next page's start.
          expiresAtText: sql<string>`${addOnPurchases.expiresAt}::text`,
          lineStatus: lines.status,
          suspendReason: lines.suspendReason,
        })
        .from(addOnPurchases)
        .innerJoin(accounts, eq(addOnPurchases.accountId, accounts.id))
        .innerJoin(lines, eq(addOnPurchases.lineId, lines.id))
        .where(
          and(
            eq(addOnPurchases.status, "active"),
            lte(addOnPurchases.expiresAt, now),
            options.operatorCode ? eq(addOnPurchases.operatorCode, options.operatorCode) : undefined,
            inAccountRange(addOnPurchases.accountId, options.accounts),
            after
              ? sql`(${addOnPurchases.expiresAt}, ${addOnPurchases.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`
              : undefined,
          ),
        )
        .orderBy(addOnPurchases.expiresAt, addOnPurchases.id)
        .limit(options.perPage ?? ADD_ONS_PER_PAGE)
        .for("update", { of: addOnPurchases, skipLocked: true });
      if (due.length === 0) return 0;
      const last = due[due.length - 1]!;
      after = { at: last.expiresAtText, id: last.purchase.id };

      const catalog = new Map(
        (
          await tx
            .select()
            .from(addOns)
            .where(inArray(addOns.id, [...new Set(due.map((d) => d.purchase.addOnId))]))
        ).map((a) => [a.id, a]),
      );
      // Who asked for each first purchase: its renewals are asked for in their name's role.
      const firstRoles = new Map(
        (
          await tx
            .select({ id: orders.id, role: orders.requestedByRole })
            .from(orders)
            .where(inArray(orders.id, [...new Set(due.map((d) => d.purchase.orderId))]))
        ).map((o) => [o.id, o.role]),
      );
      // The prepaid balances, locked in id order (after the purchases, as a single renewal took them).
      const prepaidIds = [...new Set(due.filter((d) => d.accountType === "prepaid").map((d) => d.purchase.accountId))];
      const balances = new Map(
        prepaidIds.length
          ? rowsOf<{ id: string; balance_amount: number }>(
              await tx.execute(
                sql`select id, balance_amount from accounts where id = any(${sql.param(prepaidIds.sort())}::uuid[]) order by id for update`,
              ),
            ).map((a) => [a.id, Number(a.balance_amount)])
          : [],
      );

      const at = new Date();
      const step = (state: "acknowledged" | "in_progress" | "completed"): OrderStep => ({
        state,
        at: at.toISOString(),
        byRole: "system",
        note: state === "acknowledged" ? "automatic renewal" : null,
      });
      const entries: BatchLedgerEntry[] = [];
      const newOrders: (typeof orders.$inferInsert)[] = [];
      const renewals: { id: string; expiresAt: Date; period: number; dataMb: number; orderId: string }[] = [];
      const expired: string[] = [];
      const notices: (typeof notifications.$inferInsert & { id: string })[] = [];

      for (const d of due) {
        const { purchase } = d;
        const addOn = catalog.get(purchase.addOnId)!;
        const operator = purchase.operatorCode;
        const owners = d.ownerUid ? [d.ownerUid] : [];
        // A prepaid line whose plan did not renew (in grace, or suspended after it) renews no add-on: it expires.
        const planUnpaid =
          d.lineStatus === "grace" || (d.lineStatus === "suspended" && d.suspendReason === "non_payment");
        const balance = balances.get(purchase.accountId);
        const covered = balance === undefined || addOn.priceAmount <= balance;
        const renew = purchase.autoRenew && addOn.status === "active" && !planUnpaid && covered;
        if (renew) {
          const period = purchase.renewals + 1;
          const expiresAt = new Date(purchase.expiresAt.getTime() + addOn.validityDays * DAY_MS);
          if (addOn.priceAmount > 0) {
            if (balance !== undefined) balances.set(purchase.accountId, balance - addOn.priceAmount);
            entries.push({
              accountId: purchase.accountId,
              kind: "charge",
              amount: addOn.priceAmount,
              currency: addOn.currency,
              reason: `Renewal of add-on ${addOn.name} on ${d.msisdn}`,
              idempotencyKey: `add-on-renewal:${purchase.id}:${period}`,
              referenceType: "add_on_purchase",
              referenceId: purchase.id,
            });
          }
          const orderId = randomUUID();
          newOrders.push({
            id: orderId,
            operatorCode: operator,
            accountId: purchase.accountId,
            lineId: purchase.lineId,
            type: "add_on",
            state: "completed",
            details: {
              addOnId: addOn.id,
              addOnName: addOn.name,
              price: addOn.priceAmount,
              currency: addOn.currency,
              dataMb: addOn.dataMb,
              renewalOf: purchase.id,
              period,
              expiresAt: expiresAt.toISOString(),
            },
            timeline: [step("acknowledged"), step("in_progress"), step("completed")],
            requestedBy: "system",
            // Asked for by whoever turned auto-renew on when buying.
            requestedByRole: firstRoles.get(purchase.orderId)!,
            reason: "automatic renewal",
          });
          renewals.push({ id: purchase.id, expiresAt, period, dataMb: addOn.dataMb, orderId });
          pending.push({
            operator,
            at: at.toISOString(),
            resource: "orders",
            type: "created",
            ids: [orderId],
            ownerUids: owners,
          });
        } else {
          expired.push(purchase.id);
        }
        if (d.ownerUid) {
          const id = randomUUID();
          notices.push({
            id,
            operatorCode: operator,
            recipientUid: d.ownerUid,
            kind: renew ? "add_on.renewed" : "add_on.expired",
            params: { msisdn: d.msisdn, addOnName: addOn.name },
            link: `/lines/show/${purchase.lineId}`,
          });
          pending.push({
            operator,
            at: at.toISOString(),
            resource: "notifications",
            type: "created",
            ids: [id],
            ownerUids: owners,
          });
        }
        pending.push({
          operator,
          at: at.toISOString(),
          resource: "meters",
          type: "updated",
          ids: [purchase.lineId],
          ownerUids: owners,
        });
      }

      // Entries of several operators can share a page (the every-minute sweep knows no operator).
      for (const operator of new Set(due.map((d) => d.purchase.operatorCode))) {
        const theirs = new Set(
          due.filter((d) => d.purchase.operatorCode === operator).map((d) => d.purchase.accountId),
        );
        await postLedgerEntries(
          tx,
          operator,
          entries.filter((e) => theirs.has(e.accountId)),
        );
      }
      if (newOrders.length) await tx.insert(orders).values(newOrders);
      if (renewals.length)
        await tx.execute(sql`
          update add_on_purchases p
          set starts_at = p.expires_at, expires_at = r.expires_at, renewals = r.period, data_mb = r.data_mb,
            order_id = r.order_id, updated_at = now()
          from unnest(${sql.param(renewals.map((r) => r.id))}::uuid[], ${sql.param(renewals.map((r) => r.expiresAt.toISOString()))}::timestamptz[],
                      ${sql.param(renewals.map((r) => r.period))}::int[], ${sql.param(renewals.map((r) => r.dataMb))}::int[],
                      ${sql.param(renewals.map((r) => r.orderId))}::uuid[]) as r(id, expires_at, period, data_mb, order_id)
          where p.id = r.id`);
      if (expired.length)
        await tx
          .update(addOnPurchases)
          .set({ status: "expired", updatedAt: at })
          .where(inArray(addOnPurchases.id, expired));
      if (notices.length) await tx.insert(notifications).values(notices);
      return due.length;
    });
    for (const event of pending) await events.publish(event).catch(() => undefined);
    if (handled === 0) return done;
    done += handled;
  }
}
