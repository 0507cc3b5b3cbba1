import { z } from "zod";
import { defineResource } from "./define";
import { e164Schema, idSchema, isoDateTime } from "./common";
import { ACCOUNT_STATUSES } from "./accounts";
import { iccidSchema, LINE_STATUSES, SIM_TYPES } from "./lines";
import { PLAN_KINDS } from "./plans";

/** A line as care search shows it beside its account: enough to recognise it, never its secrets. */
export const subscriberLineSchema = z.object({
  id: idSchema,
  msisdn: e164Schema,
  iccid: iccidSchema.nullable(),
  simType: z.enum(SIM_TYPES),
  status: z.enum(LINE_STATUSES),
});
export type SubscriberLine = z.output<typeof subscriberLineSchema>;

/**
 * One account found by care search, with its lines: those the search matched when it matched lines
 * (a number, an ICCID, a line id), otherwise all of them (at most 20; `lineCount` tells how many).
 */
export const subscriberSchema = z.object({
  id: idSchema,
  /**
   * The person the account belongs to: its holder's uid, or the account's own id while no one holds
   * it. The 360 shows every account of one person (`filter[personId]=…`); notes are kept per person.
   */
  personId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  type: z.enum(PLAN_KINDS),
  status: z.enum(ACCOUNT_STATUSES),
  lineCount: z.number().int().nonnegative(),
  lines: z.array(subscriberLineSchema),
  /** How well the account matches the search, 0 to 1 (names by trigram similarity; 1 for exact kinds of match). */
  relevance: z.number(),
  /**
   * Until when the holder is verified as the caller to the staff member asking (issue 27), or null.
   * Until then an agent sees the email and phone masked (`j•••@example.com`, `•••4567`).
   */
  verifiedUntil: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Subscriber = z.output<typeof subscriberSchema>;

export const VERIFY_METHODS = ["pin", "sms-code", "override"] as const;

/**
 * How staff verify a caller (`POST /subscribers/{id}/actions/verify-caller`): the care PIN; an SMS
 * code (`{method: "sms-code"}` sends it, `{method: "sms-code", code}` checks it); or, for admins, an
 * override naming the agent (with a reason).
 */
export const verifyCallerInputSchema = z.object({
  method: z.enum(VERIFY_METHODS),
  pin: z
    .string({ error: "validation.carePinDigits" })
    .regex(/^\d{4,8}$/, "validation.carePinDigits")
    .optional(),
  code: z
    .string({ error: "validation.verificationCodeDigits" })
    .regex(/^\d{6}$/, "validation.verificationCodeDigits")
    .optional(),
  agentUid: z.string().min(1).max(128).optional(),
});
export type VerifyCallerInput = z.output<typeof verifyCallerInputSchema>;

/** Sign-in methods and second factors of the account holder (firebase-admin), never a secret. */
export const subscriberIdentitySchema = z.object({
  uid: z.string().nullable(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  providers: z.array(
    z.object({ providerId: z.string(), email: z.string().nullable(), phoneNumber: z.string().nullable() }),
  ),
  mfa: z.array(
    z.object({
      factorId: z.string(),
      displayName: z.string().nullable(),
      phoneNumber: z.string().nullable(),
      enrolledAt: z.string().nullable(),
    }),
  ),
  createdAt: z.string().nullable(),
  lastSignInAt: z.string().nullable(),
});
export type SubscriberIdentity = z.output<typeof subscriberIdentitySchema>;

/** GET /api/v1/subscribers?q=…: the care desk's one search box, and the head of the subscriber 360. */
export const subscribersResource = defineResource({
  name: "subscribers",
  store: "table",
  label: "resources.subscribers.label",
  icon: "TeamOutlined",
  schema: subscriberSchema,
  recordTitle: "name",
  fields: {
    personId: { label: "fields.person", kind: "text" },
    name: { label: "fields.accountName", kind: "text" },
    email: { label: "fields.email", kind: "text" },
    phone: { label: "fields.contactPhone", kind: "msisdn" },
    type: { label: "fields.accountType", kind: "enum", options: PLAN_KINDS, labels: "enums.accountType" },
    status: { label: "fields.status", kind: "enum", options: ACCOUNT_STATUSES },
    lineCount: { label: "fields.lineCount", kind: "number" },
    relevance: { label: "fields.relevance", kind: "number" },
    createdAt: { label: "fields.createdAt", kind: "datetime" },
    verifiedUntil: { label: "fields.verifiedUntil", kind: "datetime" },
  },
  list: {
    columns: ["name", "email", "type", "lineCount", "status"],
    defaultSort: [
      { field: "relevance", order: "desc" },
      { field: "name", order: "asc" },
    ],
    sortable: ["relevance", "name", "createdAt"],
    filters: { type: ["eq"], status: ["eq", "in"], personId: ["eq"] },
    search: { placeholder: "resources.subscribers.search" },
  },
  show: ["name", "type", "status", "email", "phone", "lineCount", "createdAt"],
  actions: {
    "verify-caller": {
      label: "resources.subscribers.verifyCaller",
      handler: "subscribers.verifyCaller",
      input: verifyCallerInputSchema,
      // The 360's own panel (src/pages/care/sections/CallerVerification.tsx) asks for these.
      inputFields: {
        method: { label: "fields.verifyMethod", kind: "enum", options: VERIFY_METHODS, labels: "enums.verifyMethod" },
        pin: { label: "fields.carePin", kind: "text" },
        code: { label: "fields.verificationCode", kind: "text" },
        agentUid: { label: "fields.agent", kind: "text" },
      },
    },
  },
  access: {
    // Staff always find the caller (name, masked numbers) so they can verify them.
    list: { agent: "all", admin: "all" },
    show: { agent: "all", admin: "all" },
    // The holder's email, phone, sign-in methods and notices: agents once the caller is verified.
    profile: { agent: "verified", admin: "all" },
    "verify-caller": { agent: "all", admin: "all" },
  },
  // The account's holder: a staff member opening the 360 reads their data (the access log, issue 27).
  ownership: { path: "ownerUid" },
  source: "backend",
  audit: false,
  messages: {
    en: {
      "resources.subscribers.label": "Subscribers",
      "resources.subscribers.search":
        "Number (any 4+ digits), name, email, ICCID (or its last digits), account or order id",
      "fields.relevance": "Match",
      "fields.person": "Person",
      "fields.verifiedUntil": "Caller verified until",
      "resources.subscribers.verifyCaller": "Verify the caller",
      "fields.verifyMethod": "How",
      "enums.verifyMethod.pin": "Care PIN",
      "enums.verifyMethod.sms-code": "Code by SMS",
      "enums.verifyMethod.override": "Admin override",
      "fields.carePin": "Care PIN",
      "fields.verificationCode": "Code",
      "fields.agent": "Agent",
    },
    es: {
      "resources.subscribers.label": "Abonados",
      "resources.subscribers.search":
        "Número (4 o más dígitos), nombre, correo, ICCID (o sus últimos dígitos), id de cuenta o de pedido",
      "fields.relevance": "Coincidencia",
      "fields.person": "Persona",
      "fields.verifiedUntil": "Llamante verificado hasta",
      "resources.subscribers.verifyCaller": "Verificar a quien llama",
      "fields.verifyMethod": "Cómo",
      "enums.verifyMethod.pin": "PIN de atención",
      "enums.verifyMethod.sms-code": "Código por SMS",
      "enums.verifyMethod.override": "Excepción de administrador",
      "fields.carePin": "PIN de atención",
      "fields.verificationCode": "Código",
      "fields.agent": "Agente",
    },
  },
});
