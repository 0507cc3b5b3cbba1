import { requireRecentSignIn } from "../auth/recentSignIn";
import { eq } from "drizzle-orm";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { accessScope, isStaff, type Principal } from "#resources/access";
import { PROBLEM_TYPES, REAUTH_MAX_AGE_SECONDS } from "#resources/api";
import { reasonSchema } from "#resources/common";
import { meets, type ActionSpec } from "#resources/define";
import { badRequest, conflict, forbidden, notFound, type FieldError } from "../errors";
import { words } from "../i18n/words";
import { wordsListing } from "../lib/listedText";
import { handlers } from "../domain/handlers";
import {
  claimIdempotencyKey,
  forgetOldIdempotencyKeys,
  hashRequest,
  keepingRefusal,
  sendReplay,
} from "../lib/idempotency";
import { localeOf } from "../i18n/requestLocale";
import { refuseToggledOffInput } from "../lib/featureFlags";
import { apiHeadersSchema, errorResponses, problemSchema } from "../routes/common";
import { createEffects } from "./effects";
import type { Executor } from "../audit";
import { translateTo } from "#i18n/dictionaries";
import { failedAllowedIf, quotesAction, type ExpressionContext } from "#resources/expressions/declaration";
import { declaredEffects, expressionContext, quoteOfEffects, runEffects } from "../generic/declaredWrites";
import { findRecordRow } from "./records";
import { either, noSuchRecord, roleMayNot } from "./refusals";
import { selectRecords } from "./recordQuery";
import { auditWrite, idParamsOf, pascal, publishAll, rolledBack, writeHeadersSchema } from "./routeParts";
import type { EngineServices } from "./services";
import type { ActionContext, ActionOutcome, ApiRecord, DomainModule } from "./types";
import type { DeclaredResource } from "../lib/declaredResource";

const actionResponses = { ...errorResponses, 409: problemSchema, 422: problemSchema };

/** What the response tells about an order the action placed. */
const orderRefSchema = z.object({ id: z.string(), type: z.string(), state: z.string() });

/** A quote: what the action would do and cost, line by line (preview). */
export const quoteSchema = z.object({
  summary: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  lines: z.array(
    z.object({
      label: z.string(),
      params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      amount: z.object({ amount: z.number().int(), currency: z.string() }).optional(),
    }),
  ),
  total: z.object({ amount: z.number().int(), currency: z.string() }).nullable().optional(),
});

/** The body of an action: its declared input plus the optional reason; none at all when it takes nothing. */
function actionBodySchema(action: ActionSpec) {
  const withReason = {
    reason: reasonSchema
      .optional()
      .describe("why: kept in the audit trail (staff acting for a subscriber must give one)"),
  };
  if (!action.input) return z.object(withReason).strict().nullish();
  return action.input.safeExtend(withReason).strict();
}

/** The `when` conditions of an action the record does not meet, each naming its field and the value it has. */
function unmet(when: ActionSpec["when"], record: ApiRecord): FieldError[] {
  return Object.entries(when ?? {})
    .filter(([field, values]) => !(values as readonly unknown[]).includes(record[field] as never))
    .map(([field, values]) => ({
      path: field,
      message: words("engine.onlyWhile", {
        field,
        values: either((values as readonly unknown[]).map(String)),
        current: String(record[field]),
      }),
    }));
}

/** "You cannot suspend this record now: only while status is active (it is suspended)." */
const cannotNow = (action: string, blocked: FieldError[]) =>
  wordsListing("engine.cannotNow", { action }, { reasons: blocked.map((e) => e.message) });

const reasonRequired = (action: ActionSpec, principal: Principal) =>
  action.reason === true || (action.reason === "staff" && isStaff(principal.role));

/** 403 reauth-required when the action asks this role for a recent sign-in and the token's is older. */
function checkReauth(
  action: ActionSpec,
  principal: Principal,
  authTime: number,
  record: ApiRecord,
  maxAgeSeconds: number,
) {
  const rule = action.reauth;
  if (!rule || !rule.roles.includes(principal.role) || !meets(rule.when, record)) return;
  requireRecentSignIn(authTime, maxAgeSeconds);
}

/**
 * `POST /{resource}/{id}/actions/{name}` for every declared action, and `…/preview` for those with a
 * preview. In one transaction: the record locked, its state checked (409 naming the field), the
 * re-authentication checked, the `set` or the domain handler run, the audit row with before, after
 * and reason, the handler's order and notices; live events after the commit.
 */
