import { and, count, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { claimResultSchema, meSchema } from "#resources/identity";
import { claimsOf, isStaff } from "#resources/access";
import { recordAudit } from "../audit";
import { operatorHeader, staffMfaRequired } from "../auth/requestAuth";
import { accounts } from "../db/schema";
import { conflict, forbidden } from "../errors";
import { words } from "../i18n/words";
import { routeSchema } from "../openapi/routeDoc";
import { apiHeadersSchema } from "./common";
import { adminAuth, type EngineServices } from "../engine/services";

const noContent = z.null().describe("No Content");

/**
 * The caller's own identity: who am I, become a subscriber, sign out everywhere. Sign-ins, linked
 * methods, second factors and email or phone changes are recorded by the server itself
 * (server/domain/identityEvents), never reported by the browser.
 */
export const meRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db, invalidation, operators, limiter } = services;

    app.get(
      "/me",
      {
        config: { allowWithoutRole: true, mfaExempt: true },
        schema: routeSchema(
          {
            operationId: "getMe",
            summary: "The signed-in user: claims, verification, second factors, providers (also without a role yet)",
            tag: "identity",
          },
          { headers: apiHeadersSchema, response: { 200: meSchema } },
        ),
      },
      async (request) => {
        const user = request.identity;
        const operator = operatorHeader(request);
        const record = await adminAuth(services).getUser(user.uid);
        const phoneNumber = record.phoneNumber ?? null;
        const providers = new Set(record.providerData.map((p) => p.providerId));
        if (phoneNumber) providers.add("phone");
        const [owned] = await db
          .select({ n: count() })
          .from(accounts)
          .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, user.uid)));
        return {
          uid: user.uid,
          email: record.email ?? null,
          emailVerified: record.emailVerified,
          phoneNumber,
          role: user.role,
          operator: user.operator,
          secondFactor: user.secondFactor,
          mfaRequired: await staffMfaRequired(operators, user.role, user.operator),
          mfaEnrolled: (record.multiFactor?.enrolledFactors.length ?? 0) > 0,
          providers: [...providers].sort(),
          accountsOwned: owned?.n ?? 0,
        };
      },
    );

    app.post(
      "/me/claim",
      {
        config: { allowWithoutRole: true },
        schema: routeSchema(
          {
            operationId: "claimSubscriber",
            summary:
              "Become a subscriber of the operator and link its unowned accounts with your verified email or phone number",
            description:
              "Sets the custom claims {role: subscriber, operator}; the caller's current ID token is then stale: refresh it. " +
              "Accounts are linked by email only when the email is verified; phone numbers from phone sign-in are verified. " +
              "Idempotent for an existing subscriber (links again); staff get 409. At most 10 calls a minute per user.",
            tag: "identity",
            problems: [409, 429],
          },
          { headers: apiHeadersSchema, response: { 200: claimResultSchema } },
        ),
      },
      async (request) => {
        const user = request.identity;
        const operator = operatorHeader(request);
        await limiter.enforce([{ limit: "claimPerUid", key: user.uid, detail: words("routes.me.tooManyClaims") }]);
        const auth = adminAuth(services);

        // The user record, not the token, is the authority on claims, email and verification.
        const record = await auth.getUser(user.uid);
        const claims = (record.customClaims ?? {}) as Record<string, unknown>;
        const { role, operator: claimedOperator } = claimsOf(claims);
        if (isStaff(role)) throw conflict(words("routes.me.staffCannotSubscribe"));
        if (role === "subscriber" && claimedOperator !== operator)
          throw forbidden(words("auth.notOperatorsAccount", { operator }));

        const claimed = role === null;
        if (claimed) {
          await auth.setCustomUserClaims(user.uid, { ...claims, role: "subscriber", operator });
          await invalidation.forgetUser(user.uid);
        }

        const matches: SQL[] = [];
        if (record.email && record.emailVerified)
          matches.push(sql`lower(${accounts.email}) = ${record.email.toLowerCase()}`);
        if (record.phoneNumber) matches.push(eq(accounts.phone, record.phoneNumber));

        const linked = await db.transaction(async (tx) => {
          const rows = matches.length
            ? await tx
                .update(accounts)
                .set({ ownerUid: user.uid, updatedAt: new Date() })
                .where(and(eq(accounts.operatorCode, operator), isNull(accounts.ownerUid), or(...matches)))
                .returning({ id: accounts.id })
            : [];
          if (claimed || rows.length > 0) {
            await recordAudit(tx, {
              operator,
              actorUid: user.uid,
              actorRole: role ?? null,
              action: "identity.claim",
              targetType: "user",
              targetId: user.uid,
              before: { role, operator: role ? operator : null },
              after: {
                role: "subscriber",
                operator,
                linkedAccountIds: rows.map((r) => r.id),
                matchedBy: [
                  ...(record.email && record.emailVerified ? ["email"] : []),
                  ...(record.phoneNumber ? ["phone"] : []),
                ],
              },
              requestId: request.id,
            });
          }
          return rows.length;
        });
        return { role: "subscriber" as const, operator, linkedAccounts: linked };
      },
    );

    app.post(
      "/me/sign-out-everywhere",
      {
        config: { mfaExempt: true },
        schema: routeSchema(
          {
            operationId: "signOutEverywhere",
            summary: "Revoke every session of the caller; tokens issued before now stop working",
            tag: "identity",
          },
          { headers: apiHeadersSchema, response: { 204: noContent } },
        ),
      },
      async (request, reply) => {
        const { uid, role, operator } = request.principal;
        await adminAuth(services).revokeRefreshTokens(uid);
        await invalidation.forgetUser(uid);
        await recordAudit(db, {
          operator,
          actorUid: uid,
          actorRole: role,
          action: "session.revoke_all",
          targetType: "user",
          targetId: uid,
          requestId: request.id,
        });
        return reply.code(204).send(null);
      },
    );

    done();
  };
