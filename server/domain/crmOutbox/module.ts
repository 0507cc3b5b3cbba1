import { eq } from "drizzle-orm";
import type { CrmOutboxEntry } from "#resources/crmOutbox";
import { crmOutbox } from "../../db/schema";
import type { ActionHandler, DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

type OutboxRow = typeof crmOutbox.$inferSelect;

/** The outbox, read by admins of the operator (no subscriber owns a lead). */
export const crmOutboxModule: DomainModule<OutboxRow> = {
  source: tableSource({
    table: crmOutbox,
    columns: {
      createdAt: crmOutbox.createdAt,
      status: crmOutbox.status,
      attempts: crmOutbox.attempts,
      nextAttemptAt: crmOutbox.nextAttemptAt,
      sourceType: crmOutbox.sourceType,
    },
    toRecord: (row): CrmOutboxEntry => ({
      id: row.id,
      sourceType: row.sourceType as CrmOutboxEntry["sourceType"],
      sourceId: row.sourceId,
      title: typeof row.fields.TITLE === "string" ? row.fields.TITLE : row.sourceType,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
      lastError: row.lastError,
      crmLeadId: row.crmLeadId,
      deliveredAt: row.deliveredAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
  }),
};

/** Sends a dead or waiting lead again now, with a fresh set of tries (the admin has fixed what made it fail). */
export const retryCrmLead: ActionHandler<OutboxRow> = {
  async run(ctx) {
    const now = new Date();
    await ctx.tx
      .update(crmOutbox)
      .set({ status: "pending", attempts: 0, nextAttemptAt: now, updatedAt: now })
      .where(eq(crmOutbox.id, ctx.row.id));
  },
};
