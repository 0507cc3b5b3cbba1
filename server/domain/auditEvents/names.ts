import { sql } from "drizzle-orm";

// The names an audit row points at, looked up when it is read (the row itself keeps ids: a person
// renamed later reads with the new name). Spelled out in SQL: drizzle leaves the columns of a
// one-table select unqualified, and `operator_code` is in every table, so each is qualified here.
// Every lookup stays inside the row's operator.

const SAME_OPERATOR = "operator_code = audit_events.operator_code";

/** A staff member by uid: display name, else email. */
const staffName = (uid: string) =>
  `(select coalesce(s.display_name, s.email) from staff_members s where s.uid = ${uid} and s.${SAME_OPERATOR})`;
const staffEmail = (uid: string) => `(select s.email from staff_members s where s.uid = ${uid} and s.${SAME_OPERATOR})`;
/** A subscriber by uid: the name (and email) on their first account. */
const holderColumn = (column: "name" | "email", uid: string) =>
  `(select a.${column} from accounts a where a.owner_uid = ${uid} and a.${SAME_OPERATOR} order by a.created_at, a.id limit 1)`;
const personName = (uid: string) => `coalesce(${staffName(uid)}, ${holderColumn("name", uid)})`;

/** Null for the system (nightly jobs, payment gateways), which has no uid. */
export const actorNameSql = sql<string | null>`${sql.raw(personName("audit_events.actor_uid"))}`;
export const actorEmailSql = sql<
  string | null
>`${sql.raw(`coalesce(${staffEmail("audit_events.actor_uid")}, ${holderColumn("email", "audit_events.actor_uid")})`)}`;

/**
 * The target's id as a uuid only when it is one ("row 3" or a Firebase uid is not): the lookups below
 * go by primary key, and never fail on a cast.
 */
const TARGET_UUID =
  "(case when audit_events.target_id ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then audit_events.target_id::uuid end)";

/**
 * What people call a record of each audited type: the column of its declaration's `recordTitle`
 * (src/resources), read raw; the viewer formats it by that field's kind ((202) 555-0101, a
 * translated order type). Types without a telling title (a top-up, a voucher batch) are named by
 * their type alone.
 */
const TITLE_OF: Record<string, string> = {
  lines: "select t.msisdn from lines t",
  invoices: "select t.number from invoices t",
  accounts: "select t.name from accounts t",
  plans: "select t.name from plans t",
  "add-ons": "select t.name from add_ons t",
  tickets: "select t.subject from tickets t",
  orders: "select t.type from orders t",
  "payment-methods": "select t.last4 from payment_methods t",
  files: "select t.name from stored_files t",
  "bulk-jobs": "select t.kind from bulk_jobs t",
  approvals: "select a.name from approvals t join accounts a on a.id = t.account_id",
};

const branches = Object.entries(TITLE_OF).map(
  ([type, select]) => `when '${type}' then (${select} where t.id = ${TARGET_UUID} and t.${SAME_OPERATOR})`,
);

export const targetTitleSql = sql<string | null>`${sql.raw(
  `(case audit_events.target_type ${branches.join(" ")} when 'user' then ${personName("audit_events.target_id")} when 'staff_member' then ${staffName("audit_events.target_id")} end)`,
)}`;
