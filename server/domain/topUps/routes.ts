import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accountsResource } from "#resources/accounts";
import { newTopUpSchema, paymentGatewaySchema, topUpPaymentOf, topUpSchema, topUpsResource } from "#resources/topUps";
import { accessScope } from "#resources/access";
import { paymentMethods } from "../../db/schema";
import { findRecordRow } from "../../engine/records";
import { writeHeadersSchema } from "../../engine/routeParts";
import type { EngineServices } from "../../engine/services";
import { forbidden, notFound, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { billGatewayOf, gatewayFor } from "../../payments/gatewayFor";
import { hashRequest, reserveIdempotencyKey, sendReplay } from "../../lib/idempotency";
import { toggleOn } from "../../lib/featureFlags";
import { apiHeadersSchema, errorResponses, problemSchema } from "../../routes/common";
import { accountsModule } from "../accounts/module";
import { runCardTopUp } from "./create";

/**
 * `POST /top-ups`: a card top-up of a prepaid account, and `GET /payment-gateway` (where the
 * browser tokenizes a card). The record API cannot express the POST: it calls the gateway between
 * two transactions (never holding one open across the network). First the top-up is written as
 * `created`; then the gateway charges the token or saved card; then the answer settles it
 * (./settle.ts) — or, when the gateway does not answer in time, it stays `created` and the signed
 * webhook settles it later. An Idempotency-Key replays the first answer and never charges twice:
 * the key is also stored on the top-up, so a retry after a first try that died past its charge
 * answers or re-drives that top-up (./create.ts) instead of writing a second one.
 */
export const topUpRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db } = services;

    app.get(
      "/payment-gateway",
      {
        schema: {
          tags: ["top-ups"],
          operationId: "getPaymentGateway",
          summary: "Which card gateway the caller's operator uses, and where the browser tokenizes a card",
          description:
            '`gateway` is the operator\'s top-up payment setting ("" = no card top-ups); `tokenizeUrl` is null unless this server is wired to that gateway. `billGateway` is the bill-payment gateway (BILL_PAYMENT_GATEWAY), with where the browser tokenizes a card (`billTokenizeUrl`) or a bank account (`bankAccountTokenizeUrl`) for bills.',
          headers: apiHeadersSchema,
          response: { 200: paymentGatewaySchema, ...errorResponses },
        },
      },
      async (request) => {
        const gateway = topUpPaymentOf(await services.operators.settings(request.principal.operator));
        const bills = billGatewayOf(services);
        return {
          gateway,
          tokenizeUrl: services.payments?.[gateway]?.tokenizeUrl ?? null,
          billGateway: services.billPaymentGateway ?? "",
          billTokenizeUrl: bills?.tokenizeUrl ?? null,
          bankAccountTokenizeUrl: bills?.tokenizeBankAccountUrl ?? null,
        };
      },
    );

    app.post(
      "/top-ups",
      {
        schema: {
          tags: ["top-ups"],
          operationId: "createTopUps",
          summary: "Top up a prepaid account by card (only where the operator has a card gateway)",
          description:
            "Takes a saved payment method or a one-time card token from the gateway's tokenizer; card numbers never reach this API. Answers the top-up: `completed` (credited once), `failed` (declined), or `created` when the gateway did not answer in time (its webhook settles it). 422 when the operator takes no card top-ups or Remote Config's card_top_up_enabled is off (vouchers are offered instead), when the account is not prepaid or the currency differs, or the token is refused. 404 when the account is not yours. An Idempotency-Key replays the first answer.",
          headers: writeHeadersSchema,
          body: newTopUpSchema,
          response: { 201: topUpSchema, ...errorResponses, 409: problemSchema, 422: problemSchema, 503: problemSchema },
        },
      },
      async (request, reply) => {
        const { principal } = request;
        if (!accessScope(principal, topUpsResource, "create"))
          throw forbidden(words("topUps.roleMayNotCreate", { role: principal.role }));
        // Remote Config's card_top_up_enabled switched off (a gateway incident, say): vouchers still work.
        if (!toggleOn(services.featureFlags, "card_top_up_enabled")) {
          throw unprocessable(words("topUps.turnedOff"));
        }
        const { accountId, amount, paymentMethodId, cardToken } = request.body;
        const account = await findRecordRow(db, accountsResource, accountsModule, principal, "show", accountId);
        if (!account) throw notFound(words("topUps.noSuchAccount"));
        if (account.type !== "prepaid")
          throw unprocessable(words("topUps.prepaidOnly"), [
            { path: "accountId", message: words("topUps.prepaidOnlyField") },
          ]);
        if (amount.currency !== account.currency)
          throw unprocessable(words("money.keptIn", { currency: account.currency }), [
            { path: "amount.currency", message: words("money.mustBeCurrency", { currency: account.currency }) },
          ]);
        const gateway = await gatewayFor(services, principal.operator);

        let source = cardToken;
        if (paymentMethodId) {
          // A saved card of the account's holder (staff may top up with the holder's card, never another's).
          const [method] = await db
            .select({ gatewayMethodId: paymentMethods.gatewayMethodId })
            .from(paymentMethods)
            .where(
              and(
                eq(paymentMethods.id, paymentMethodId),
                eq(paymentMethods.operatorCode, principal.operator),
                eq(paymentMethods.ownerUid, account.ownerUid ?? ""),
                eq(paymentMethods.gateway, gateway.name),
                eq(paymentMethods.type, "card"),
              ),
            );
          if (!method)
            throw unprocessable(words("payments.noSuchSavedCard"), [
              { path: "paymentMethodId", message: words("payments.notHoldersCard") },
            ]);
          source = method.gatewayMethodId;
        }

        const key = request.headers["idempotency-key"];
        const reservation = key
          ? await reserveIdempotencyKey(db, {
              actorUid: principal.uid,
              key,
              route: "POST /api/v1/top-ups",
              requestHash: hashRequest({ body: request.body, operator: principal.operator }),
            })
          : undefined;
        if (reservation?.kind === "replay") return sendReplay(reply, reservation);

        let record;
        try {
          record = await runCardTopUp(services, {
            operator: principal.operator,
            accountId,
            ownerUid: account.ownerUid ?? null,
            amount,
            gateway,
            source: source!,
            paymentMethodId: paymentMethodId ?? null,
            actor: { uid: principal.uid, role: principal.role },
            requestId: request.id,
            idempotencyKey: key,
            log: request.log,
            onSettled: async (tx, settled) => {
              if (reservation?.kind === "new") await reservation.complete(tx, 201, settled);
            },
          });
        } catch (error) {
          // A failed try frees its key, so the client may retry at once. A top-up it already wrote
          // carries the key itself: the retry finds it and settles it under the same gateway key,
          // never charging twice (create.ts).
          await reservation?.release();
          throw error;
        }
        return reply.code(201).send(record);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };
