import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { MEMBER_ROLES } from "#resources/accountMembers";
import { ACCOUNT_STATUSES } from "#resources/accounts";
import { ROLES } from "#resources/define";
import { LINE_STATUSES, SIM_TYPES, SUSPEND_REASONS } from "#resources/lines";
import { NOTIFICATION_KINDS } from "#resources/notifications";
import { ORDER_EFFECTIVE, ORDER_STATES, ORDER_TYPES, type OrderStep } from "#resources/orders";
import { PLAN_KINDS, PLAN_SHARING, PLAN_STATUSES } from "#resources/plans";
import { STAFF_ROLES } from "#resources/staff";
import { TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STATUSES } from "#resources/tickets";
import { ROAMING_ZONES, USAGE_TYPES } from "#resources/usage";
import { ADD_ON_KINDS, ADD_ON_STATUSES } from "#resources/addOns";
import { LEDGER_KINDS } from "#resources/ledgerEntries";
import type { Overage } from "#resources/overage";
import type { CatalogTranslations } from "#resources/catalogTranslations";
import { ACCOUNT_CHANGES } from "#resources/accountAlerts";
import { INVOICE_PAYMENT_STATUSES, INVOICE_STATUSES } from "#resources/invoices";
import { BULK_ITEM_STATUSES, BULK_JOB_KINDS, BULK_JOB_STATUSES } from "#resources/bulkJobs";
import { APPROVAL_KINDS, APPROVAL_STATUSES } from "#resources/approvals";
import { TOP_UP_REFUND_STATES, TOP_UP_STATUSES } from "#resources/topUps";
import { ACCOUNT_HOLDER_TYPES, CARD_BRANDS, PAYMENT_METHOD_TYPES } from "#resources/paymentMethods";

/** Where one sending of a port-in to the number portability exchange stands (server/domain/porting). */
export const PORT_IN_SUBMISSION_STATUSES = ["queued", "sent", "accepted", "rejected"] as const;

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
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: PLAN_KINDS }).notNull(),
    status: text("status", { enum: PLAN_STATUSES }).notNull().default("draft"),
    priceAmount: integer("price_amount").notNull(),
    currency: text("currency").notNull(),
    period: text("period", { enum: ["month"] })
      .notNull()
      .default("month"),
    dataMb: integer("data_mb"),
    voiceMinutes: integer("voice_minutes"),
    sms: integer("sms"),
    features: jsonb("features").$type<string[]>().notNull().default([]),
    /** The name and features in other languages than the operator's default (issue 25): { es: { name, features } }. */
    translations: jsonb("translations").$type<CatalogTranslations>().notNull().default({}),
    /** What each usage type costs past the allowance, with roaming zone rates (src/resources/overage.ts); null = capped for every type. */
    overage: jsonb("overage").$type<Overage>(),
    /** 'pool': `dataMb` is one allowance shared by every line of an account on the plan, and `priceAmount` is per line (migration 0037). */
    sharing: text("sharing", { enum: PLAN_SHARING }).notNull().default("none"),
    /**
     * A price change not yet paid by every line: a line pays it from its first cycle starting after
     * `priceChangedAt` (server/domain/plans/priceChange.ts); until then, `priceAmount`.
     */
    pendingPriceAmount: integer("pending_price_amount"),
    priceChangedAt: timestamp("price_changed_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("plans_operator_code_uq").on(t.operatorCode, t.code),
    index("plans_operator_price_idx").on(t.operatorCode, t.priceAmount),
    check("plans_price_nonnegative", sql`${t.priceAmount} >= 0`),
    check("plans_pending_price_nonnegative", sql`${t.pendingPriceAmount} is null or ${t.pendingPriceAmount} >= 0`),
    check("plans_pending_price_pair", sql`(${t.pendingPriceAmount} is null) = (${t.priceChangedAt} is null)`),
    check("plans_translations_object", sql`jsonb_typeof(${t.translations}) = 'object'`),
    check("plans_overage_object", sql`${t.overage} is null or jsonb_typeof(${t.overage}) = 'object'`),
    check("plans_sharing_valid", sql`${t.sharing} in ('none', 'pool')`),
  ],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    ownerUid: text("owner_uid"),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    type: text("type", { enum: PLAN_KINDS }).notNull(),
    status: text("status", { enum: ACCOUNT_STATUSES }).notNull().default("active"),
    address: jsonb("address").$type<Record<string, string>>(),
    /**
     * Prepaid balance in the operator currency's minor units: the sum of the account's ledger
     * entries, kept by the ledger's insert trigger only (another UPDATE of it is refused). Postpaid: 0.
     */
    balanceAmount: integer("balance_amount").notNull().default(0),
    /** Postpaid autopay: the saved card a new bill is charged to (null = autopay off). */
    autopayPaymentMethodId: uuid("autopay_payment_method_id").references((): AnyPgColumn => paymentMethods.id, {
      onDelete: "set null",
    }),
    ...timestamps,
  },
  (t) => [
    index("accounts_owner_idx").on(t.operatorCode, t.ownerUid),
    index("accounts_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
    // Care search finds accounts by their exact name once it chose the names (subscriber_names).
    // A name search's count and ranking read only this index (migration 0044 also includes the id).
    index("accounts_name_operator_idx").on(t.name, t.operatorCode),
    // Care search by the start of an address ("sam@ex…"): prefix LIKE on the lower-cased address.
    index("accounts_email_prefix_idx").using("btree", sql`lower(${t.email}) text_pattern_ops`),
    // The 360 lists every account of one person: the holder, or the account itself (migration 0034).
    index("accounts_person_idx").on(t.operatorCode, sql`coalesce(${t.ownerUid}, ${t.id}::text)`),
    check("accounts_balance_nonnegative", sql`${t.balanceAmount} >= 0`),
    check("accounts_balance_prepaid_only", sql`${t.type} = 'prepaid' or ${t.balanceAmount} = 0`),
  ],
);

/**
 * Every distinct account name with how many accounts bear it, kept in step with `accounts` by a
 * trigger (migration 0006). Typo-tolerant search compares the query with these few names (trigram
 * index) instead of a million accounts, then fetches the accounts of the closest names by equality.
 */
