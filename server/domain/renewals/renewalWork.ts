import { sql } from "drizzle-orm";
import type { NotificationKind } from "#resources/notifications";
import type { ResourceEvent } from "#resources/events";
import { recordAudits, type AuditEntry, type Executor } from "../../audit";
import { notifications } from "../../db/schema";
import { postLedgerEntries, type BatchLedgerEntry } from "../money/ledgerBatch";
import { nextCycleStart } from "../usage/cycles";
import { addDays, GRACE_DAYS, paidCycleOf, REMINDER_DAYS, renewalPriceOf, type RenewalLine } from "./renew";

type Notice = { line: RenewalLine; kind: NotificationKind; params: Record<string, string | number> };

/**
 * The renewal steps of any number of prepaid lines (the daily job's batch of accounts, or one
 * account's lines after a credit), decided in memory against the balances their caller locked and
 * written by `flush` in a few statements: the `renewal` entries in one insert (keyed
 * `renewal:<line>:<cycle start>`), every line's new state in one update, the audit events and the
 * holders' notifications in one insert each. The caller holds the locks of the accounts and lines
 * from before the first step until after `flush`, in one transaction.
 */
export class RenewalWork {
  /** What the caller announces after its commit (never before: a receiver would read the old state). */
  readonly events: Omit<ResourceEvent, "at">[] = [];
  readonly counts = { renewed: 0, enteredGrace: 0, suspended: 0 };
  private readonly entries: (BatchLedgerEntry & { operatorCode: string })[] = [];
  private readonly changed = new Map<string, { line: RenewalLine; touched: boolean }>();
  private readonly audits: AuditEntry[] = [];
  private readonly notices: Notice[] = [];

  /** `balances`: each account's balance as its locked row has it. */
  constructor(private readonly balances: Map<string, number>) {}

  /** The balance of the line's account after the steps taken so far. */
  balanceOf(line: RenewalLine): number {
    return this.balances.get(line.accountId) ?? 0;
  }

  /**
   * Renews the line's plan for the cycle starting on `cycleStart` when the balance covers the price:
   * a `renewal` entry, the line active again (out of grace, or restored from a non_payment
   * suspension), its paid cycle moved on. Answers what is missing when the balance is short (nothing
   * is written then).
   */
  renew(
    line: RenewalLine,
    cycleStart: string,
    how: { reason: string },
  ): { renewed: true; price: number } | { renewed: false; price: number; missing: number } {
    const price = renewalPriceOf(line, cycleStart);
    const balance = this.balanceOf(line);
    if (price > balance) return { renewed: false, price, missing: price - balance };
    if (price > 0) {
      this.balances.set(line.accountId, balance - price);
      this.entries.push({
        operatorCode: line.operatorCode,
        accountId: line.accountId,
        kind: "renewal",
        amount: price,
        currency: line.currency,
        reason: `${line.planName}, cycle from ${cycleStart} (${line.msisdn})`,
        idempotencyKey: `renewal:${line.id}:${cycleStart}`,
        referenceType: "line",
        referenceId: line.id,
      });
    }
    if (line.status !== "active") {
      this.audit(line, line.status === "suspended" ? "lines.restore" : "lines.renew", how.reason, {
        before: { status: line.status, suspendReason: line.suspendReason, graceEndsOn: line.graceEndsOn },
        after: { status: "active", suspendReason: null, graceEndsOn: null },
      });
    }
    Object.assign(line, { status: "active", suspendReason: null, graceEndsOn: null, renewedCycleStart: cycleStart });
    this.change(line, true);
    this.notify(line, "line.renewed", { amount: price, date: cycleStart });
    this.counts.renewed++;
    return { renewed: true, price };
  }

  /** The line enters grace: its renewal for `cycleStart` waits for a top-up until GRACE_DAYS after `asOf`. */
  enterGrace(line: RenewalLine, cycleStart: string, asOf: string, missing: number) {
    const graceEndsOn = addDays(asOf, GRACE_DAYS);
    this.audit(
      line,
      "lines.grace",
      `the balance is short by ${missing} (minor units) of the renewal of the cycle from ${cycleStart}`,
      { before: { status: line.status, graceEndsOn: null }, after: { status: "grace", graceEndsOn } },
    );
    Object.assign(line, { status: "grace", graceEndsOn });
    this.change(line, true);
    this.notify(line, "line.grace_entered", {
      amount: renewalPriceOf(line, cycleStart),
      missing,
      date: graceEndsOn,
    });
    this.counts.enteredGrace++;
  }

