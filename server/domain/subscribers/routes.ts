import { and, count, desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { UserRecord } from "firebase-admin/auth";
import { z } from "zod";
import { accessScope, type Principal } from "#resources/access";
import { listResponse } from "#resources/api";
import { notificationSchema, type Notification } from "#resources/notifications";
import { subscriberIdentitySchema, subscribersResource, type SubscriberIdentity } from "#resources/subscribers";
import type { Executor } from "../../audit";
import { accounts, notifications } from "../../db/schema";
import { forbidden, notFound } from "../../errors";
import { words } from "../../i18n/words";
import { apiHeadersSchema, errorResponses, idParamsSchema } from "../../routes/common";
import { adminAuth, firebaseCode, type EngineServices } from "../../engine/services";
import { logReadOf } from "../accessLog/accessLog";
import { callerNotVerified } from "../../engine/records";
import { verifiedUntilOf } from "../callerVerification/verification";
import { lastFourDigits } from "../../lib/masks";

/** The account's holder uid, when a staff member of its operator asks (403 for other roles, 404 elsewhere). */
async function holderOf(db: Executor, principal: Principal, accountId: string): Promise<{ ownerUid: string | null }> {
  if (!accessScope(principal, subscribersResource, "show"))
    throw forbidden(words("subscribers.roleMayNotOpen", { role: principal.role }));
  const [account] = await db
    .select({ ownerUid: accounts.ownerUid })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.operatorCode, principal.operator)))
    .limit(1);
  if (!account) throw notFound(words("subscribers.noSuch"));
  // The holder's sign-in methods and notices are theirs to disclose: an agent verifies the caller first.
  if (accessScope(principal, subscribersResource, "profile") === "verified") {
    // (An account no one holds yet discloses no one.)
    if (account.ownerUid && !(await verifiedUntilOf(db, principal, [account.ownerUid])).has(account.ownerUid))
      throw callerNotVerified();
  }
  return account;
}

/** What care may know of a Firebase user: which ways they sign in, whether a second factor guards them; never a hash, token or secret. */
export function identityOf(user: UserRecord): SubscriberIdentity {
  return {
    uid: user.uid,
    email: user.email ?? null,
    emailVerified: user.emailVerified,
    disabled: user.disabled,
    providers: user.providerData.map((p) => ({
      providerId: p.providerId,
      email: p.email ?? null,
      phoneNumber: lastFourDigits(p.phoneNumber),
    })),
    mfa: (user.multiFactor?.enrolledFactors ?? []).map((f) => ({
      factorId: f.factorId,
      displayName: f.displayName ?? null,
      phoneNumber: lastFourDigits((f as { phoneNumber?: string }).phoneNumber),
      enrolledAt: f.enrollmentTime ?? null,
    })),
    createdAt: user.metadata.creationTime ?? null,
    lastSignInAt: user.metadata.lastSignInTime ?? null,
  };
}

const NO_IDENTITY: SubscriberIdentity = {
  uid: null,
  email: null,
  emailVerified: false,
  disabled: false,
  providers: [],
  mfa: [],
  createdAt: null,
  lastSignInAt: null,
};

const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/**
 * Sections of the subscriber 360 that no resource serves to staff: the holder's sign-in methods and
 * MFA state (firebase-admin), and the notices sent to them (the notifications resource is each
 * person's own inbox). Same access as `subscribers` show: the operator's agents and admins.
 */
export const subscriberRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db } = services;

    app.get(
      "/subscribers/:id/identity",
      {
        schema: {
          tags: ["subscribers"],
          operationId: "getSubscriberIdentity",
          summary: "Sign-in methods and MFA state of the account holder (never secrets)",
          description:
            "Agents and admins of the account's operator; an agent once the caller is verified (else 403 /problems/caller-not-verified). An account without a holder answers with uid null.",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: { 200: subscriberIdentitySchema, ...errorResponses },
        },
      },
      async (request) => {
        const { ownerUid } = await holderOf(db, request.principal, request.params.id);
        if (!ownerUid) return NO_IDENTITY;
        await logReadOf(db, request, "identity", [ownerUid]);
        try {
          return identityOf(await adminAuth(services).getUser(ownerUid));
        } catch (error) {
          if (firebaseCode(error) === "auth/user-not-found") return { ...NO_IDENTITY, uid: ownerUid };
          throw error;
        }
      },
    );

    app.get(
      "/subscribers/:id/notifications",
      {
        schema: {
          tags: ["subscribers"],
          operationId: "listSubscriberNotifications",
          summary: "Notices sent to the account holder, newest first",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          querystring: pageQuerySchema,
          response: { 200: listResponse(notificationSchema), ...errorResponses },
        },
      },
      async (request) => {
        const { ownerUid } = await holderOf(db, request.principal, request.params.id);
        if (!ownerUid) return { data: [], total: 0 };
        await logReadOf(db, request, "notifications", [ownerUid]);
        const { page, pageSize } = request.query;
        const mine = and(
          eq(notifications.operatorCode, request.principal.operator),
          eq(notifications.recipientUid, ownerUid),
        );
        const [rows, [totals]] = await Promise.all([
          db
            .select()
            .from(notifications)
            .where(mine)
            .orderBy(desc(notifications.createdAt), desc(notifications.id))
            .limit(pageSize)
            .offset((page - 1) * pageSize),
          db.select({ total: count() }).from(notifications).where(mine),
        ]);
        const data: Notification[] = rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          params: row.params,
          link: row.link,
          read: row.readAt !== null,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        }));
        return { data, total: Number(totals?.total ?? 0) };
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