export const subscriberNames = pgTable(
  "subscriber_names",
  {
    name: text("name").primaryKey(),
    accounts: integer("accounts").notNull(),
  },
  (t) => [
    index("subscriber_names_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
    // Names that sound alike ("Smaht" for "Smith", which share too few trigrams): the Soundex code of
    // each word (name_sounds(), fuzzystrmatch, migration 0034), so a search finds every word's sound.
    index("subscriber_names_sounds_idx").using("gin", sql`name_sounds(${t.name})`),
  ],
);

export const lines = pgTable(
  "lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    msisdn: text("msisdn").notNull(),
    /** The number's digits only ("12025550103"): what care search matches any 4+ digits against. */
    msisdnDigits: text("msisdn_digits").generatedAlwaysAs(sql`regexp_replace(msisdn, '[^0-9]', '', 'g')`),
    /** Empty while a physical SIM is in the post (a pending new line, migration 0035). */
    iccid: text("iccid"),
    simType: text("sim_type", { enum: SIM_TYPES }).notNull(),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
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
    /** Prepaid: the start of the last cycle paid for (null: the cycle the line was created in). Migration 0024. */
    renewedCycleStart: date("renewed_cycle_start", { mode: "string" }),
    /** Prepaid, while in `grace`: the day the line is suspended unless a top-up covers the renewal. */
    graceEndsOn: date("grace_ends_on", { mode: "string" }),
    /** Prepaid: the cycle start a "balance will not cover your renewal" notice was last sent for. */
    renewalRemindedFor: date("renewal_reminded_for", { mode: "string" }),
    /** Off: usage stops at the allowance even where the plan has a rate past it (issue 24). */
    payAsYouGo: boolean("pay_as_you_go").notNull().default(true),
    /** The owner's monthly data cap of this line in MB (null: none); reached, the line's data stops until its next cycle (migration 0037). */
    dataCapMb: integer("data_cap_mb"),
    /** When the line was activated (billing starts then); null for lines active since before migration 0035. */
    activatedAt: timestamp("activated_at", { withTimezone: true, mode: "date" }),
    /** When the line was cancelled (its last cycle is still billed). Migration 0035. */
    terminatedAt: timestamp("terminated_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    // A terminated line's number and SIM are released (migration 0035): unique among the others only.
    uniqueIndex("lines_operator_msisdn_uq")
      .on(t.operatorCode, t.msisdn)
      .where(sql`${t.status} <> 'terminated'`),
    // Every line's number, terminated ones too: the usage ingest's lookup (migration 0046).
    index("lines_operator_msisdn_idx").on(t.operatorCode, t.msisdn),
    uniqueIndex("lines_iccid_uq")
      .on(t.iccid)
      .where(sql`${t.status} <> 'terminated'`),
    index("lines_account_idx").on(t.accountId),
    // Staff search by any part of a number: trigram index keeps "contains" fast at scale.
    index("lines_msisdn_trgm_idx").using("gin", sql`${t.msisdn} gin_trgm_ops`),
    index("lines_msisdn_digits_trgm_idx").using("gin", sql`${t.msisdnDigits} gin_trgm_ops`),
    // Staff search by the last digits of an ICCID (`like '%digits'`), migration 0034.
    index("lines_iccid_trgm_idx").using("gin", sql`${t.iccid} gin_trgm_ops`),
    // KPIs: new lines per day, and active or terminated (churned) lines, without scanning the table.
    index("lines_operator_created_idx").on(t.operatorCode, t.createdAt),
    index("lines_operator_status_updated_idx").on(t.operatorCode, t.status, t.updatedAt),
    check("lines_cycle_day_range", sql`${t.cycleDay} between 1 and 28`),
    check("lines_data_cap_nonnegative", sql`${t.dataCapMb} is null or ${t.dataCapMb} >= 0`),
    check(
      "lines_suspend_reason_only_when_suspended",
      sql`(${t.status} = 'suspended') = (${t.suspendReason} is not null)`,
    ),
    check("lines_grace_ends_only_in_grace", sql`(${t.status} = 'grace') = (${t.graceEndsOn} is not null)`),
    // The billing run finds lines whose grace ended without scanning the table.
    index("lines_operator_status_grace_idx").on(t.operatorCode, t.status, t.graceEndsOn),
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
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    email: text("email").notNull(),
    displayName: text("display_name"),
    role: text("role", { enum: STAFF_ROLES }).notNull(),
    disabled: boolean("disabled").notNull().default(false),
    invitedBy: text("invited_by"),
    /**
     * The admin, other than the inviter, who confirmed an invited member (issue 26): until then (or
     * 24 hours, as the operator's policy says) they decide no approval. Seeded staff (no inviter) need none.
     */
    confirmedBy: text("confirmed_by"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("staff_members_operator_email_uq").on(t.operatorCode, sql`lower(${t.email})`),
    check("staff_members_role_valid", sql`${t.role} in ('agent', 'admin')`),
    check(
      "staff_members_confirmed_by_another",
      sql`${t.confirmedBy} is null or (${t.confirmedBy} <> ${t.uid} and ${t.confirmedBy} is distinct from ${t.invitedBy})`,
    ),
    check("staff_members_confirmation_pair", sql`(${t.confirmedBy} is null) = (${t.confirmedAt} is null)`),
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
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
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
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
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
    index("orders_due_idx")
      .on(t.scheduledFor)
      .where(sql`${t.state} = 'acknowledged' and ${t.scheduledFor} is not null`),
    check("orders_state_valid", sql`${t.state} in (${inList(ORDER_STATES)})`),
    check("orders_type_valid", sql`${t.type} in (${inList(ORDER_TYPES)})`),
  ],
);

/**
 * Each time a port-in order is sent to the number portability exchange (the first time, and again
 * after each correction): the queue its sending job works from (`queued` until the exchange took it,
 * tried again on a backoff while the exchange is unreachable, so no order is lost), then the
 * exchange's request id its answer names (`sent`; sent again when unanswered for 30 minutes), then the answer (`accepted`/`rejected`, once:
 * a second answer finds it answered and changes nothing). Migration 0036.
 */
export const portInSubmissions = pgTable(
  "port_in_submissions",
  {
    /** Also the reference (and idempotency key) the exchange is sent, so a retried send is one request there. */
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    status: text("status", { enum: PORT_IN_SUBMISSION_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Why the last send failed (the exchange's status or the network error; never the request's content). */
    lastError: text("last_error"),
    exchangeRequestId: text("exchange_request_id"),
    /** The exchange's reason code and its own words, when it rejected the port. */
    rejectionCode: text("rejection_code"),
    rejectionText: text("rejection_text"),
    answeredAt: timestamp("answered_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    index("port_in_submissions_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('queued', 'sent')`),
    index("port_in_submissions_order_idx").on(t.orderId),
    uniqueIndex("port_in_submissions_request_uq").on(t.exchangeRequestId),
    check("port_in_submissions_status_valid", sql`${t.status} in (${inList(PORT_IN_SUBMISSION_STATUSES)})`),
  ],
);

export const NUMBER_STATUSES = ["free", "reserved", "assigned", "quarantined"] as const;

/**
 * The operator's numbers (issue 28, migration 0035): free, reserved for 15 minutes for the person who
 * picked it, assigned to a line, or quarantined for 90 days after it was released. An expired
 * reservation or quarantine counts as free (server/domain/numberInventory).
 */
export const numberInventory = pgTable(
  "number_inventory",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    msisdn: text("msisdn").notNull(),
    areaCode: text("area_code").notNull(),
    status: text("status", { enum: NUMBER_STATUSES }).notNull().default("free"),
    reservedBy: text("reserved_by"),
    reservedUntil: timestamp("reserved_until", { withTimezone: true, mode: "date" }),
    quarantinedUntil: timestamp("quarantined_until", { withTimezone: true, mode: "date" }),
    lineId: uuid("line_id").references(() => lines.id),
    ...timestamps,
  },
  (t) => [
    primaryKey({ name: "number_inventory_pk", columns: [t.operatorCode, t.msisdn] }),
    index("number_inventory_area_idx").on(t.operatorCode, t.areaCode, t.status),
    check("number_inventory_status_valid", sql`${t.status} in (${inList(NUMBER_STATUSES)})`),
  ],
);

/** In-app notices, one per recipient (the inbox). */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    recipientUid: text("recipient_uid").notNull(),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    params: jsonb("params").$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    link: text("link"),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    index("notifications_recipient_idx").on(t.operatorCode, t.recipientUid, t.createdAt.desc()),
    index("notifications_unread_idx")
      .on(t.operatorCode, t.recipientUid)
      .where(sql`${t.readAt} is null`),
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

/**
 * Usage records from the network's mediation (immutable). Keyed by mediation's own record id per
 * operator, so a replayed batch inserts nothing. `cycle_start` is the first day of the line's billing
 * cycle the record falls in, fixed at ingest. No foreign key to lines: lines are never deleted, and
 * a per-row check would cost a third of the ingest rate; ingest only stores numbers it matched.
 */
export const usageRecords = pgTable(
  "usage_records",
  {
    operatorCode: text("operator_code").notNull(),
    id: text("id").notNull(),
    lineId: uuid("line_id").notNull(),
    type: text("type", { enum: USAGE_TYPES }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
    quantity: integer("quantity").notNull(),
    roamingZone: text("roaming_zone", { enum: ROAMING_ZONES }),
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // Partitioned by month of started_at (migration 0040), so the key holds it too.
    primaryKey({ columns: [t.operatorCode, t.id, t.startedAt] }),
    index("usage_records_line_started_idx").on(t.lineId, t.startedAt.desc()),
    check("usage_records_quantity_nonnegative", sql`${t.quantity} >= 0`),
  ],
);

/**
 * A line's usage per day (UTC) and type within a cycle, for the chart: kept in step with usage_records
 * by the ingest (migration 0041); partitioned by month of cycle_start (0042, hand-written DDL).
 */
export const usageDaily = pgTable(
  "usage_daily",
  {
    lineId: uuid("line_id").notNull(),
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    day: date("day", { mode: "string" }).notNull(),
    type: text("type", { enum: USAGE_TYPES }).notNull(),
    /** MB, seconds or messages. */
    quantity: bigint("quantity", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.cycleStart, t.day, t.type] })],
);

/** How much of each type a line used in one cycle: kept in step with usage_records in the ingest's transaction. */
export const usageCounters = pgTable(
  "usage_counters",
  {
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id),
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    type: text("type", { enum: USAGE_TYPES }).notNull(),
    /** MB, seconds or messages. */
    used: bigint("used", { mode: "number" }).notNull().default(0),
    /** The start time of the newest record counted (the meter's "as of"). */
    lastRecordAt: timestamp("last_record_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Of `used`, what went past the allowance (charged or capped): it never counts against an allowance again. */
    overAllowance: bigint("over_allowance", { mode: "number" }).notNull().default(0),
    /** The allowance (records' unit; null = unlimited) the last batch was measured against: the upsert's conflict branch reads it. */
    ratedAllowance: bigint("rated_allowance", { mode: "number" }),
    /** What the last batch that moved this counter took past the allowance (the ingest's upsert returns it to the rating). */
    batchOver: bigint("batch_over", { mode: "number" }).notNull().default(0),
    /** Whether the last batch measured it against another allowance than the batch before (migration 0047): the alerts offer every threshold again. */
    allowanceMoved: boolean("allowance_moved").notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.cycleStart, t.type] }),
    check("usage_counters_over_allowance_range", sql`${t.overAllowance} >= 0 and ${t.overAllowance} <= ${t.used}`),
  ],
);

/**
 * Usage rated past the allowance, per line, cycle, type and zone ("home" or a roaming zone): the
 * quantity charged and the whole units paid for, so a unit started in one batch is not paid twice.
 */
export const usageOverage = pgTable(
  "usage_overage",
  {
    lineId: uuid("line_id").notNull(), // no foreign key: see migration 0023
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    type: text("type", { enum: USAGE_TYPES }).notNull(),
    zone: text("zone").notNull(),
    quantity: bigint("quantity", { mode: "number" }).notNull().default(0),
    units: bigint("units", { mode: "number" }).notNull().default(0),
    amount: bigint("amount", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.cycleStart, t.type, t.zone] }),
    check("usage_overage_nonnegative", sql`${t.quantity} >= 0 and ${t.units} >= 0 and ${t.amount} >= 0`),
    check("usage_overage_zone_valid", sql`${t.zone} in ('home', 'canada_mexico', 'europe', 'rest_of_world')`),
  ],
);

/** Why a line's usage type is barred for a cycle: the plan has no rate, the prepaid balance ran out, or pay-as-you-go is off. */
export const CAP_REASONS = ["plan", "balance", "pay_as_you_go", "pool", "line_cap"] as const;

/** A line's usage types barred in one cycle (a new cycle starts uncapped): lifted by a credit, an add-on or pay-as-you-go. */
export const usageCaps = pgTable(
  "usage_caps",
  {
    lineId: uuid("line_id").notNull(), // no foreign key: see migration 0023
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    type: text("type", { enum: USAGE_TYPES }).notNull(),
    reason: text("reason", { enum: CAP_REASONS }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.cycleStart, t.type] }),
    check("usage_caps_type_valid", sql`${t.type} in ('data', 'voice', 'sms')`),
    check("usage_caps_reason_valid", sql`${t.reason} in ('plan', 'balance', 'pay_as_you_go', 'pool', 'line_cap')`),
  ],
);

/** What the lines of an account on a shared plan drew from its data allowance in one cycle, in MB (migration 0037). */
export const usagePools = pgTable(
  "usage_pools",
  {
    accountId: uuid("account_id").notNull(), // no foreign key: see migration 0023
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    used: bigint("used", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.cycleStart] }),
    check("usage_pools_used_nonnegative", sql`${t.used} >= 0`),
  ],
);

/** Allowance alerts sent (80 % and 100 %): one per line, cycle, type and threshold, ever. */
export const usageAlerts = pgTable(
  "usage_alerts",
  {
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id),
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    type: text("type", { enum: USAGE_TYPES }).notNull(),
    threshold: integer("threshold").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.cycleStart, t.type, t.threshold] }),
    check("usage_alerts_threshold", sql`${t.threshold} in (80, 100)`),
  ],
);

/** Shared pool alerts sent (issue 28): one per account, cycle and threshold of its pooled data, ever. */
export const usagePoolAlerts = pgTable(
  "usage_pool_alerts",
  {
    accountId: uuid("account_id").notNull(), // no foreign key: see migration 0023
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    threshold: integer("threshold").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.cycleStart, t.threshold] }),
    check("usage_pool_alerts_threshold", sql`${t.threshold} in (80, 100)`),
  ],
);

/** A line's own monthly limit reached (issue 28): told once per line and cycle, however often it is raised and reached again. */
export const usageCapAlerts = pgTable(
  "usage_cap_alerts",
  {
    lineId: uuid("line_id").notNull(), // no foreign key: see migration 0023
    cycleStart: date("cycle_start", { mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.cycleStart] })],
);

/** A subscriber's choices of how alerts reach them beyond the inbox (which they always get). */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    uid: text("uid").notNull(),
    usageAlertsByEmail: boolean("usage_alerts_by_email").notNull().default(false),
    usageAlertsBySms: boolean("usage_alerts_by_sms").notNull().default(false),
    /** The 100 % alert (allowance used up); the two columns above are the 80 % warning's. */
    usageLimitByEmail: boolean("usage_limit_by_email").notNull().default(false),
    usageLimitBySms: boolean("usage_limit_by_sms").notNull().default(false),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.operatorCode, t.uid] })],
);

/**
 * Emails and SMS to send, written in the transaction of what caused them and delivered afterwards
 * (locally: logged), so a message is never sent for a change that rolled back, nor lost by a crash.
 */
export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    channel: text("channel", { enum: ["email", "sms"] }).notNull(),
    recipient: text("recipient").notNull(),
    kind: text("kind").notNull(),
    params: jsonb("params").$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    /** The language the message is worded in, decided when it is enqueued (the recipient's saved one, issue 25). */
    locale: text("locale", { enum: ["en", "es"] })
      .notNull()
      .default("en"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("outbox_messages_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
    check("outbox_messages_channel", sql`${t.channel} in ('email', 'sms')`),
    check("outbox_messages_locale", sql`${t.locale} in ('en', 'es')`),
  ],
);

/**
 * Every movement of money on an account (top-up, charge, adjustment, refund, reversal). Append-only:
 * triggers refuse UPDATE, DELETE and TRUNCATE; an insert trigger moves the prepaid balance in the
 * same statement and records it in `balance_after`, so balance = sum of entries by construction.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    kind: text("kind", { enum: LEDGER_KINDS }).notNull(),
    /** Positive minor units; the kind gives the sign. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** The prepaid balance after this entry (set by the insert trigger); null on postpaid accounts. */
    balanceAfter: integer("balance_after"),
    reason: text("reason").notNull(),
    actorUid: text("actor_uid"),
    actorRole: text("actor_role").notNull(),
    idempotencyKey: text("idempotency_key"),
    referenceType: text("reference_type"),
    referenceId: text("reference_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("ledger_entries_account_idx").on(t.accountId, t.createdAt.desc()),
    index("ledger_entries_operator_idx").on(t.operatorCode, t.createdAt.desc()),
    uniqueIndex("ledger_entries_idempotency_uq")
      .on(t.accountId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    check("ledger_entries_amount_positive", sql`${t.amount} > 0`),
    check("ledger_entries_currency_iso", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("ledger_entries_kind_valid", sql`${t.kind} in (${inList(LEDGER_KINDS)})`),
    check("ledger_entries_reference_pair", sql`(${t.referenceType} is null) = (${t.referenceId} is null)`),
  ],
);

export interface InvoiceItem {
  /** What the line is: plan, add_on, proration, overage, return, other, credit (the old "charge" reads as other). */
  label: string;
  /** Overage: the usage type and roaming zone ("home" at home). */
  usageType?: string;
  roamingZone?: string;
  description: string;
  amount: number;
  /** The ledger charge this item bills, when it comes from one. */
  ledgerEntryId?: string;
}

/** Postpaid bills (TMF678): the unbilled charges of one cycle, taxed, with a due date. */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    number: text("number").notNull(),
    periodStart: text("period_start").notNull(),
    periodEnd: text("period_end").notNull(),
    currency: text("currency").notNull(),
    items: jsonb("items").$type<InvoiceItem[]>().notNull().default([]),
    subtotalAmount: integer("subtotal_amount").notNull(),
    taxAmount: integer("tax_amount").notNull(),
    totalAmount: integer("total_amount").notNull(),
    /** Tax rate applied, in basis points (825 = 8.25 %). */
    taxRateBps: integer("tax_rate_bps").notNull(),
    /** Overpayments of earlier bills deducted from this one (the "Credit from last bill" line). */
    creditAmount: integer("credit_amount").notNull().default(0),
    /** What settled payments paid of it so far (partial payments); amount due = total - paid. */
    paidAmount: integer("paid_amount").notNull().default(0),
    /** The account's previous bill's total, as issued (null: the first bill). */
    previousTotalAmount: integer("previous_total_amount"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull().default("issued"),
    issuedAt: timestamp("issued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    dueOn: text("due_on").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    voidReason: text("void_reason"),
    /** Autopay: failed tries so far and when the next one is due (null = none scheduled). */
    autopayAttempts: integer("autopay_attempts").notNull().default(0),
    autopayNextAt: timestamp("autopay_next_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    // One bill per account and cycle: closing a cycle twice bills it once.
    uniqueIndex("invoices_account_period_uq").on(t.accountId, t.periodStart),
    uniqueIndex("invoices_operator_number_uq").on(t.operatorCode, t.number),
    index("invoices_status_due_idx").on(t.status, t.dueOn),
    // KPIs: payments per day.
    index("invoices_operator_paid_idx")
      .on(t.operatorCode, t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    check(
      "invoices_amounts",
      sql`${t.subtotalAmount} >= 0 and ${t.taxAmount} >= 0 and ${t.creditAmount} >= 0 and ${t.totalAmount} = ${t.subtotalAmount} + ${t.taxAmount} - ${t.creditAmount} and ${t.totalAmount} >= 0`,
    ),
    check("invoices_paid_amount", sql`${t.paidAmount} between 0 and ${t.totalAmount}`),
    check("invoices_currency_iso", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("invoices_status_valid", sql`${t.status} in (${inList(INVOICE_STATUSES)})`),
    check("invoices_void_has_reason", sql`(${t.status} = 'void') = (${t.voidReason} is not null)`),
    check("invoices_paid_has_time", sql`(${t.status} = 'paid') = (${t.paidAt} is not null)`),
  ],
);

/** Which ledger charge a bill collected: a postpaid charge without a row here is unbilled. Each charge is billed once. */
export const invoiceCharges = pgTable(
  "invoice_charges",
  {
    ledgerEntryId: uuid("ledger_entry_id")
      .primaryKey()
      .references(() => ledgerEntries.id),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
  },
  (t) => [index("invoice_charges_invoice_idx").on(t.invoiceId)],
);

/** Batches of prepaid vouchers generated by an admin. */
export const voucherBatches = pgTable(
  "voucher_batches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    count: integer("count").notNull(),
    valueAmount: integer("value_amount").notNull(),
    currency: text("currency").notNull(),
    expiresOn: text("expires_on").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("voucher_batches_operator_idx").on(t.operatorCode, t.createdAt.desc()),
    check("voucher_batches_count_range", sql`${t.count} between 1 and 1000`),
    check("voucher_batches_value_positive", sql`${t.valueAmount} > 0`),
  ],
);

/** One voucher: its code only as a SHA-256 hash; redeemed at most once (the UPDATE that redeems it requires status unused). */
export const vouchers = pgTable(
  "vouchers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    batchId: uuid("batch_id")
      .notNull()
      .references(() => voucherBatches.id),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    codeHash: text("code_hash").notNull(),
    status: text("status", { enum: ["unused", "redeemed"] })
      .notNull()
      .default("unused"),
    redeemedAt: timestamp("redeemed_at", { withTimezone: true, mode: "date" }),
    redeemedAccountId: uuid("redeemed_account_id").references(() => accounts.id),
  },
  (t) => [
    uniqueIndex("vouchers_code_hash_uq").on(t.codeHash),
    index("vouchers_batch_idx").on(t.batchId),
    check("vouchers_status_valid", sql`${t.status} in ('unused', 'redeemed')`),
    check(
      "vouchers_redeemed_complete",
      sql`(${t.status} = 'redeemed') = (${t.redeemedAt} is not null and ${t.redeemedAccountId} is not null)`,
    ),
  ],
);

/**
 * What the portal keeps about a signed-in person beyond their accounts: their contact details and
 * their consent to the operator's third-party services (so a choice follows them to another device).
 */
export const subscriberProfiles = pgTable(
  "subscriber_profiles",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    uid: text("uid").notNull(),
    consent: jsonb("consent").$type<{ analytics: boolean; chat: boolean; decidedAt: string }>(),
    /** The profile page's contact details (name, email, phone, address, language); null until first saved. */
    details: jsonb("details").$type<Record<string, unknown>>(),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.operatorCode, t.uid] })],
);

/**
 * A subscriber's care PIN (issue 27): what customer care asks a caller for. Only its scrypt hash
 * with a per-PIN salt (server/lib/secretBox.ts), never the PIN; the check refuses anything else.
 */
export const carePins = pgTable(
  "care_pins",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    uid: text("uid").notNull(),
    pinHash: text("pin_hash").notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.operatorCode, t.uid] }),
    check("care_pins_pin_hash_scrypt", sql`${t.pinHash} like 'scrypt.%'`),
  ],
);

/** One enrolled second factor as the identity snapshot keeps it: never the full phone number. */
export interface SnapshotFactor {
  uid: string;
  factorId: string;
  phoneLast4: string | null;
}

/**
 * What the backend last saw of a user's identity (issue 27 item 4, server/domain/identityEvents):
 * the newest token checked (`iat`), the newest sign-in (`auth_time`), and the Admin SDK's user
 * record as it was then. Email and phone are kept in full: after a change they are the contact
 * points the account had before.
 */
export const identitySnapshots = pgTable(
  "identity_snapshots",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    uid: text("uid").notNull(),
    /** Seconds since the epoch, as in the token. */
    lastAuthTime: bigint("last_auth_time", { mode: "number" }).notNull(),
    lastIat: bigint("last_iat", { mode: "number" }).notNull(),
    email: text("email"),
    phone: text("phone"),
    /** Provider ids, sorted ("password", "phone", "google.com"). */
    providers: jsonb("providers").$type<string[]>().notNull(),
    mfaFactors: jsonb("mfa_factors").$type<SnapshotFactor[]>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.operatorCode, t.uid] })],
);

/**
 * "This wasn't me" links of account alerts (issue 27, migration 0033): whose account an alert was
 * about, which change, and only the SHA-256 of the link's token (server/domain/accountAlerts). A
 * link works until `expires_at` (7 days) and once (`used_at`).
 */
export const accountAlertLinks = pgTable(
  "account_alert_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    uid: text("uid").notNull(),
    change: text("change", { enum: ACCOUNT_CHANGES }).notNull(),
    /** The line the change was made to (SIM swap, port-out PIN, lock); null for changes to the sign-in. */
    lineId: uuid("line_id").references(() => lines.id),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_alert_links_token_hash_uq").on(t.tokenHash),
    index("account_alert_links_uid_idx").on(t.operatorCode, t.uid, t.createdAt),
    check("account_alert_links_change_valid", sql`${t.change} in (${inList(ACCOUNT_CHANGES)})`),
    check("account_alert_links_token_hash_sha256", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * Caller verification (issue 27 item 2): a staff member verified the person (a subscriber uid, not
 * an account) until `verified_until`; the "verified" access scope reads it (server/domain/tableSource.ts).
 */
export const callerVerifications = pgTable(
  "caller_verifications",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    agentUid: text("agent_uid").notNull(),
    subscriberUid: text("subscriber_uid").notNull(),
    verifiedUntil: timestamp("verified_until", { withTimezone: true, mode: "date" }).notNull(),
    method: text("method", { enum: ["pin", "sms-code", "override"] }).notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.operatorCode, t.agentUid, t.subscriberUid] }),
    index("caller_verifications_agent_idx").on(t.operatorCode, t.agentUid, t.verifiedUntil),
    check("caller_verifications_method", sql`${t.method} in ('pin', 'sms-code', 'override')`),
  ],
);

/** Wrong answers given for a person (whichever agent asked) and the lock the fifth one sets. */
export const callerVerificationAttempts = pgTable(
  "caller_verification_attempts",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    subscriberUid: text("subscriber_uid").notNull(),
    failedCount: integer("failed_count").notNull().default(0),
    windowStartedAt: timestamp("window_started_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.operatorCode, t.subscriberUid] }),
    check("caller_verification_attempts_failed_count", sql`${t.failedCount} >= 0`),
  ],
);

/** A one-time code sent by SMS to verify a caller: its scrypt hash only, one use, until `expires_at`. */
export const callerVerificationCodes = pgTable(
  "caller_verification_codes",
  {
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    agentUid: text("agent_uid").notNull(),
    subscriberUid: text("subscriber_uid").notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.operatorCode, t.agentUid, t.subscriberUid] }),
    check("caller_verification_codes_code_hash_scrypt", sql`${t.codeHash} like 'scrypt.%'`),
  ],
);

/**
 * Leads for the operator's CRM (Bitrix24 crm.lead.add), written in the same transaction as the
 * record they come from; the delivery worker sends them with backoff and dead-letters a lead
 * after the configured number of tries (server/domain/crm).
 */
export const crmOutbox = pgTable(
  "crm_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    /** What the lead is about: device_claim, contact_request, refund_claim. */
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id").notNull(),
    /** Bitrix24 lead fields (TITLE, NAME, PHONE, EMAIL, COMMENTS, SOURCE_ID, …), as sent. */
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "delivered", "dead"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastError: text("last_error"),
    /** The lead's id in Bitrix24 once delivered. */
    crmLeadId: text("crm_lead_id"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("crm_outbox_source_idx").on(t.operatorCode, t.sourceType, t.sourceId),
    index("crm_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check("crm_outbox_status_valid", sql`${t.status} in ('pending', 'delivered', 'dead')`),
  ],
);

/** Trouble tickets (TMF621): a subscriber's request to care about one of their accounts. */
export const tickets = pgTable(
  "tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    category: text("category", { enum: TICKET_CATEGORIES }).notNull(),
    subject: text("subject").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("acknowledged"),
    priority: text("priority", { enum: TICKET_PRIORITIES }).notNull(),
    /** The care agent working on it (a staff uid), once one took it. */
    assigneeUid: text("assignee_uid"),
    createdBy: text("created_by").notNull(),
    createdByRole: text("created_by_role", { enum: ROLES }).notNull(),
    /** When it reached resolved (the SLA clock stops there). */
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (t) => [
    // The queue: open tickets of the operator by priority and age.
    index("tickets_queue_idx").on(t.operatorCode, t.status, t.createdAt),
    index("tickets_account_idx").on(t.accountId, t.createdAt.desc()),
    check("tickets_status_valid", sql`${t.status} in (${inList(TICKET_STATUSES)})`),
    check("tickets_priority_valid", sql`${t.priority} in (${inList(TICKET_PRIORITIES)})`),
  ],
);

/** The conversation of a ticket: the opening message and every reply, by role. Append-only. */
export const ticketMessages = pgTable(
  "ticket_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => tickets.id),
    authorUid: text("author_uid").notNull(),
    authorRole: text("author_role", { enum: ROLES }).notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("ticket_messages_ticket_idx").on(t.ticketId, t.createdAt)],
);

/**
 * Files uploaded through the file store (server/files): ID documents, attachments to claims and
 * tickets. The bytes live in the configured store (local disk or Firebase Storage) under
 * `storage_key`; this row says whose they are and what they are (the type sniffed from the bytes).
 */
export const storedFiles = pgTable(
  "stored_files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    ownerUid: text("owner_uid").notNull(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    purpose: text("purpose", { enum: ["attachment", "id_document"] })
      .notNull()
      .default("attachment"),
    storageKey: text("storage_key").notNull(),
    ...timestamps,
  },
  (t) => [
    index("stored_files_owner_idx").on(t.operatorCode, t.ownerUid, t.createdAt.desc()),
    check("stored_files_size_positive", sql`${t.size} > 0`),
    check("stored_files_purpose_valid", sql`${t.purpose} in ('attachment', 'id_document')`),
  ],
);

/**
 * Files attached to a ticket's messages (the opening one or a reply): each file once, by the
 * message's writer. The bytes stay in the file store; whoever holds the ticket's account, and the
 * operator's staff, may download them. Erasing a file (privacy) drops its attachment with it.
 */
export const ticketAttachments = pgTable(
  "ticket_attachments",
  {
    messageId: uuid("message_id")
      .notNull()
      .references(() => ticketMessages.id),
    fileId: uuid("file_id")
      .notNull()
      .references(() => storedFiles.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.fileId] }), uniqueIndex("ticket_attachments_file_idx").on(t.fileId)],
);

/** Add-on offerings (data and roaming passes) of an operator's catalog: draft → active → retired. */
export const addOns = pgTable(
  "add_ons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ADD_ON_KINDS }).notNull(),
    roamingZone: text("roaming_zone", { enum: ROAMING_ZONES }),
    status: text("status", { enum: ADD_ON_STATUSES }).notNull().default("draft"),
    priceAmount: integer("price_amount").notNull(),
    currency: text("currency").notNull(),
    dataMb: integer("data_mb").notNull(),
    validityDays: integer("validity_days").notNull(),
    /** The name in other languages than the operator's default (issue 25): { es: { name } }. */
    translations: jsonb("translations").$type<CatalogTranslations>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("add_ons_operator_code_uq").on(t.operatorCode, t.code),
    check("add_ons_price_nonnegative", sql`${t.priceAmount} >= 0`),
    check("add_ons_status_valid", sql`${t.status} in (${inList(ADD_ON_STATUSES)})`),
    check("add_ons_translations_object", sql`jsonb_typeof(${t.translations}) = 'object'`),
    check("add_ons_zone_for_roaming", sql`(${t.kind} = 'roaming') = (${t.roamingZone} is not null)`),
  ],
);

/**
 * An add-on bought on a line: its allowance counts on the line's data meter from `startsAt` until
 * `expiresAt`; the expiry job then renews it (when `autoRenew`, charging again) or lets it expire.
 */
export const addOnPurchases = pgTable(
  "add_on_purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    addOnId: uuid("add_on_id")
      .notNull()
      .references(() => addOns.id),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    dataMb: integer("data_mb").notNull(),
    status: text("status", { enum: ["active", "expired"] })
      .notNull()
      .default("active"),
    autoRenew: boolean("auto_renew").notNull(),
    renewals: integer("renewals").notNull().default(0),
    startsAt: timestamp("starts_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (t) => [
    index("add_on_purchases_line_idx").on(t.lineId, t.expiresAt),
    // Pages of add-ons running out go by (expires_at, id) (migration 0045).
    index("add_on_purchases_due_at_idx")
      .on(t.expiresAt, t.id)
      .where(sql`${t.status} = 'active'`),
    check("add_on_purchases_status_valid", sql`${t.status} in ('active', 'expired')`),
  ],
);

/** Staff's background jobs over a selection of lines (bulk suspend / restore): progress kept here, work done by pg-boss. */
export const bulkJobs = pgTable(
  "bulk_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code").notNull(),
    kind: text("kind").notNull(),
    status: text("status").notNull().default("queued"),
    reason: text("reason").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull().default({}),
    total: integer("total").notNull(),
    done: integer("done").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdByRole: text("created_by_role").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("bulk_jobs_operator_created_idx").on(t.operatorCode, t.createdAt.desc()),
    index("bulk_jobs_status_idx").on(t.status),
    check("bulk_jobs_kind_valid", sql`${t.kind} in (${inList(BULK_JOB_KINDS)})`),
    check("bulk_jobs_status_valid", sql`${t.status} in (${inList(BULK_JOB_STATUSES)})`),
  ],
);

/** One item of a bulk job: a line and what became of it; a finished item is never redone. */
export const bulkJobItems = pgTable(
  "bulk_job_items",
  {
    jobId: uuid("job_id")
      .notNull()
      .references(() => bulkJobs.id),
    position: integer("position").notNull(),
    targetId: text("target_id").notNull(),
    /** An import row's values, as validated (the line to create). */
    data: jsonb("data").$type<Record<string, unknown>>(),
    status: text("status").notNull().default("pending"),
    error: text("error"),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.position] }),
    check("bulk_job_items_status_valid", sql`${t.status} in (${inList(BULK_ITEM_STATUSES)})`),
  ],
);

/**
 * Money moved by hand above the requester's bound, waiting for a second person (issue 12): an admin
 * other than the requester approves it (the ledger entry is posted then, once) or rejects it.
 */
export const approvals = pgTable(
  "approvals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    kind: text("kind", { enum: APPROVAL_KINDS }).notNull(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    reason: text("reason").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedByRole: text("requested_by_role").notNull(),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull().default("pending"),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    decisionReason: text("decision_reason"),
    ledgerEntryId: uuid("ledger_entry_id").references(() => ledgerEntries.id),
    ...timestamps,
  },
  (t) => [
    // The admins' queue: pending first, oldest first, per operator.
    index("approvals_operator_status_created_idx").on(t.operatorCode, t.status, t.createdAt),
    index("approvals_requested_by_idx").on(t.requestedBy, t.createdAt),
    check("approvals_amount_positive", sql`${t.amount} > 0`),
    check("approvals_kind_valid", sql`${t.kind} in (${inList(APPROVAL_KINDS)})`),
    check("approvals_status_valid", sql`${t.status} in (${inList(APPROVAL_STATUSES)})`),
    // The two-person rule, kept by the database too.
    check("approvals_decider_not_requester", sql`${t.decidedBy} is null or ${t.decidedBy} <> ${t.requestedBy}`),
    check("approvals_decided_when_not_pending", sql`(${t.status} = 'pending') = (${t.decidedBy} is null)`),
    check("approvals_entry_only_when_approved", sql`${t.ledgerEntryId} is null or ${t.status} = 'approved'`),
  ],
);

/**
 * Saved cards (issue 9 item 7): what the gateway told about a card (brand, last 4, expiry) and its
 * reference there; never a card number. At most one default per subscriber.
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    ownerUid: text("owner_uid").notNull(),
    gateway: text("gateway").notNull(),
    /** The gateway's reference of the saved card (pm_…). */
    gatewayMethodId: text("gateway_method_id").notNull(),
    /** A card or a US bank account (ACH, bills only; migration 0025). */
    type: text("type", { enum: PAYMENT_METHOD_TYPES }).notNull().default("card"),
    /** Cards only. */
    brand: text("brand", { enum: CARD_BRANDS }),
    /** The card's or the bank account's last 4 digits (an account number is never kept). */
    last4: text("last4").notNull(),
    expMonth: integer("exp_month"),
    expYear: integer("exp_year"),
    /** Bank accounts only: the bank's name (from the routing number, as the gateway told) and who holds it. */
    bankName: text("bank_name"),
    accountHolderType: text("account_holder_type", { enum: ACCOUNT_HOLDER_TYPES }),
    isDefault: boolean("is_default").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index("payment_methods_owner_idx").on(t.operatorCode, t.ownerUid),
    uniqueIndex("payment_methods_one_default_uq")
      .on(t.operatorCode, t.ownerUid)
      .where(sql`${t.isDefault}`),
    check("payment_methods_last4", sql`${t.last4} ~ '^[0-9]{4}$'`),
    check("payment_methods_exp_month", sql`${t.expMonth} between 1 and 12`),
    check("payment_methods_brand_valid", sql`${t.brand} in (${inList(CARD_BRANDS)})`),
    check("payment_methods_type_valid", sql`${t.type} in (${inList(PAYMENT_METHOD_TYPES)})`),
    check(
      "payment_methods_type_fields",
      sql`(${t.type} = 'card' and ${t.brand} is not null and ${t.expMonth} is not null and ${t.expYear} is not null) or (${t.type} = 'bank_account' and ${t.bankName} is not null and ${t.accountHolderType} in ('individual', 'company'))`,
    ),
  ],
);

/**
 * Card top-ups (issue 9 item 4): created → completed / failed / cancelled. The credit is the ledger
 * entry keyed `top-up:<id>` (posted once, whichever of the charge's answer and the webhook comes
 * first); `gateway_captured` on a failed or cancelled one makes a refund claimable.
 */
export const topUps = pgTable(
  "top_ups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: TOP_UP_STATUSES }).notNull().default("created"),
    refund: text("refund", { enum: TOP_UP_REFUND_STATES }).notNull().default("none"),
    gateway: text("gateway").notNull(),
    paymentMethodId: uuid("payment_method_id").references(() => paymentMethods.id, { onDelete: "set null" }),
    gatewayChargeId: text("gateway_charge_id"),
    gatewayCaptured: boolean("gateway_captured").notNull().default(false),
    failureReason: text("failure_reason"),
    createdBy: text("created_by").notNull(),
    /** The client's Idempotency-Key (created_by is the actor who sent it): a retry finds this top-up instead of charging again. */
    idempotencyKey: text("idempotency_key"),
    ...timestamps,
  },
  (t) => [
    index("top_ups_account_idx").on(t.accountId, t.createdAt.desc()),
    uniqueIndex("top_ups_idempotency_key_uq")
      .on(t.accountId, t.createdBy, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index("top_ups_operator_idx").on(t.operatorCode, t.createdAt.desc()),
    check("top_ups_amount_positive", sql`${t.amount} > 0`),
    check("top_ups_status_valid", sql`${t.status} in (${inList(TOP_UP_STATUSES)})`),
    check("top_ups_refund_valid", sql`${t.refund} in (${inList(TOP_UP_REFUND_STATES)})`),
    // A refund is claimed only for money the gateway took on a top-up that did not credit the balance.
    check(
      "top_ups_refund_only_captured",
      sql`${t.refund} = 'none' or (${t.gatewayCaptured} and ${t.status} in ('failed', 'cancelled'))`,
    ),
  ],
);

/** Gateway webhook events already handled, by their id: a replayed event is acknowledged and ignored. */
export const paymentWebhookEvents = pgTable(
  "payment_webhook_events",
  {
    gateway: text("gateway").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.gateway, t.eventId] })],
);

/**
 * Auto top-up settings (issue 9 item 5), one row per prepaid account: when a debit leaves the
 * balance below `threshold_amount`, a top-up of `amount` from the holder's default card is queued,
 * at most `max_per_month` times a calendar month of the operator's time zone.
 */
export const autoTopUpSettings = pgTable(
  "auto_top_up_settings",
  {
    accountId: uuid("account_id")
      .primaryKey()
      .references(() => accounts.id),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    enabled: boolean("enabled").notNull(),
    thresholdAmount: integer("threshold_amount").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    maxPerMonth: integer("max_per_month").notNull(),
    updatedBy: text("updated_by").notNull(),
    ...timestamps,
  },
  (t) => [
    check("auto_top_up_settings_threshold_positive", sql`${t.thresholdAmount} > 0`),
    check("auto_top_up_settings_amount_positive", sql`${t.amount} > 0`),
    check("auto_top_up_settings_max_per_month", sql`${t.maxPerMonth} between 1 and 31`),
  ],
);

export const AUTO_TOP_UP_STATES = ["queued", "submitted", "skipped"] as const;

/**
 * The queue of auto top-ups: a row is written by the debit's own transaction (`queued`), and the
 * `auto-top-ups.run` job turns it into a card top-up (`submitted`, with its `top_up_id`) or gives it
 * up (`skipped`, with the reason: no default card any more, gateway gone). `seq` numbers the month's
 * auto top-ups of an account: unique and within the cap the setting had, so the database itself
 * refuses a third of a cap of two, however many debits race.
 */
export const autoTopUps = pgTable(
  "auto_top_ups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    /** The calendar month it counts toward, `YYYY-MM`, in the operator's time zone (autoTopUps/queue.ts monthOf). */
    month: text("month").notNull(),
    seq: integer("seq").notNull(),
    maxPerMonth: integer("max_per_month").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: AUTO_TOP_UP_STATES }).notNull().default("queued"),
    topUpId: uuid("top_up_id").references(() => topUps.id),
    skipReason: text("skip_reason"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("auto_top_ups_month_seq_uq").on(t.accountId, t.month, t.seq),
    uniqueIndex("auto_top_ups_one_queued_uq")
      .on(t.accountId)
      .where(sql`${t.status} = 'queued'`),
    index("auto_top_ups_queued_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'queued'`),
    check("auto_top_ups_seq_within_cap", sql`${t.seq} between 1 and ${t.maxPerMonth}`),
    check("auto_top_ups_amount_positive", sql`${t.amount} > 0`),
    check("auto_top_ups_status_valid", sql`${t.status} in (${inList(AUTO_TOP_UP_STATES)})`),
    check("auto_top_ups_month_format", sql`${t.month} ~ '^[0-9]{4}-[0-9]{2}$'`),
  ],
);

/**
 * One card payment of a bill (by its holder, staff on their behalf, or autopay): created before the
 * gateway is called, settled once by its answer or its signed webhook (server/domain/invoicePayments/settle.ts).
 */
export const invoicePayments = pgTable(
  "invoice_payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: INVOICE_PAYMENT_STATUSES }).notNull().default("created"),
    via: text("via", { enum: ["manual", "autopay"] }).notNull(),
    /** card: settles at once; bank_account (ACH): pending until the gateway's webhook, and may be returned after. */
    methodType: text("method_type", { enum: PAYMENT_METHOD_TYPES }).notNull().default("card"),
    /** How much of it paid the bill once settled; the rest (the bill was paid or closed meanwhile) became an account credit. */
    appliedAmount: integer("applied_amount").notNull().default(0),
    gateway: text("gateway").notNull(),
    paymentMethodId: uuid("payment_method_id").references(() => paymentMethods.id, { onDelete: "set null" }),
    gatewayChargeId: text("gateway_charge_id"),
    failureReason: text("failure_reason"),
    createdBy: text("created_by").notNull(),
    /** The client's Idempotency-Key (created_by is the actor who sent it): a retry finds this payment instead of charging again. */
    idempotencyKey: text("idempotency_key"),
    ...timestamps,
  },
  (t) => [
    index("invoice_payments_invoice_idx").on(t.invoiceId, t.createdAt.desc()),
    uniqueIndex("invoice_payments_idempotency_key_uq")
      .on(t.invoiceId, t.createdBy, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    // Payments still waiting for the gateway: what they may pay is reserved from the bill's amount due (0025).
    index("invoice_payments_open_idx")
      .on(t.invoiceId)
      .where(sql`${t.status} = 'created'`),
    check("invoice_payments_amount_positive", sql`${t.amount} > 0`),
    check("invoice_payments_status_valid", sql`${t.status} in (${inList(INVOICE_PAYMENT_STATUSES)})`),
    check("invoice_payments_method_type_valid", sql`${t.methodType} in (${inList(PAYMENT_METHOD_TYPES)})`),
    check("invoice_payments_applied_amount", sql`${t.appliedAmount} between 0 and ${t.amount}`),
  ],
);

/**
 * Overpayments kept for the account (migration 0025): a bill payment that settled for more than the
 * bill still owed (or after the bill was closed) leaves the rest here, and the account's next bill
 * deducts it as "Credit from last bill" (applied_invoice_id). A credit of a payment returned before
 * it was used is cancelled.
 */
export const accountCredits = pgTable(
  "account_credits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    reason: text("reason").notNull(),
    sourcePaymentId: uuid("source_payment_id").references(() => invoicePayments.id),
    sourceInvoiceId: uuid("source_invoice_id"),
    appliedInvoiceId: uuid("applied_invoice_id").references(() => invoices.id),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_credits_source_payment_uq")
      .on(t.sourcePaymentId)
      .where(sql`${t.sourcePaymentId} is not null`),
    index("account_credits_open_idx")
      .on(t.accountId)
      .where(sql`${t.appliedInvoiceId} is null and ${t.cancelledAt} is null`),
    check("account_credits_amount_positive", sql`${t.amount} > 0`),
    check("account_credits_currency_iso", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("account_credits_used_once", sql`${t.appliedInvoiceId} is null or ${t.cancelledAt} is null`),
  ],
);

/**
 * The access log (issue 27 item 3): which staff member read which section of a subscriber's data,
 * and when; at most one row per (operator, staff, subscriber, section) in 10 minutes
 * (server/domain/accessLog). The subscriber reads theirs at `/me/access-log`; admins in the audit viewer.
 */
export const staffReads = pgTable(
  "staff_reads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    staffUid: text("staff_uid").notNull(),
    /** The role at the time of the read: it names the team the subscriber is shown. */
    staffRole: text("staff_role", { enum: STAFF_ROLES }).notNull(),
    subscriberUid: text("subscriber_uid").notNull(),
    /** The resource read (its declared name), or a section of the 360 no resource serves ("identity"). */
    section: text("section").notNull(),
    requestId: text("request_id"),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("staff_reads_subscriber_idx").on(t.operatorCode, t.subscriberUid, t.readAt.desc(), t.id.desc()),
    index("staff_reads_window_idx").on(t.operatorCode, t.staffUid, t.subscriberUid, t.section, t.readAt.desc()),
    index("staff_reads_read_at_idx").on(t.operatorCode, t.readAt.desc(), t.id.desc()),
    check("staff_reads_staff_role_valid", sql`${t.staffRole} in ('agent', 'admin')`),
  ],
);

/**
 * People on an account besides its holder (issue 28, migration 0038): a `member` reaches the lines
 * of `account_member_lines`, a `manager` the whole account but its payment methods. Invited by email
 * with a link (only its SHA-256 kept, valid until `expires_at`, once); accepting sets `member_uid`.
 * Removing deletes the row (the audit trail keeps it): access is read from these rows per request
 * (server/domain/tableSource.ts), so it ends at once on every backend instance.
 */
export const accountMembers = pgTable(
  "account_members",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    operatorCode: text("operator_code")
      .notNull()
      .references(() => operators.code),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    /** As invited, lower case. */
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    /** Who accepted; null while invited. */
    memberUid: text("member_uid"),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    invitedBy: text("invited_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("account_members_token_hash_uq").on(t.tokenHash),
    uniqueIndex("account_members_email_uq").on(t.accountId, t.email),
    uniqueIndex("account_members_uid_uq").on(t.accountId, t.memberUid),
    index("account_members_member_idx").on(t.operatorCode, t.memberUid, t.role),
    check("account_members_role_valid", sql`${t.role} in (${inList(MEMBER_ROLES)})`),
    check("account_members_token_hash_sha256", sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** The lines a `member` of account_members reaches (deleted with the member). */
export const accountMemberLines = pgTable(
  "account_member_lines",
  {
    memberId: uuid("member_id")
      .notNull()
      .references(() => accountMembers.id, { onDelete: "cascade" }),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.lineId] }), index("account_member_lines_line_idx").on(t.lineId)],
);