export const actionRoutes =
  (resource: DeclaredResource, module: DomainModule, services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db, events } = services;
    const { source } = module;
    const params = idParamsOf(resource);
    const Name = pascal(resource.name);

    for (const [name, action] of Object.entries<ActionSpec>(resource.actions ?? {})) {
      // Served by the resource's module (it calls an outside service between transactions).
      if (action.servedBy === "module") continue;
      const handler = action.handler ? handlers[action.handler] : undefined;
      const body = actionBodySchema(action);
      const path = `/${resource.name}/:id/actions/${name}`;
      const describe = [
        action.when
          ? `Allowed while ${Object.entries(action.when)
              .map(([f, v]) => `${f} is ${(v as unknown[]).join(" or ")}`)
              .join(" and ")} (else 409).`
          : "",
        action.reason === true ? "A reason is required." : action.reason === "staff" ? "Staff must give a reason." : "",
        action.reauth
          ? `${action.reauth.roles.join(", ")} must have signed in within ${REAUTH_MAX_AGE_SECONDS / 60} minutes (else 403 ${PROBLEM_TYPES.reauthRequired}).`
          : "",
        ...Object.entries(action.inputFields ?? {}).flatMap(([field, spec]) =>
          Object.entries(spec.optionToggles ?? {}).map(
            ([value, toggle]) =>
              `\`${field}\` "${value}" only while the Remote Config toggle ${toggle} is on (else 422).`,
          ),
        ),
        action.result ? "Its result is shown once." : "",
        "Audited.",
      ]
        .filter(Boolean)
        .join(" ");

      const prepare = (principal: Principal, requestBody: Record<string, unknown> | null | undefined) => {
        if (!accessScope(principal, resource, name)) throw forbidden(roleMayNot(principal.role, name, resource.name));
        const { reason, ...input } = requestBody ?? {};
        if (reasonRequired(action, principal) && !reason)
          throw badRequest(words("engine.reasonRequired"), [{ path: "reason", message: words("engine.required") }]);
        refuseToggledOffInput(action.inputFields, input, services.featureFlags);
        return { reason: (reason as string | undefined) ?? null, input };
      };

      // Only an action with declared rules or effects reads the operator's currency and rates (two queries).
      const declared = declaredEffects(resource).actions[name] ?? [];
      const expressive = Boolean(action.allowedIf?.length) || declared.length > 0;
      const expressionsIn = (tx: Executor, principal: Principal) =>
        expressive ? expressionContext(tx, principal, principal.operator) : Promise.resolve(undefined);

      /** 409 unless the record is in a state the action allows: `when` (each field with its value) and `allowedIf` (its own words). */
      const refuseUnallowed = (record: ApiRecord, expressions: ExpressionContext | undefined) => {
        const blocked = unmet(action.when, record);
        if (blocked.length) throw conflict(cannotNow(name, blocked), blocked);
        if (!expressions) return;
        const failed: FieldError[] = failedAllowedIf(resource, name, record, expressions).map((rule) => ({
          path: rule.field,
          message: (locale) => translateTo(locale, rule.message),
        }));
        if (failed.length) throw conflict(cannotNow(name, failed), failed);
      };

      app.post(
        path,
        {
          schema: {
            tags: [resource.name],
            operationId: `${name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}${Name}`,
            summary: `${name} one ${resource.name} record`,
            description: describe,
            headers: action.result ? apiHeadersSchema : writeHeadersSchema,
            params,
            body,
            response: {
              200: resource.schema.extend({
                ...(action.result ? { result: action.result.schema } : {}),
                order: orderRefSchema.optional(),
              }),
              ...(action.accepted ? { 202: action.accepted } : {}),
              ...actionResponses,
            },
          },
        },
        async (request, reply) => {
          const principal = request.principal;
          const { reason, input } = prepare(principal, request.body);
          // A shown-once result is never stored for replay; other actions may be retried with a key.
          const key = action.result
            ? undefined
            : (request.headers as Record<string, string | undefined>)["idempotency-key"];
          // The key is claimed in the write's transaction: it commits with the write or not at all.
          const idempotency = key
            ? {
                actorUid: principal.uid,
                key,
                route: `POST ${path.replace(":id", request.params.id)}`,
                requestHash: hashRequest({ body: request.body, operator: principal.operator }),
              }
            : undefined;
          const guard = { principal, services, recordId: request.params.id, input };
          await handler?.before?.(guard);
          const done = await db
            .transaction(async (tx) => {
              const claim = idempotency ? await claimIdempotencyKey(tx, idempotency) : undefined;
              if (claim?.kind === "replay") return { replay: claim };
              return keepingRefusal(tx, claim, localeOf(request.headers), async (tx) => {
                const row = await findRecordRow(tx, resource, module, principal, name, request.params.id, {
                  forUpdate: true,
                });
                if (!row) throw notFound(noSuchRecord(resource));
                const before = source.toRecord(row);
                const expressions = await expressionsIn(tx, principal);
                refuseUnallowed(before, expressions);
                checkReauth(action, principal, request.identity.authTime, before, services.reauthMaxAgeSeconds);
                const { effects, pending } = createEffects(tx, principal, request.id);
                const ctx: ActionContext = {
                  tx,
                  principal,
                  requestId: request.id,
                  effects,
                  services,
                  row,
                  record: before,
                  input,
                  reason,
                };
                let outcome: ActionOutcome = {};
                if (handler) outcome = (await handler.run(ctx)) ?? {};
                else await module.writer!.set!(ctx, row, action.set ?? {});
                // Declared effects (a refund through the ledger), on the record as it was when the action began.
                if (declared.length && expressions) {
                  const run = {
                    tx,
                    principal,
                    effects,
                    key: `${name}:${request.id}`,
                    recordId: request.params.id,
                    ownerUid: source.ownerUids(row)[0] ?? null,
                  };
                  await runEffects(run, resource, declared, before, expressions);
                }
                if (outcome.accepted) {
                  // Filed for a second person (the handler audited the request): the record is unchanged.
                  if (!action.accepted)
                    throw new Error(`${resource.name}.${name} answered 202 without declaring \`accepted\``);
                  if (claim) await claim.complete(202, outcome.accepted);
                  return { response: outcome.accepted, status: 202, published: pending };
                }
                const [updated] = await selectRecords(source, tx).where(eq(source.id, request.params.id)).limit(1);
                const after = source.toRecord(updated);
                await auditWrite(tx, resource, request, name, request.params.id, before, after, reason);
                const shown = module.present ? (await module.present(tx, principal, [updated]))[0]! : after;
                const response = { ...shown, ...outcome };
                if (claim) await claim.complete(200, response);
                const own = {
                  operator: principal.operator,
                  resource: resource.name,
                  type: "updated" as const,
                  ids: [request.params.id],
                  ownerUids: source.ownerUids(updated),
                  at: new Date().toISOString(),
                };
                return { response, status: 200, published: [own, ...pending] };
              });
            })
            .catch(async (error: unknown) => {
              await handler?.failed?.(guard, error);
              throw error;
            });
          if ("replay" in done) return sendReplay(reply, done.replay);
          if ("refused" in done) {
            await handler?.failed?.(guard, done.refused);
            throw done.refused;
          }
          const { published, status, response } = done.done;
          await publishAll(events, request.log, published);
          if (idempotency)
            await forgetOldIdempotencyKeys(db).catch((error: unknown) =>
              request.log.warn({ err: error }, "idempotency housekeeping failed"),
            );
          return reply.code(status).send(response);
        },
      );

      const declaredQuote = quotesAction(resource, name);
      if (action.preview && (handler?.preview || declaredQuote)) {
        const preview = handler?.preview
          ? handler.preview.bind(handler)
          : async (ctx: ActionContext) => {
              const expressions = await expressionContext(ctx.tx, ctx.principal, ctx.principal.operator);
              const run = {
                tx: ctx.tx,
                principal: ctx.principal,
                effects: ctx.effects,
                key: `${name}:preview`,
                recordId: ctx.record.id,
                ownerUid: source.ownerUids(ctx.row)[0] ?? null,
              };
              await runEffects(run, resource, declared, ctx.record, expressions);
              return quoteOfEffects(resource, declared, ctx.record, expressions, action.label);
            };
        app.post(
          `${path}/preview`,
          {
            schema: {
              tags: [resource.name],
              operationId: `preview${name.replace(/(^|-)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}${Name}`,
              summary: `What ${name} would do to one ${resource.name} record, and cost; changes nothing`,
              description: "Takes the same body as the action and answers a quote. Nothing is written.",
              headers: apiHeadersSchema,
              params,
              body,
              response: { 200: quoteSchema, ...actionResponses },
            },
          },
          async (request) => {
            const principal = request.principal;
            const { reason, input } = prepare(principal, request.body);
            // Rolled back whatever happens: a preview never changes anything, even by mistake.
            return await rolledBack(db, async (tx) => {
              const row = await findRecordRow(tx, resource, module, principal, name, request.params.id);
              if (!row) throw notFound(noSuchRecord(resource));
              const record = source.toRecord(row);
              refuseUnallowed(record, await expressionsIn(tx, principal));
              const { effects } = createEffects(tx, principal, request.id);
              const locale = localeOf(request.headers);
              return preview({
                tx,
                principal,
                requestId: request.id,
                effects,
                services,
                row,
                record,
                input,
                reason,
                locale,
              });
            });
          },
        );
      }
    }
    done();
  };
