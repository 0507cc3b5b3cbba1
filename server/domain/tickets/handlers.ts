import { eq } from "drizzle-orm";
import type { NotificationKind } from "#resources/notifications";
import type { TicketPriority, TicketStatus } from "#resources/tickets";
import { isStaff } from "#resources/access";
import type { ActionContext, ActionHandler } from "../../engine/types";
import { ticketMessages, tickets } from "../../db/schema";
import type { TicketRow } from "./module";
import { attachFiles } from "./attachments";

type TicketContext<I = Record<string, unknown>> = ActionContext<TicketRow, I>;

const ticketId = (ctx: TicketContext) => ctx.row.id;

/** Moves the ticket to a state (and takes it for the acting agent when asked); the factory audits before and after. */
async function moveTo(ctx: TicketContext, status: TicketStatus, options: { take?: boolean } = {}) {
  const now = new Date();
  await ctx.tx
    .update(tickets)
    .set({
      status,
      updatedAt: now,
      ...(status === "resolved" ? { resolvedAt: now } : {}),
      ...(options.take ? { assigneeUid: ctx.principal.uid } : {}),
    })
    .where(eq(tickets.id, ticketId(ctx)));
}

/** Tells the account's holder when care moved their ticket or answered it (by role, never by name). */
async function tellHolder(ctx: TicketContext, kind: NotificationKind) {
  if (!isStaff(ctx.principal.role) || !ctx.row.ownerUid) return;
  await ctx.effects.notify({
    recipientUid: ctx.row.ownerUid,
    kind,
    params: { subject: ctx.row.subject, byRole: ctx.principal.role },
    link: `/tickets/show/${ticketId(ctx)}`,
  });
}

/**
 * A message from either side. Care answering a new ticket starts work on it (and takes it if nobody
 * has); the subscriber answering a ticket that waits for them, or that was resolved, reopens it.
 */
export const replyToTicket: ActionHandler<TicketRow, { message: string; attachmentIds?: string[] }> = {
  async run(ctx) {
    const [written] = await ctx.tx
      .insert(ticketMessages)
      .values({
        ticketId: ticketId(ctx),
        authorUid: ctx.principal.uid,
        authorRole: ctx.principal.role,
        body: ctx.input.message.trim(),
      })
      .returning({ id: ticketMessages.id });
    await attachFiles(ctx.tx, ctx.principal, written!.id, ctx.input.attachmentIds ?? []);
    const status = ctx.row.status;
    if (isStaff(ctx.principal.role)) {
      if (status === "acknowledged") await moveTo(ctx, "in_progress", { take: ctx.row.assigneeUid === null });
      else
        await ctx.tx
          .update(tickets)
          .set({ updatedAt: new Date() })
          .where(eq(tickets.id, ticketId(ctx)));
      await tellHolder(ctx, "ticket.replied");
    } else if (status === "pending" || status === "resolved") {
      await moveTo(ctx, "in_progress");
    } else {
      await ctx.tx
        .update(tickets)
        .set({ updatedAt: new Date() })
        .where(eq(tickets.id, ticketId(ctx)));
    }
  },
};

export const takeTicket: ActionHandler<TicketRow> = {
  async run(ctx) {
    await moveTo(ctx, "in_progress", { take: true });
  },
};

export const pendTicket: ActionHandler<TicketRow> = {
  async run(ctx) {
    await moveTo(ctx, "pending");
    await tellHolder(ctx, "ticket.pending");
  },
};

export const resolveTicket: ActionHandler<TicketRow> = {
  async run(ctx) {
    await moveTo(ctx, "resolved");
    await tellHolder(ctx, "ticket.resolved");
  },
};

export const closeTicket: ActionHandler<TicketRow> = {
  async run(ctx) {
    await moveTo(ctx, "closed");
    await tellHolder(ctx, "ticket.closed");
  },
};

export const cancelTicket: ActionHandler<TicketRow> = {
  async run(ctx) {
    await moveTo(ctx, "cancelled");
    await tellHolder(ctx, "ticket.cancelled");
  },
};

export const prioritizeTicket: ActionHandler<TicketRow, { priority: TicketPriority }> = {
  async run(ctx) {
    await ctx.tx
      .update(tickets)
      .set({ priority: ctx.input.priority, updatedAt: new Date() })
      .where(eq(tickets.id, ticketId(ctx)));
  },
};
