import type { Principal } from "#resources/access";
import type { ResourceEvent } from "#resources/events";
import type { NotificationKind } from "#resources/notifications";
import { recordAudit, type AuditEntry, type Executor } from "../audit";
import { notifications } from "../db/schema";

export type NoticeParams = Record<string, string | number | boolean | null>;

/**
 * The side effects of a write, in its transaction: notices written with it, extra audit rows, and
 * the live events to send once it commits (never before: a receiver would refetch the old state).
 */
export interface Effects {
  /** An in-app notice to one person. */
  notify(notice: {
    recipientUid: string;
    kind: NotificationKind;
    params: NoticeParams;
    link?: string | null;
  }): Promise<void>;
  /** A live event, sent after the commit. */
  publish(event: Pick<ResourceEvent, "resource" | "type" | "ids"> & { ownerUids?: string[] }): void;
  /** Another audit row (the factory writes the action's own). */
  audit(entry: Omit<AuditEntry, "operator" | "actorUid" | "actorRole" | "requestId">): Promise<void>;
}

/** Effects bound to one transaction; `pending` holds the events for after the commit. */
export function createEffects(
  tx: Executor,
  principal: Principal,
  requestId: string,
): { effects: Effects; pending: ResourceEvent[] } {
  const pending: ResourceEvent[] = [];
  const publish: Effects["publish"] = (event) =>
    pending.push({ ...event, operator: principal.operator, at: new Date().toISOString() });
  return {
    pending,
    effects: {
      publish,
      async notify({ recipientUid, kind, params, link }) {
        const [row] = await tx
          .insert(notifications)
          .values({ operatorCode: principal.operator, recipientUid, kind, params, link: link ?? null })
          .returning({ id: notifications.id });
        publish({ resource: "notifications", type: "created", ids: [row!.id], ownerUids: [recipientUid] });
      },
      async audit(entry) {
        await recordAudit(tx, {
          ...entry,
          operator: principal.operator,
          actorUid: principal.uid,
          actorRole: principal.role,
          requestId,
        });
      },
    },
  };
}
