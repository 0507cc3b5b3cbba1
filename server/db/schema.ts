import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ACCOUNT_STATUSES } from "../../src/resources/accounts";
import { ROLES } from "../../src/resources/define";
import { LINE_STATUSES, SIM_TYPES, SUSPEND_REASONS } from "../../src/resources/lines";
import { NOTIFICATION_KINDS } from "../../src/resources/notifications";
import { ORDER_EFFECTIVE, ORDER_STATES, ORDER_TYPES, type OrderStep } from "../../src/resources/orders";
import { PLAN_KINDS, PLAN_STATUSES } from "../../src/resources/plans";
import { STAFF_ROLES } from "../../src/resources/staff";

// Enums come from the resource declarations (src/resources), so the API and the tables agree.
const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", "));

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

export const operators = pgTable("operators", {
  code: text("code").primaryKey(),
  name: text("name").notNull(),
  currency: text("currency").notNull(),
  timezone: text("timezone").notNull(),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
  ...timestamps,
});

export const plans = pgTable(
  "plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: PLAN_KINDS }).notNull(),
    status: text("status", { enum: PLAN_STATUSES }).notNull().default("draft"),
    priceAmount: integer("price_amount").notNull(),
    currency: text("currency").notNull(),
    period: text("period", { enum: ["month"] }).notNull().default("month"),
    dataMb: integer("data_mb"),
    voiceMinutes: integer("voice_minutes"),
    sms: integer("sms"),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("plans_operator_code_uq").on(t.operatorCode, t.code),
    index("plans_operator_price_idx").on(t.operatorCode, t.priceAmount),
    check("plans_price_nonnegative", sql`${t.priceAmount} >= 0`),
  ],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    ownerUid: text("owner_uid"),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    type: text("type", { enum: PLAN_KINDS }).notNull(),
    status: text("status", { enum: ACCOUNT_STATUSES }).notNull().default("active"),
    address: jsonb("address").$type<Record<string, string>>(),
    ...timestamps,
  },
  (t) => [
    index("accounts_owner_idx").on(t.operatorCode, t.ownerUid),
    index("accounts_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
  ],
);

export const lines = pgTable(
  "lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    accountId: uuid("account_id").notNull().references(() => accounts.id),
    msisdn: text("msisdn").notNull(),
    iccid: text("iccid").notNull(),
    simType: text("sim_type", { enum: SIM_TYPES }).notNull(),
    planId: uuid("plan_id").notNull().references(() => plans.id),
    status: text("status", { enum: LINE_STATUSES }).notNull().default("pending"),
    suspendReason: text("suspend_reason", { enum: SUSPEND_REASONS }),
    cycleDay: integer("cycle_day").notNull(),
    /** While true, port-out PINs and SIM swaps are refused. */
    numberLocked: boolean("number_locked").notNull().default(false),
    /** scrypt hash of the last port-out PIN (the PIN is shown once, never stored). */
    portOutPinHash: text("port_out_pin_hash"),
    portOutPinExpiresAt: timestamp("port_out_pin_expires_at", { withTimezone: true, mode: "date" }),
    /** The SIM's PUK, encrypted (server/lib/secretBox.ts): revealed on request, audited. */
    pukCipher: text("puk_cipher"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("lines_operator_msisdn_uq").on(t.operatorCode, t.msisdn),
    uniqueIndex("lines_iccid_uq").on(t.iccid),
    index("lines_account_idx").on(t.accountId),
    // Staff search by any part of a number: trigram index keeps "contains" fast at scale.
    index("lines_msisdn_trgm_idx").using("gin", sql`${t.msisdn} gin_trgm_ops`),
    check("lines_cycle_day_range", sql`${t.cycleDay} between 1 and 28`),
    check("lines_suspend_reason_only_when_suspended", sql`(${t.status} = 'suspended') = (${t.suspendReason} is not null)`),
  ],
);

