import { and, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope, type Principal } from "#resources/access";
import {
  staffInviteResultSchema,
  staffInviteSchema,
  staffMemberSchema,
  staffResource,
  staffUpdateSchema,
} from "#resources/staff";
import { recordAudit, type AuditEntry } from "../../audit";
import { outboxMessages, staffMembers } from "../../db/schema";
import { conflict, forbidden, notFound, unprocessable } from "../../errors";
import { localeOf } from "../../i18n/requestLocale";
import { words } from "../../i18n/words";
import { hashRequest, reserveIdempotencyKey, sendReplay } from "../../lib/idempotency";
import { publishAfterCommit } from "../../live/eventBus";
import { apiHeadersSchema, errorResponses, problemSchema } from "../../routes/common";
import { adminAuth, firebaseCode, type EngineServices } from "../../engine/services";
import { toMember } from "./member";

/** Staff of the principal's operator, for admins only (agents and subscribers: 403). */
function scopeOf(principal: Principal, action: "create" | "edit"): SQL {
  if (!accessScope(principal, staffResource, action)) throw forbidden(words("staff.adminsOnly"));
  return eq(staffMembers.operatorCode, principal.operator);
}

const inviteHeadersSchema = apiHeadersSchema.extend({
  "idempotency-key": z
    .string("staff.idempotencyKeyRequired")
    .min(8, "staff.idempotencyKeyTooShort")
    .max(200)
    .describe("the same key replays the first response and never creates a second user"),
});

const uidParamsSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/, "staff.uidCharacters")
    .describe("the staff member's Firebase uid"),
});

/**
 * The writes of staff records that the record API cannot express, because each also changes a
 * Firebase user: inviting (creates the user with claims, emails them a password setup link) and changing
 * a role or access (claims, disabled state, revoked sessions). Lists and records come from the route factory.
 */
