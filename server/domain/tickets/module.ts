import { eq, ilike, sql } from "drizzle-orm";
import {
  DEFAULT_PRIORITY,
  DEFAULT_SLA_HOURS,
  type Ticket,
  type TicketAttachment,
  type TicketCategory,
  type TicketMessage,
} from "#resources/tickets";
import { accounts, operators, ticketMessages, tickets } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { tableSource, withoutOwner } from "../tableSource";
import { attachFiles, attachmentsOf } from "./attachments";

/** The ticket's id inside correlated subqueries (qualified: the messages have an id too). */
const TICKET_ID = sql.raw(`"tickets"."id"`);

/** Hours to resolve by priority: the operator's own (settings.ticketSlaHours) or the defaults. */
const slaHours = sql`coalesce(
  (${operators.settings} -> 'ticketSlaHours' ->> ${tickets.priority})::numeric,
  case ${tickets.priority} ${sql.join(
    Object.entries(DEFAULT_SLA_HOURS).map(([p, h]) => sql`when ${p} then ${h}::numeric`),
    sql` `,
  )} end)`;

/** Open tickets are due `slaHours` after they were opened; the clock stops once resolved, closed or cancelled. */
const slaDueAt = sql<Date | null>`case when ${tickets.status} in ('acknowledged', 'in_progress', 'pending') then ${tickets.createdAt} + ${slaHours} * interval '1 hour' end`;
/** Priorities in order, so the queue can sort urgent first. */
const priorityRank = sql<number>`case ${tickets.priority} when 'urgent' then 4 when 'high' then 3 when 'medium' then 2 else 1 end`;

const selection = {
  id: tickets.id,
  accountId: tickets.accountId,
  accountName: accounts.name,
  category: tickets.category,
  subject: tickets.subject,
  status: tickets.status,
  priority: tickets.priority,
  assigneeUid: tickets.assigneeUid,
  createdByRole: tickets.createdByRole,
  slaDueAt,
  // The opening message, then the conversation after it (oldest first), and when it last moved.
  message: sql<string>`(select m.body from ticket_messages m where m.ticket_id = ${TICKET_ID} order by m.created_at, m.id limit 1)`,
  attachments: sql<
    TicketAttachment[]
  >`${attachmentsOf(sql`(select m.id from ticket_messages m where m.ticket_id = ${TICKET_ID} order by m.created_at, m.id limit 1)`)}`,
  messages: sql<
    TicketMessage[]
  >`(select coalesce(json_agg(json_build_object('id', x.id, 'authorRole', x.author_role, 'body', x.body, 'attachments', ${attachmentsOf(sql.raw("x.id"))}, 'createdAt', x.created_at) order by x.created_at, x.id), '[]'::json)
    from (select m.id, m.author_role, m.body, m.created_at from ticket_messages m where m.ticket_id = ${TICKET_ID} order by m.created_at, m.id offset 1) x)`,
  lastMessageAt: sql<Date>`(select max(m.created_at) from ticket_messages m where m.ticket_id = ${TICKET_ID})`,
  createdAt: tickets.createdAt,
  updatedAt: tickets.updatedAt,
};

export type TicketRow = Omit<
  Ticket,
  "assigned" | "slaDueAt" | "lastMessageAt" | "createdAt" | "updatedAt" | "messages" | "attachmentIds"
> & {
  ownerUid: string | null;
  assigneeUid: string | null;
  slaDueAt: Date | string | null;
  lastMessageAt: Date | string;
  messages: (Omit<TicketMessage, "createdAt"> & { createdAt: string })[];
  createdAt: Date;
  updatedAt: Date;
};

const iso = (value: Date | string) => new Date(value).toISOString();

/** Tickets with their account and conversation; a subscriber's are those of accounts they hold. */
export const ticketsModule: DomainModule<TicketRow> = {
  source: tableSource({
    table: tickets,
    selection,
    account: tickets.accountId,
    joins: (query) => query.innerJoin(operators, eq(tickets.operatorCode, operators.code)),
    columns: {
      status: tickets.status,
      priority: tickets.priority,
      category: tickets.category,
      accountId: tickets.accountId,
      assigned: sql`(${tickets.assigneeUid} is not null)`,
      createdAt: tickets.createdAt,
      lastMessageAt: selection.lastMessageAt,
      slaDueAt,
    },
    sortColumns: { priority: priorityRank },
    search: (q) => ilike(tickets.subject, `%${escapeLike(q)}%`),
    toRecord: ({ assigneeUid, ...row }) => ({
      ...withoutOwner(row),
      assigned: assigneeUid !== null,
      attachmentIds: row.attachments.map((file) => file.id),
      slaDueAt: row.slaDueAt ? iso(row.slaDueAt) : null,
      lastMessageAt: iso(row.lastMessageAt),
      messages: row.messages.map((m) => ({ ...m, createdAt: iso(m.createdAt) })),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
  }),
  writer: {
    /** Opens a ticket on an account the writer may use (checked by the factory), with its opening message. */
    async create(ctx, body) {
      const category = body.category as TicketCategory;
      const [ticket] = await ctx.tx
        .insert(tickets)
        .values({
          operatorCode: ctx.principal.operator,
          accountId: body.accountId as string,
          category,
          subject: String(body.subject).trim(),
          priority: DEFAULT_PRIORITY[category],
          createdBy: ctx.principal.uid,
          createdByRole: ctx.principal.role,
        })
        .returning({ id: tickets.id });
      const [opening] = await ctx.tx
        .insert(ticketMessages)
        .values({
          ticketId: ticket!.id,
          authorUid: ctx.principal.uid,
          authorRole: ctx.principal.role,
          body: String(body.message).trim(),
        })
        .returning({ id: ticketMessages.id });
      await attachFiles(ctx.tx, ctx.principal, opening!.id, (body.attachmentIds as string[] | undefined) ?? []);
      return ticket!.id;
    },
  },
};
