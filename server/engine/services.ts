import type { Auth } from "firebase-admin/auth";
import type { AccessInvalidation } from "../auth/accessInvalidation";
import type { OperatorDirectory } from "../auth/operatorSettings";
import type { Db } from "../db/client";
import { unavailable } from "../errors";
import { words } from "../i18n/words";
import type { RateLimiter } from "../lib/rateLimits";
import type { SecretBox } from "../lib/secretBox";
import type { EventBus } from "../live/eventBus";
import type { JobQueue } from "../jobs/jobQueue";
import type { FileStore } from "../files/fileStore";
import type { UploadQuota } from "../domain/files/uploadQuota";
import type { PaymentGateways } from "../payments/gateway";
import type { FeatureFlagSource } from "../lib/featureFlags";
import type { PortingExchange } from "../portingExchange/client";

/** What routes, modules and handlers work with: one object built by buildApp. */
export interface EngineServices {
  db: Db;
  /**
   * Where a read that may lag a little goes (lists, search, the 360, meters, KPIs): a hot standby
   * that has this person's own writes, else `db`. Never for writes, transactions, or a read that
   * decides a write.
   */
  reader(principal: { uid: string } | undefined): Db;
  /** firebase-admin Auth (claims, users, revocation); absent in apps built without it (503). */
  auth?: Auth;
  /** Tells every backend instance that a user's or an operator's access changed (drops their caches). */
  invalidation: AccessInvalidation;
  operators: OperatorDirectory;
  /** The rate limits, counted across instances. */
  limiter: RateLimiter;
  events: EventBus;
  secrets: SecretBox;
  /** How recent a sign-in must be for actions declared with `reauth` (seconds). */
  reauthMaxAgeSeconds: number;
  /** Background jobs, when this instance runs them (buildApp's `jobs`); domain code sends one-off jobs after its commit. */
  jobs?: JobQueue;
  /** Where uploaded bytes go (server/files), the largest upload and each subscriber's upload quota; buildApp always sets it. */
  files?: { store: FileStore; maxBytes: number; quota?: UploadQuota };
  /** Card gateways this server is wired to, by setting name (operators.settings.topUpPayment). */
  payments?: PaymentGateways;
  /** The bill-payment gateway's name (BILL_PAYMENT_GATEWAY), independent of the operator's top-up setting; "" or absent: bills cannot be paid online. */
  billPaymentGateway?: string;
  /** The number portability exchange (port-ins); absent: port-ins stay queued until one is configured. */
  portingExchange?: PortingExchange;
  /** Months of raw usage records kept (USAGE_RETENTION_MONTHS; 13 when absent). */
  usageRetentionMonths?: number;
  /** Months of the usage chart's daily sums kept (USAGE_DAILY_RETENTION_MONTHS; 25 when absent). */
  usageDailyRetentionMonths?: number;
  /** Remote Config's feature flags (server template); absent: the in-code defaults (toggleOn). */
  featureFlags?: Pick<FeatureFlagSource, "current">;
}

export function adminAuth(services: Pick<EngineServices, "auth">): Auth {
  if (!services.auth) throw unavailable(words("engine.identityAdminMissing"));
  return services.auth;
}

export const firebaseCode = (error: unknown) => (error as { code?: string })?.code ?? "";
