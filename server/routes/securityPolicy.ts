import { eq, sql } from "drizzle-orm";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { isStaff, type Principal } from "#resources/access";
import { securityPolicySchema, securityPolicyUpdateSchema } from "#resources/identity";
import { recordAudit } from "../audit";
import { securityPolicyOf } from "../auth/operatorSettings";
import { operators } from "../db/schema";
import { forbidden, notFound } from "../errors";
import { words } from "../i18n/words";
import { publishAfterCommit } from "../live/eventBus";
import { routeSchema } from "../openapi/routeDoc";
import { apiHeadersSchema } from "./common";
import type { EngineServices } from "../engine/services";

function mayRead(principal: Principal) {
  if (!isStaff(principal.role)) throw forbidden(words("routes.securityPolicy.staffOnly"));
}

/** The operator's security policy for its staff: requireStaffMfa, and when new staff may decide approvals (newStaffMayApprove). */
export const securityPolicyRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db, operators: directory, invalidation, events } = services;

    app.get(
      "/security-policy",
      {
        schema: routeSchema(
          {
            operationId: "getSecurityPolicy",
            summary: "The operator's security policy (agents and admins)",
            tag: "security",
            problems: [404],
          },
          { headers: apiHeadersSchema, response: { 200: securityPolicySchema } },
        ),
      },
      async (request) => {
        mayRead(request.principal);
        const settings = await directory.settings(request.principal.operator);
        if (settings === null) throw notFound(words("routes.noSuchOperator"));
        return securityPolicyOf(settings);
      },
    );

    app.put(
      "/security-policy",
      {
        schema: routeSchema(
          {
            operationId: "updateSecurityPolicy",
            summary: "Change the operator's security policy (admins; audited with the reason)",
            description:
              "With requireStaffMfa on, agents and admins whose session was not signed in with a second factor get 403 " +
              "type /problems/mfa-required everywhere but GET /me and POST /me/sign-out-everywhere; " +
              "that includes this route, so enroll a second factor before turning it on. " +
              "newStaffMayApprove: after-confirmation (default: an invited member decides approvals once an admin other than their inviter confirmed them) or after-24-hours. " +
              "Name only what changes.",
            tag: "security",
            problems: [404],
          },
          { headers: apiHeadersSchema, body: securityPolicyUpdateSchema, response: { 200: securityPolicySchema } },
        ),
      },
      async (request) => {
        const principal = request.principal;
        if (principal.role !== "admin") throw forbidden(words("routes.securityPolicy.adminsOnly"));
        const { requireStaffMfa, newStaffMayApprove, reason } = request.body;
        const policy = await db.transaction(async (tx) => {
          const [current] = await tx
            .select({ settings: operators.settings })
            .from(operators)
            .where(eq(operators.code, principal.operator))
            .for("update")
            .limit(1);
          if (!current) throw notFound(words("routes.noSuchOperator"));
          const before = securityPolicyOf(current.settings);
          // Only what the PUT names changes.
          const changes = {
            ...(requireStaffMfa !== undefined ? { requireStaffMfa } : {}),
            ...(newStaffMayApprove !== undefined ? { newStaffMayApprove } : {}),
          };
          const after = { ...before, ...changes };
          await tx
            .update(operators)
            .set({ settings: sql`${operators.settings} || ${JSON.stringify(changes)}::jsonb`, updatedAt: new Date() })
            .where(eq(operators.code, principal.operator));
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "policy.updated",
            targetType: "security_policy",
            targetId: principal.operator,
            // The audit row names what changed, as it was and as it is.
            before: Object.fromEntries(Object.keys(changes).map((k) => [k, before[k as keyof typeof before]])),
            after: { ...changes },
            reason,
            requestId: request.id,
          });
          return after;
        });
        await invalidation.forgetOperator(principal.operator);
        await publishAfterCommit(events, request.log, {
          operator: principal.operator,
          resource: "security-policy",
          type: "updated",
          ids: [principal.operator],
          at: new Date().toISOString(),
        });
        return policy;
      },
    );
    done();
  };
