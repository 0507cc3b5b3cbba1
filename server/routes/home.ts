import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { dailyUsageSchema, homeSchema, meterSchema, type Meter } from "#resources/usage";
import { isoDate } from "#resources/common";
import { linesResource } from "#resources/lines";
import { accessScope, sourceScope, type Principal } from "#resources/access";
import { accountsResource } from "#resources/accounts";
import type { Executor } from "../audit";
import { accounts, lines, plans, usageDaily } from "../db/schema";
import { forbidden, notFound } from "../errors";
import { words } from "../i18n/words";
import { findRecordRow } from "../engine/records";
import type { EngineServices } from "../engine/services";
import { linesModule } from "../domain/lines/module";
import { cancelsOnOf } from "../domain/lines/cancelsOn";
import { accountsModule } from "../domain/accounts/module";
import { metersOf } from "../domain/usage/meters";
import { cycleStartOf, daysUntil, nextCycleStart } from "../domain/usage/cycles";
import { readAccountMoney } from "../domain/money/accountMoney";
import { planFeeFor } from "../domain/plans/priceChange";
import { graceCycleOf, paidCycleOf } from "../domain/renewals/renew";
import { apiHeadersSchema, errorResponses, idParamsSchema } from "./common";

/**
 * Of these accounts, those the principal may open (the accounts declaration's `show`): the holder's,
 * a manager's, any of staff's in scope. Only they see the account's money beside its lines; a member
 * (issue 28: their lines, no bills or money) gets none of it, not even hidden in the answer.
 */
async function accountsOpenTo(db: Executor, principal: Principal, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const scope = sourceScope(principal, accountsResource, "show");
  if (!scope) return [];
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(inArray(accounts.id, unique), accountsModule.source.scope(principal, scope)));
  return rows.map((a) => a.id);
}

/** A line's meters, with what usage past the allowance cost left out for someone who sees no money. */
const withoutMoney = (meters: Meter[], seesMoney: boolean): Meter[] =>
  seesMoney ? meters : meters.map((meter) => ({ ...meter, charged: undefined }));

/**
 * What a subscriber opens the app for, in as few requests as possible: GET /home (their lines with
 * plan and meters, one request for the whole home page) and GET /lines/{id}/meters (one line's
 * meters, for anyone who may open the line). Derived data, not records: no list or write API. They
 * may lag a little: each handler reads through `services.reader`, a hot standby when there is one.
 */