export const staffRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db, invalidation, events } = services;

    app.post(
      "/staff",
      {
        schema: {
          tags: ["staff"],
          operationId: "inviteStaff",
          summary:
            "Invite a care agent or admin: creates the Firebase user with claims and emails them a password setup link",
          description:
            "Requires Idempotency-Key: the same key from the same admin replays the first response (header Idempotent-Replayed: true). " +
            "The password setup link goes to the invitee's email (the outbox, kind staff.invitation) and never to the inviter. " +
            "The new member decides no approval until an admin other than the inviter confirms them (POST /staff/{id}/actions/confirm), or for 24 hours when the security policy says so.",
          headers: inviteHeadersSchema,
          body: staffInviteSchema,
          response: { 201: staffInviteResultSchema, ...errorResponses, 409: problemSchema, 422: problemSchema },
        },
      },
      async (request, reply) => {
        const principal = request.principal;
        scopeOf(principal, "create");
        const auth = adminAuth(services);
        const email = request.body.email.trim().toLowerCase();
        const displayName = request.body.displayName ?? null;
        const role = request.body.role;

        const reservation = await reserveIdempotencyKey(db, {
          actorUid: principal.uid,
          key: request.headers["idempotency-key"],
          route: "POST /api/v1/staff",
          requestHash: hashRequest({ email, role, displayName, operator: principal.operator }),
        });
        if (reservation.kind === "replay") {
          return sendReplay(reply, reservation);
        }

        let createdUid: string | null = null;
        try {
          try {
            const user = await auth.createUser({
              email,
              emailVerified: false,
              disabled: false,
              ...(displayName ? { displayName } : {}),
            });
            createdUid = user.uid;
          } catch (error) {
            if (firebaseCode(error) === "auth/email-already-exists") {
              throw conflict(words("staff.userEmailTaken"), [
                { path: "email", message: words("staff.field.alreadyRegistered") },
              ]);
            }
            throw error;
          }
          const uid = createdUid;
          await auth.setCustomUserClaims(uid, { role, operator: principal.operator });
          const passwordSetupLink = await auth.generatePasswordResetLink(email);

          const result = await db.transaction(async (tx) => {
            const [row] = await tx
              .insert(staffMembers)
              .values({ uid, operatorCode: principal.operator, email, displayName, role, invitedBy: principal.uid })
              .onConflictDoNothing()
              .returning();
            if (!row)
              throw conflict(words("staff.memberEmailTaken"), [
                { path: "email", message: words("staff.field.alreadyStaff") },
              ]);
            const member = toMember(row);
            // The link is the invitee's to use: it goes to their address, with the new row, and never
            // back to the inviter (who could otherwise sign in as a second "person", issue 26).
            await tx.insert(outboxMessages).values({
              operatorCode: principal.operator,
              channel: "email",
              recipient: email,
              kind: "staff.invitation",
              params: { passwordSetupLink, role, displayName },
              // The invitee has no profile yet: the inviter's page language is the best guess.
              locale: localeOf(request.headers),
            });
            await recordAudit(tx, {
              operator: principal.operator,
              actorUid: principal.uid,
              actorRole: principal.role,
              action: "staff.invite",
              targetType: "staff_member",
              targetId: uid,
              after: { email, role, displayName },
              requestId: request.id,
            });
            const body = { member, invitationSentTo: email };
            await reservation.complete(tx, 201, body);
            return body;
          });
          await publishAfterCommit(events, request.log, {
            operator: principal.operator,
            resource: staffResource.name,
            type: "created",
            ids: [uid],
            at: result.member.createdAt,
          });
          return reply.code(201).send(result);
        } catch (error) {
          // Nothing half-done stays behind: the user goes, and the key may be used again.
          if (createdUid)
            await auth
              .deleteUser(createdUid)
              .catch((e) => request.log.error({ err: e, uid: createdUid }, "could not remove a half-invited user"));
          await reservation
            .release()
            .catch((e) => request.log.error({ err: e }, "could not release an idempotency key"));
          throw error;
        }
      },
    );

    app.patch(
      "/staff/:id",
      {
        schema: {
          tags: ["staff"],
          operationId: "changeStaff",
          summary: "Change a staff member's role, disable or enable them (with a reason; not yourself)",
          headers: apiHeadersSchema,
          params: uidParamsSchema,
          body: staffUpdateSchema,
          response: { 200: staffMemberSchema, ...errorResponses, 422: problemSchema },
        },
      },
      async (request) => {
        const principal = request.principal;
        const scope = scopeOf(principal, "edit");
        const auth = adminAuth(services);
        const uid = request.params.id;
        const { role, disabled, reason } = request.body;

        let changed = false;
        const updated = await db.transaction(async (tx) => {
          const [current] = await tx
            .select()
            .from(staffMembers)
            .where(and(scope, eq(staffMembers.uid, uid)))
            .for("update")
            .limit(1);
          if (!current) throw notFound(words("staff.noSuchMember"));
          if (uid === principal.uid) {
            throw unprocessable(words("staff.notYourself"), [
              { path: "uid", message: words("staff.field.isYourself") },
            ]);
          }
          const roleChanges = role !== undefined && role !== current.role;
          const disabledChanges = disabled !== undefined && disabled !== current.disabled;
          if (!roleChanges && !disabledChanges) return current;
          changed = true;

          const [row] = await tx
            .update(staffMembers)
            .set({ ...(roleChanges ? { role } : {}), ...(disabledChanges ? { disabled } : {}), updatedAt: new Date() })
            .where(eq(staffMembers.uid, uid))
            .returning();
          const audit = (
            action: string,
            before: Record<string, unknown>,
            after: Record<string, unknown>,
          ): AuditEntry => ({
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action,
            targetType: "staff_member",
            targetId: uid,
            before,
            after,
            reason,
            requestId: request.id,
          });
          if (roleChanges) await recordAudit(tx, audit("staff.role_changed", { role: current.role }, { role }));
          if (disabledChanges)
            await recordAudit(
              tx,
              audit(disabled ? "staff.disabled" : "staff.enabled", { disabled: current.disabled }, { disabled }),
            );

          // Firebase last, inside the transaction: if it fails, the row and the audit roll back.
          if (roleChanges) {
            const record = await auth.getUser(uid);
            await auth.setCustomUserClaims(uid, { ...(record.customClaims ?? {}), role, operator: principal.operator });
          }
          if (disabledChanges) {
            await auth.updateUser(uid, { disabled });
            if (disabled) await auth.revokeRefreshTokens(uid);
          }
          return row!;
        });
        const member = toMember(updated);
        if (changed) {
          // After the commit: PGlite has one connection, which the transaction holds until then.
          await invalidation.forgetUser(uid);
          await publishAfterCommit(events, request.log, {
            operator: principal.operator,
            resource: staffResource.name,
            type: "updated",
            ids: [uid],
            at: member.updatedAt,
          });
        }
        return member;
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