  /** Grace ran out unpaid: the line is suspended for non_payment until a credit covers its renewal. */
  endGrace(line: RenewalLine, missing: number) {
    this.audit(line, "lines.suspend", `prepaid renewal unpaid at the end of the grace period (${line.graceEndsOn})`, {
      before: { status: "grace", suspendReason: null, graceEndsOn: line.graceEndsOn },
      after: { status: "suspended", suspendReason: "non_payment", graceEndsOn: null },
    });
    Object.assign(line, { status: "suspended", suspendReason: "non_payment", graceEndsOn: null });
    this.change(line, true);
    this.notify(line, "line.suspended_grace_ended", { missing });
    this.counts.suspended++;
  }

  /**
   * Tells the holder once per line and cycle, within REMINDER_DAYS of the renewal, when the balance
   * will not cover it (the line's own price against the balance after the steps so far).
   */
  remindIfShort(line: RenewalLine, asOf: string) {
    const next = nextCycleStart(paidCycleOf(line));
    if (addDays(next, -REMINDER_DAYS) > asOf || next <= asOf || line.renewalRemindedFor === next) return;
    const price = renewalPriceOf(line, next);
    const balance = this.balanceOf(line);
    if (balance >= price) return;
    line.renewalRemindedFor = next;
    this.change(line, false);
    this.notify(line, "line.renewal_due_soon", { amount: price, balance, missing: price - balance, date: next });
  }

  /** Writes every step taken, in the caller's transaction. */
  async flush(tx: Executor): Promise<void> {
    for (const operator of new Set(this.entries.map((e) => e.operatorCode)))
      await postLedgerEntries(
        tx,
        operator,
        this.entries.filter((e) => e.operatorCode === operator),
      );
    if (this.changed.size) {
      const changed = [...this.changed.values()];
      const column = <T>(pick: (c: (typeof changed)[number]) => T) => sql.param(changed.map(pick));
      // Each line's state as the steps left it; updated_at moves with its status, not with a reminder.
      await tx.execute(sql`
        update lines set status = v.status, suspend_reason = v.suspend_reason, grace_ends_on = v.grace_ends_on,
          renewed_cycle_start = v.renewed_cycle_start, renewal_reminded_for = v.renewal_reminded_for,
          updated_at = case when v.touched then now() else lines.updated_at end
        from unnest(${column((c) => c.line.id)}::uuid[], ${column((c) => c.line.status)}::text[],
                    ${column((c) => c.line.suspendReason)}::text[], ${column((c) => c.line.graceEndsOn)}::date[],
                    ${column((c) => c.line.renewedCycleStart)}::date[], ${column((c) => c.line.renewalRemindedFor)}::date[],
                    ${column((c) => c.touched)}::boolean[])
          as v(id, status, suspend_reason, grace_ends_on, renewed_cycle_start, renewal_reminded_for, touched)
        where lines.id = v.id`);
    }
    await recordAudits(tx, this.audits);
    const told = this.notices.filter((n) => n.line.ownerUid);
    if (told.length) {
      const rows = await tx
        .insert(notifications)
        .values(
          told.map(({ line, kind, params }) => ({
            operatorCode: line.operatorCode,
            recipientUid: line.ownerUid!,
            kind,
            params: { msisdn: line.msisdn, planName: line.planName, currency: line.currency, ...params },
            link: `/lines/show/${line.id}`,
          })),
        )
        .returning({ id: notifications.id, operator: notifications.operatorCode, uid: notifications.recipientUid });
      for (const row of rows)
        this.events.push({
          operator: row.operator,
          resource: "notifications",
          type: "created",
          ids: [row.id],
          ownerUids: [row.uid],
        });
    }
    for (const { line, touched } of this.changed.values()) if (touched) this.lineEvents(line);
  }

  private change(line: RenewalLine, touched: boolean) {
    const known = this.changed.get(line.id);
    this.changed.set(line.id, { line, touched: touched || (known?.touched ?? false) });
  }

  private notify(line: RenewalLine, kind: NotificationKind, params: Record<string, string | number>) {
    this.notices.push({ line, kind, params });
  }

  private audit(
    line: RenewalLine,
    action: string,
    reason: string,
    change: { before: Record<string, unknown>; after: Record<string, unknown> },
  ) {
    this.audits.push({
      operator: line.operatorCode,
      actorUid: null,
      actorRole: "system",
      action,
      targetType: "lines",
      targetId: line.id,
      ...change,
      reason,
      requestId: null,
    });
  }

  /** The line, its meters and its account's movements changed: pages following them read them again. */
  private lineEvents(line: RenewalLine) {
    const ownerUids = line.ownerUid ? [line.ownerUid] : [];
    const event = { operator: line.operatorCode, type: "updated" as const, ownerUids };
    this.events.push({ ...event, resource: "lines", ids: [line.id] });
    this.events.push({ ...event, resource: "meters", ids: [line.id] });
    this.events.push({ ...event, resource: "ledger-entries", type: "created", ids: [line.accountId] });
  }
}