/** Who did what to which record, with the state before and after. Append-only: a trigger refuses UPDATE and DELETE. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull(),
    actorUid: text("actor_uid"),
    actorRole: text("actor_role"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    reason: text("reason"),
    requestId: text("request_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("audit_events_operator_created_idx").on(t.operatorCode, t.createdAt.desc())],
);

/** The operator's care agents and admins; Firebase custom claims carry the same role. */
export const staffMembers = pgTable(
  "staff_members",
  {
    uid: text("uid").primaryKey(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    email: text("email").notNull(),
    displayName: text("display_name"),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    disabled: boolean("disabled").notNull().default(false),
    invitedBy: text("invited_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("staff_members_operator_email_uq").on(t.operatorCode, sql`lower(${t.email})`),
    check("staff_members_role_valid", sql`${t.role} in ('agent', 'admin')`),
  ],
);

/** First responses of POSTs sent with an Idempotency-Key, replayed for the same caller and key. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    key: text("key").notNull(),
    actorUid: text("actor_uid").notNull(),
    route: text("route").notNull(),
    /** sha256 of the request body, so the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    response: jsonb("response").$type<unknown>(),
    /** null while the first request is still running. */
    status: integer("status"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.actorUid, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Records of every resource declared without a domain module of its own (src/resources), served by
 * the generic API. `data` holds the declared fields; the declaration's `indexes` become expression
 * indexes on it (server/generic/documentIndexes.ts). `owner_uid` is the subscriber who owns the
 * record, resolved at write time from the declaration's ownership.
 */
export const resourceDocuments = pgTable(
  "resource_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    resource: text("resource").notNull(),
    ownerUid: text("owner_uid"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by"),
    ...timestamps,
  },
  (t) => [
    index("resource_documents_list_idx").on(t.operatorCode, t.resource, t.createdAt.desc()),
    index("resource_documents_owner_idx").on(t.operatorCode, t.resource, t.ownerUid),
    check("resource_documents_data_is_object", sql`jsonb_typeof(${t.data}) = 'object'`),
  ],
);

/** Product orders (TMF622): every change to a line, with the timeline of its states. */
export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    accountId: uuid("account_id").notNull().references(() => accounts.id),
    lineId: uuid("line_id").references(() => lines.id),
    type: text("type", { enum: ORDER_TYPES }).notNull(),
    state: text("state", { enum: ORDER_STATES }).notNull().default("acknowledged"),
    effective: text("effective", { enum: ORDER_EFFECTIVE }).notNull().default("now"),
    scheduledFor: timestamp("scheduled_for", { withTimezone: true, mode: "date" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    timeline: jsonb("timeline").$type<OrderStep[]>().notNull().default([]),
    requestedBy: text("requested_by").notNull(),
    requestedByRole: text("requested_by_role", { enum: ROLES }).notNull(),
    reason: text("reason"),
    ...timestamps,
  },
  (t) => [
    index("orders_operator_created_idx").on(t.operatorCode, t.createdAt.desc()),
    index("orders_account_idx").on(t.accountId, t.createdAt.desc()),
    index("orders_line_idx").on(t.lineId),
    // The scheduler's question: which acknowledged orders are due?
    index("orders_due_idx").on(t.scheduledFor).where(sql`${t.state} = 'acknowledged' and ${t.scheduledFor} is not null`),
    check("orders_state_valid", sql`${t.state} in (${inList(ORDER_STATES)})`),
    check("orders_type_valid", sql`${t.type} in (${inList(ORDER_TYPES)})`),
  ],
);

/** In-app notices, one per recipient (the inbox). */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull().references(() => operators.code),
    recipientUid: text("recipient_uid").notNull(),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    params: jsonb("params").$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    link: text("link"),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    index("notifications_recipient_idx").on(t.operatorCode, t.recipientUid, t.createdAt.desc()),
    index("notifications_unread_idx").on(t.operatorCode, t.recipientUid).where(sql`${t.readAt} is null`),
  ],
);

/**
 * Sliding-window rate limits shared by every backend instance (server/lib/rateLimits.ts): for one
 * limit and one key, the times of the allowed hits still in the window. Keys (phone numbers,
 * addresses, uids) are kept as hashes. A row whose newest hit left the window is deleted.
 */
export const rateLimitWindows = pgTable(
  "rate_limits",
  {
    limitName: text("limit_name").notNull(),
    keyHash: text("key_hash").notNull(),
    /** Epoch milliseconds of the allowed hits still in the window, oldest first. */
    hits: bigint("hits", { mode: "number" }).array().notNull(),
    /** When the newest hit leaves the window: from then on the row holds nothing and may go. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.limitName, t.keyHash] }), index("rate_limits_expires_idx").on(t.expiresAt)],
);
