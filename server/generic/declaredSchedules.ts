import { sql } from "drizzle-orm";
import { resources } from "#resources";
import type { ResourceEvent } from "#resources/events";
import { declaredExpressions, todayUtc } from "#resources/expressions/declaration";
import { expressionToSql } from "#resources/expressions/index";
import type { Db } from "../db/client";
import { recordAudit } from "../audit";
import { rowsOf } from "../db/rowsOf";
import { notifications } from "../db/schema";
import type { EventBus } from "../live/eventBus";
import type { DeclaredResource } from "../lib/declaredResource";
import { fieldExpression } from "./fieldSql";
import { lineParams } from "./declaredWrites";

export const DECLARED_SCHEDULES_JOB = "declared-schedules";

interface Changed {
  id: string;
  operator_code: string;
  owner_uid: string | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * Carries out every declared schedule (`schedules` of a document declaration: "expire when endsOn <
 * today()"): one UPDATE per schedule over every record of every operator whose condition holds,
 * written in SQL from the same expression the declaration type-checked. Each change is audited as the
 * system, its owner told when the schedule says so, and live events sent after the commit. Running it
 * twice changes nothing more: a record the schedule changed no longer meets its condition, or the
 * change is already there (the update skips records that hold `set` already).
 */
export async function runDeclaredSchedules(
  db: Db,
  events: Pick<EventBus, "publish"> | undefined,
  declared: readonly DeclaredResource[] = resources,
  today = todayUtc(),
): Promise<{ changed: number }> {
  let changed = 0;
  for (const resource of declared) {
    if (resource.store === "table" || !resource.schedules || resource.source !== "backend") continue;
    for (const schedule of declaredExpressions(resource).schedules) {
      const condition = expressionToSql(schedule.compiled, (field) => fieldExpression(resource, field), {
        today,
        role: "system",
      });
      const set = JSON.stringify(schedule.set);
      const published: ResourceEvent[] = [];
      await db.transaction(async (tx) => {
        // The resource name is a literal (checked at start-up), so the declared partial indexes serve it.
        const rows = rowsOf<Changed>(
          await tx.execute(sql`
            WITH due AS (
              SELECT id, data FROM resource_documents
              WHERE ${sql.raw(`resource = '${resource.name}' AND (${condition})`)}
                AND NOT (data @> ${set}::jsonb)
              FOR UPDATE
            )
            UPDATE resource_documents AS d SET data = d.data || ${set}::jsonb, updated_at = now()
            FROM due WHERE d.id = due.id
            RETURNING d.id, d.operator_code, d.owner_uid, due.data AS before, d.data AS after`),
        );
        for (const row of rows) {
          await recordAudit(tx, {
            operator: row.operator_code,
            actorUid: null,
            actorRole: "system",
            action: `${resource.name}.${schedule.name}`,
            targetType: resource.name,
            targetId: row.id,
            before: row.before,
            after: row.after,
          });
          const ownerUids = row.owner_uid ? [row.owner_uid] : [];
          if (schedule.notify && row.owner_uid) {
            const [notice] = await tx
              .insert(notifications)
              .values({
                operatorCode: row.operator_code,
                recipientUid: row.owner_uid,
                kind: "resource.notice",
                params: {
                  message: schedule.notify,
                  resource: resource.name,
                  ...lineParams(resource, row.after),
                },
                link: `/${resource.name}/show/${row.id}`,
              })
              .returning({ id: notifications.id });
            published.push(event(row.operator_code, "notifications", "created", notice!.id, ownerUids));
          }
          published.push(event(row.operator_code, resource.name, "updated", row.id, ownerUids));
        }
        changed += rows.length;
      });
      // After the commit; a live event that cannot be sent costs a refresh, never the change.
      for (const done of published) await events?.publish(done).catch(() => undefined);
    }
  }
  return { changed };
}

const event = (
  operator: string,
  resource: string,
  type: ResourceEvent["type"],
  id: string,
  ownerUids: string[],
): ResourceEvent => ({ operator, resource, type, ids: [id], ownerUids, at: new Date().toISOString() });
