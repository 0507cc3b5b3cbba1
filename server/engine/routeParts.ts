import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ResourceEvent } from "#resources/events";
import { idSchema } from "#resources/common";
import { recordAudit, type Executor } from "../audit";
import { publishAfterCommit, type EventBus } from "../live/eventBus";
import type { WordsKey } from "../i18n/words";
import { apiHeadersSchema } from "../routes/common";
import type { DeclaredResource } from "../lib/declaredResource";

/** "device-claims" → "DeviceClaims": the resource's part of operation ids. */
export const pascal = (name: string) => name.replace(/(^|[-_])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** The `:id` of a record: a UUID, unless the record's own id is another kind of string (staff: Firebase uids). */
export function idParamsOf(resource: DeclaredResource) {
  const id = (resource.schema.shape as Record<string, z.ZodType>).id;
  const isUuid = id instanceof z.ZodUUID || id === idSchema;
  return z.object({
    id: isUuid
      ? z.uuid("engine.uuid" satisfies WordsKey)
      : z
          .string()
          .min(1)
          .max(128)
          .regex(/^[\w-]+$/, "engine.idCharacters" satisfies WordsKey),
  });
}

export const writeHeadersSchema = apiHeadersSchema.extend({
  "idempotency-key": z
    .string()
    .min(8, "engine.idempotencyKeyLength" satisfies WordsKey)
    .max(200)
    .optional()
    .describe("repeat the request safely: the same key replays the first response"),
});

/** The audit row of one write of a record, in its transaction (when the resource is audited). */
export async function auditWrite(
  tx: Executor,
  resource: DeclaredResource,
  request: FastifyRequest,
  action: string,
  targetId: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  reason?: string | null,
) {
  if (!resource.audit) return;
  await recordAudit(tx, {
    operator: request.principal.operator,
    actorUid: request.principal.uid,
    actorRole: request.principal.role,
    action: `${resource.name}.${action}`,
    targetType: resource.name,
    targetId,
    before,
    after,
    reason: reason ?? null,
    requestId: request.id,
  });
}

/** Sends a write's live events once it committed (a failure is logged; the write stands). */
export async function publishAll(events: EventBus, log: FastifyBaseLogger, list: ResourceEvent[]) {
  for (const event of list) await publishAfterCommit(events, log, event);
}

/** Thrown to roll a preview's transaction back: a preview never changes anything, even by mistake. */
class RolledBack<T> extends Error {
  constructor(readonly value: T) {
    super("rolled back");
  }
}

/** Runs `work` in a transaction that is always rolled back, and answers what it returned (a quote). */
export async function rolledBack<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  try {
    await db.transaction(async (tx) => {
      throw new RolledBack(await work(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  }
  throw new Error("a rolled-back transaction ended without an answer");
}
