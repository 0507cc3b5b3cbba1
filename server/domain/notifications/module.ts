import { eq, sql } from "drizzle-orm";
import type { Notification } from "#resources/notifications";
import { notifications } from "../../db/schema";
import type { ActionHandler, DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

type NotificationRow = typeof notifications.$inferSelect;

const read = (row: NotificationRow) => row.readAt !== null;

/** Everyone's inbox is their own: "own" means addressed to you. */
export const notificationsModule: DomainModule<NotificationRow> = {
  source: tableSource({
    table: notifications,
    owner: notifications.recipientUid,
    columns: {
      createdAt: notifications.createdAt,
      kind: notifications.kind,
      // "read" is derived from read_at: filter[read]=false asks for the unread ones.
      read: sql`(${notifications.readAt} is not null)`,
    },
    toRecord: (row): Notification => ({
      id: row.id,
      kind: row.kind,
      params: row.params,
      link: row.link,
      read: read(row),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
    ownerUids: (row) => [row.recipientUid],
  }),
};

export const markNotificationRead: ActionHandler<NotificationRow> = {
  async run(ctx) {
    await ctx.tx
      .update(notifications)
      .set({ readAt: new Date(), updatedAt: new Date() })
      .where(eq(notifications.id, ctx.row.id));
  },
};
