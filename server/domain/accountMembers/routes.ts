import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import { isStaff, type Principal } from "#resources/access";
import { accountsResource } from "#resources/accounts";
import { reasonSchema } from "#resources/common";
import {
  MEMBER_INVITATION_DAYS,
  acceptInvitationBodySchema,
  acceptInvitationResultSchema,
  accountMembersSchema,
  checkMemberLines,
  inviteMemberFields,
  inviteMemberResultSchema,
  joinAccountLink,
  removeMemberInputSchema,
  type AccountMember,
} from "#resources/accountMembers";
import { recordAudit, type Executor } from "../../audit";
import { accountMemberLines, accountMembers, accounts, lines, operators, outboxMessages } from "../../db/schema";
import { findRecordRow } from "../../engine/records";
import type { EngineServices } from "../../engine/services";
import { badRequest, conflict, forbidden, notFound, ProblemError } from "../../errors";
import { localeOf } from "../../i18n/requestLocale";
import { words } from "../../i18n/words";
import { routeSchema } from "../../openapi/routeDoc";
import { apiHeadersSchema, idParamsSchema } from "../../routes/common";
import { accountsModule } from "../accounts/module";

const INVITATION_MS = MEMBER_INVITATION_DAYS * 24 * 60 * 60 * 1000;
const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Staff act for the holder with a reason (kept in the audit trail), as on every other account action. */
function requireStaffReason(principal: Principal, reason: string | undefined) {
  if (isStaff(principal.role) && !reason)
    throw badRequest(words("accountMembers.reasonRequired"), [
      { path: "reason", message: words("accountMembers.required") },
    ]);
}

/** The account, locked when it is to change, if the principal may take `action` on it; else 404 (403 when the role may not at all). */
async function accountFor(db: Executor, principal: Principal, action: string, id: string, forUpdate = false) {
  const row = await findRecordRow(db, accountsResource, accountsModule, principal, action, id, { forUpdate });
  if (!row) throw notFound(words("accountMembers.noSuchAccount"));
  return row;
}

/** The portal's address for links in messages: the operator's `portalUrl` setting, else where this request came in. */
async function portalOrigin(db: Executor, operator: string, request: FastifyRequest): Promise<string> {
  const [row] = await db.select({ settings: operators.settings }).from(operators).where(eq(operators.code, operator));
  const setting = row?.settings.portalUrl;
  if (typeof setting === "string" && setting) return setting.replace(/\/+$/, "");
  return `${request.protocol}://${request.host}`;
}

