import { sql, type AnyColumn } from "drizzle-orm";
import { orders } from "../../db/schema";

/**
 * The day a line's scheduled cancellation ends it (its waiting `terminate` order's `scheduledFor`, as
 * an ISO date), null when none waits. One correlated subquery on orders_line_idx inside the lines
 * query, so a list of lines costs no query per row; plain SQL with no parameters, so prepared reads
 * (server/engine/preparedRead.ts) keep it.
 */
export const cancelsOnOf = (lineId: AnyColumn) =>
  sql<
    string | null
  >`(select to_char(${orders.scheduledFor} at time zone 'UTC', 'YYYY-MM-DD') from ${orders} where ${orders.lineId} = ${lineId} and ${orders.type} = 'terminate' and ${orders.state} in ('acknowledged', 'in_progress') and ${orders.scheduledFor} is not null order by ${orders.scheduledFor} limit 1)`;