export const homeRoutes =
  (services: Pick<EngineServices, "reader">): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.get(
      "/lines/:id/meters",
      {
        schema: {
          tags: ["lines"],
          operationId: "getLineMeters",
          summary: "The line's allowance meters in its current cycle (data MB, voice minutes, SMS)",
          description:
            "`allowance` null means unlimited; `asOf` is the time of the newest record counted. 404 when the line is not yours.",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: { 200: z.array(meterSchema), ...errorResponses },
        },
      },
      async (request) => {
        const db = services.reader(request.principal);
        const row = await findRecordRow(db, linesResource, linesModule, request.principal, "show", request.params.id);
        if (!row) throw notFound(words("routes.home.noSuchLine"));
        const money = (await accountsOpenTo(db, request.principal, [row.accountId])).length > 0;
        return withoutMoney((await metersOf(db, [request.params.id])).get(request.params.id) ?? [], money);
      },
    );

    app.get(
      "/lines/:id/usage-daily",
      {
        schema: {
          tags: ["lines"],
          operationId: "getLineDailyUsage",
          summary: "The line's usage per day of a cycle (data MB, voice seconds, SMS), for the history chart",
          description: "The current cycle unless `cycleStart` names an earlier one. 404 when the line is not yours.",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          querystring: z.object({ cycleStart: isoDate.optional() }).strict(),
          response: { 200: dailyUsageSchema, ...errorResponses },
        },
      },
      async (request) => {
        const db = services.reader(request.principal);
        const row = await findRecordRow(db, linesResource, linesModule, request.principal, "show", request.params.id);
        if (!row) throw notFound(words("routes.home.noSuchLine"));
        const cycleStart = request.query.cycleStart ?? cycleStartOf(new Date(), row.cycleDay);
        // The cycle's daily sums (usage_daily, kept by the ingest): at most 31 × 3 rows, whatever the records.
        const sums = await db
          .select({ day: usageDaily.day, type: usageDaily.type, total: usageDaily.quantity })
          .from(usageDaily)
          .where(and(eq(usageDaily.lineId, request.params.id), eq(usageDaily.cycleStart, cycleStart)))
          .orderBy(usageDaily.day);
        const days = new Map<string, { day: string; data: number; voice: number; sms: number }>();
        for (const sum of sums) {
          const day = days.get(sum.day) ?? { day: sum.day, data: 0, voice: 0, sms: 0 };
          day[sum.type] = Number(sum.total);
          days.set(sum.day, day);
        }
        return { cycleStart, cycleEnd: nextCycleStart(cycleStart), days: [...days.values()] };
      },
    );

    app.get(
      "/home",
      {
        schema: {
          tags: ["home"],
          operationId: "getHome",
          summary:
            "The signed-in subscriber's home page in one answer: every line with its plan, days left in the cycle and meters; each account's balance or amount due",
          headers: apiHeadersSchema,
          response: { 200: homeSchema, ...errorResponses },
        },
      },
      async (request) => {
        const db = services.reader(request.principal);
        const principal = request.principal;
        if (accessScope(principal, linesResource, "list") !== "own")
          throw forbidden(words("routes.home.subscribersOnly"));
        const owned = await db
          .select({
            id: lines.id,
            msisdn: lines.msisdn,
            status: lines.status,
            accountId: lines.accountId,
            accountType: accounts.type,
            planId: plans.id,
            planName: plans.name,
            planTranslations: plans.translations,
            priceAmount: plans.priceAmount,
            pendingPriceAmount: plans.pendingPriceAmount,
            priceChangedAt: plans.priceChangedAt,
            currency: plans.currency,
            cycleDay: lines.cycleDay,
            graceEndsOn: lines.graceEndsOn,
            renewedCycleStart: lines.renewedCycleStart,
            cancelsOn: cancelsOnOf(lines.id),
            createdAt: lines.createdAt,
          })
          .from(lines)
          .innerJoin(accounts, eq(lines.accountId, accounts.id))
          .innerJoin(plans, eq(lines.planId, plans.id))
          // The lines the principal may list: of accounts they hold or manage, and those assigned to them as a member (issue 28).
          .where(linesModule.source.scope(principal, sourceScope(principal, linesResource, "list")!))
          .orderBy(lines.msisdn);
        const now = new Date();
        // Money (balances, amounts due, prices, charges) only of accounts the principal may open: a
        // member's line shows none (issue 28), a manager's and the holder's all of it.
        const accountIds = await accountsOpenTo(
          db,
          principal,
          owned.map((l) => l.accountId),
        );
        const seesMoney = new Set(accountIds);
        const [meters, money] = await Promise.all([
          metersOf(
            db,
            owned.map((l) => l.id),
            now,
          ),
          readAccountMoney(db, accountIds),
        ]);
        return {
          accounts: accountIds.map((id) => ({
            id,
            type: owned.find((l) => l.accountId === id)!.accountType,
            ...money.get(id),
          })),
          lines: owned.map((line) => {
            const money = seesMoney.has(line.accountId);
            const lineMeters = withoutMoney(meters.get(line.id) ?? [], money);
            return {
              id: line.id,
              msisdn: line.msisdn,
              status: line.status,
              accountId: line.accountId,
              accountType: line.accountType,
              plan: {
                id: line.planId,
                name: line.planName,
                translations: line.planTranslations,
                ...(money ? { price: { amount: line.priceAmount, currency: line.currency } } : {}),
              },
              daysLeft: lineMeters[0] ? daysUntil(lineMeters[0].cycleEnd, now) : 0,
              meters: lineMeters,
              ...(line.accountType === "prepaid" ? { renewsOn: nextCycleStart(paidCycleOf(line)) } : {}),
              ...(line.cancelsOn ? { cancelsOn: line.cancelsOn } : {}),
              // In grace: what renews the plan (the price of the cycle it waits for) and until when.
              ...(line.status === "grace" && line.graceEndsOn
                ? {
                    grace: {
                      endsOn: line.graceEndsOn,
                      ...(money
                        ? {
                            price: {
                              amount: planFeeFor(line, line.cycleDay, graceCycleOf(line)),
                              currency: line.currency,
                            },
                          }
                        : {}),
                    },
                  }
                : {}),
            };
          }),
        };
      },
    );
    done();
  };