/** The people on an account with their lines, oldest first. */
export async function membersOf(db: Executor, accountId: string): Promise<AccountMember[]> {
  const rows = await db
    .select()
    .from(accountMembers)
    .where(eq(accountMembers.accountId, accountId))
    .orderBy(asc(accountMembers.createdAt), asc(accountMembers.id));
  const assigned = rows.length
    ? await db
        .select({ memberId: accountMemberLines.memberId, id: lines.id, msisdn: lines.msisdn })
        .from(accountMemberLines)
        .innerJoin(lines, eq(lines.id, accountMemberLines.lineId))
        .where(
          inArray(
            accountMemberLines.memberId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(lines.msisdn))
    : [];
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.memberUid ? "active" : "invited",
    lines: assigned.filter((a) => a.memberId === row.id).map(({ id, msisdn }) => ({ id, msisdn })),
    expiresAt: row.memberUid ? null : row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

const reasonField = { reason: reasonSchema.optional() };

/**
 * People on an account (issue 28 item 6), served by the accounts module under the declared actions'
 * paths (`invite-member`, `remove-member`: their access is the declaration's; the answers are the
 * issue's, not an account record):
 *
 * - `POST /accounts/{id}/actions/invite-member` `{email, role, lineIds}` → 201 `{invitationUrl}`: the
 *   holder (staff for them, with a reason) invites a person; the link (`/join-account#<token>`, valid
 *   7 days, once; only its hash kept) is answered and emailed to them. 409 when the email is already
 *   on the account or invited (an expired invitation is replaced), 400 at `lineIds` for a line of
 *   another account.
 * - `POST /accounts/{id}/actions/remove-member` `{memberId}`: the holder removes a person or withdraws
 *   an invitation; access is read from the table on every request, so it ends at once everywhere.
 * - `GET /accounts/{id}/members`: whoever may open the account (its holder, its managers, staff).
 * - `POST /account-invitations/accept` `{token}`: the signed-in subscriber joins the account.
 */
export const accountMemberRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db } = services;

    app.post(
      "/accounts/:id/actions/invite-member",
      {
        schema: routeSchema(
          {
            operationId: "inviteMemberAccounts",
            summary: "Invite a person to the account as a member (their lines only) or a manager",
            description:
              `Holder only (managers may not invite); staff for them with a reason (agents once the caller is verified). A member sees and manages only \`lineIds\` (lines of this account, else 400 at lineIds); a manager everything but payment methods and the people on the account. The link is valid ${MEMBER_INVITATION_DAYS} days and works once; it is answered and emailed. ` +
              "409 when the email is already on the account or invited. Audited.",
            tag: "accounts",
            problems: [409],
          },
          {
            headers: apiHeadersSchema,
            params: idParamsSchema,
            body: inviteMemberFields.extend(reasonField).superRefine(checkMemberLines),
            response: { 201: inviteMemberResultSchema },
          },
        ),
      },
      async (request, reply) => {
        const { principal } = request;
        const { email: given, role, lineIds, reason } = request.body;
        requireStaffReason(principal, reason);
        const email = given.trim().toLowerCase();
        const origin = await portalOrigin(db, principal.operator, request);
        const token = randomBytes(32).toString("base64url");
        const invitationUrl = `${origin}${joinAccountLink(token)}`;
        await db.transaction(async (tx) => {
          const account = await accountFor(tx, principal, "invite-member", request.params.id, true);
          // The declared `when` of invite-member: no one joins a closed account.
          if (account.status === "closed")
            throw conflict(words("accountMembers.accountClosed"), [
              { path: "status", message: words("accountMembers.field.closed") },
            ]);
          if (account.email && account.email.toLowerCase() === email)
            throw conflict(words("accountMembers.holderEmail"), [
              { path: "email", message: words("accountMembers.field.holder") },
            ]);
          if (lineIds.length) {
            const found = await tx
              .select({ id: lines.id })
              .from(lines)
              .where(and(inArray(lines.id, lineIds), eq(lines.accountId, account.id)));
            if (found.length !== lineIds.length)
              throw badRequest(words("accountMembers.notTheirLines"), [
                { path: "lineIds", message: words("accountMembers.field.notTheirLine") },
              ]);
          }
          const [existing] = await tx
            .select()
            .from(accountMembers)
            .where(and(eq(accountMembers.accountId, account.id), eq(accountMembers.email, email)));
          // Pending or accepted: 409. An invitation that expired unused gives way to the new one.
          if (existing && (existing.memberUid || existing.expiresAt.getTime() > Date.now()))
            throw conflict(words("accountMembers.alreadyInvited", { email }), [
              { path: "email", message: words("accountMembers.field.alreadyInvited") },
            ]);
          if (existing) await tx.delete(accountMembers).where(eq(accountMembers.id, existing.id));
          const [member] = await tx
            .insert(accountMembers)
            .values({
              operatorCode: principal.operator,
              accountId: account.id,
              email,
              role,
              tokenHash: tokenHash(token),
              expiresAt: new Date(Date.now() + INVITATION_MS),
              invitedBy: principal.uid,
            })
            .returning();
          if (lineIds.length)
            await tx.insert(accountMemberLines).values(lineIds.map((lineId) => ({ memberId: member!.id, lineId })));
          await tx.insert(outboxMessages).values({
            operatorCode: principal.operator,
            channel: "email",
            recipient: email,
            kind: "account.invitation",
            params: { link: invitationUrl, accountName: account.name, memberRole: role, days: MEMBER_INVITATION_DAYS },
            locale: localeOf(request.headers),
          });
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "accounts.invite-member",
            targetType: "accounts",
            targetId: account.id,
            after: { memberId: member!.id, email, role, lineIds },
            reason: reason ?? null,
            requestId: request.id,
          });
        });
        return reply.code(201).send({ invitationUrl });
      },
    );

    app.post(
      "/accounts/:id/actions/remove-member",
      {
        schema: routeSchema(
          {
            operationId: "removeMemberAccounts",
            summary: "Remove a person from the account, or withdraw their invitation",
            description:
              "Holder only; staff for them with a reason. Their access ends with this request on every backend instance (it is read from the database per request). 404 when `memberId` is no one on this account. Audited. Answers the people left.",
            tag: "accounts",
          },
          {
            headers: apiHeadersSchema,
            params: idParamsSchema,
            body: removeMemberInputSchema.extend(reasonField),
            response: { 200: accountMembersSchema },
          },
        ),
      },
      async (request) => {
        const { principal } = request;
        const { memberId, reason } = request.body;
        requireStaffReason(principal, reason);
        const { removedUid, answer } = await db.transaction(async (tx) => {
          const account = await accountFor(tx, principal, "remove-member", request.params.id, true);
          const [removed] = await tx
            .delete(accountMembers)
            .where(and(eq(accountMembers.id, memberId), eq(accountMembers.accountId, account.id)))
            .returning();
          if (!removed)
            throw new ProblemError(404, words("accountMembers.noSuchMember"), [
              { path: "memberId", message: words("accountMembers.field.noSuchMember") },
            ]);
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "accounts.remove-member",
            targetType: "accounts",
            targetId: account.id,
            before: { memberId, email: removed.email, role: removed.role, memberUid: removed.memberUid },
            reason: reason ?? null,
            requestId: request.id,
          });
          return { removedUid: removed.memberUid, answer: { data: await membersOf(tx, account.id) } };
        });
        // Their reads already stop (membership is read per request and per live event); their live
        // streams end too, on every instance, so what they reconnect to is decided anew.
        if (removedUid) await services.invalidation.forgetUser(removedUid);
        return answer;
      },
    );

    app.get(
      "/accounts/:id/members",
      {
        schema: routeSchema(
          {
            operationId: "listAccountMembers",
            summary: "The people on the account besides its holder: members and managers, invited or active",
            description:
              "For whoever may open the account: its holder, its managers, staff (agents once the caller is verified). 404 otherwise.",
            tag: "accounts",
          },
          { headers: apiHeadersSchema, params: idParamsSchema, response: { 200: accountMembersSchema } },
        ),
      },
      async (request) => {
        const account = await accountFor(db, request.principal, "show", request.params.id);
        return { data: await membersOf(db, account.id) };
      },
    );

    app.post(
      "/account-invitations/accept",
      {
        schema: routeSchema(
          {
            operationId: "acceptAccountInvitation",
            summary: "Join an account with the invitation link's token",
            description: `The signed-in subscriber (any sign-in method; a new user calls POST /me/claim first) joins as the invitation's role. 404 for a token never issued, 410 when accepted already by someone else or older than ${MEMBER_INVITATION_DAYS} days, 409 for the account's holder or someone on it already, 403 for staff. Audited.`,
            tag: "accounts",
            problems: [409, 410],
          },
          {
            headers: apiHeadersSchema,
            body: acceptInvitationBodySchema,
            response: { 200: acceptInvitationResultSchema },
          },
        ),
      },
      async (request) => {
        const { principal } = request;
        if (principal.role !== "subscriber") throw forbidden(words("accountMembers.subscribersOnly"));
        const joined = await db.transaction(async (tx) => {
          const [invitation] = await tx
            .select()
            .from(accountMembers)
            .where(
              and(
                eq(accountMembers.tokenHash, tokenHash(request.body.token)),
                eq(accountMembers.operatorCode, principal.operator),
              ),
            )
            .for("update");
          if (!invitation) throw notFound(words("accountMembers.linkUnknown"));
          const gone = (key: "accountMembers.linkUsed" | "accountMembers.linkExpired") =>
            new ProblemError(410, words(key, { days: MEMBER_INVITATION_DAYS }), [
              { path: "token", message: words("accountMembers.field.link") },
            ]);
          const [account] = await tx
            .select({ id: accounts.id, name: accounts.name, ownerUid: accounts.ownerUid })
            .from(accounts)
            .where(eq(accounts.id, invitation.accountId));
          // The same person sending the link again (a page opened twice, a retry after a lost answer)
          // gets the same answer and changes nothing; anyone else finds it used.
          if (invitation.memberUid === principal.uid)
            return { accountId: account!.id, accountName: account!.name, role: invitation.role, changed: false };
          if (invitation.memberUid) throw gone("accountMembers.linkUsed");
          if (invitation.expiresAt.getTime() <= Date.now()) throw gone("accountMembers.linkExpired");
          if (account!.ownerUid === principal.uid) throw conflict(words("accountMembers.ownAccount"));
          const [already] = await tx
            .select({ id: accountMembers.id })
            .from(accountMembers)
            .where(and(eq(accountMembers.accountId, account!.id), eq(accountMembers.memberUid, principal.uid)));
          if (already) throw conflict(words("accountMembers.alreadyMember"));
          await tx
            .update(accountMembers)
            .set({ memberUid: principal.uid, acceptedAt: new Date() })
            .where(eq(accountMembers.id, invitation.id));
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "accounts.accept-invitation",
            targetType: "accounts",
            targetId: account!.id,
            after: { memberId: invitation.id, role: invitation.role },
            requestId: request.id,
          });
          return { accountId: account!.id, accountName: account!.name, role: invitation.role, changed: true };
        });
        // Their live streams end on every instance and reconnect hearing the account's events too.
        const { changed, ...answer } = joined;
        if (changed) await services.invalidation.forgetUser(principal.uid);
        return answer;
      },
    );
    return Promise.resolve();
  };
