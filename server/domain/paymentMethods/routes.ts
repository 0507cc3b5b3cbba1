import { and, count, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope } from "#resources/access";
import { newPaymentMethodSchema, paymentMethodSchema, paymentMethodsResource } from "#resources/paymentMethods";
import { recordAudit } from "../../audit";
import { paymentMethods } from "../../db/schema";
import { writeHeadersSchema } from "../../engine/routeParts";
import type { EngineServices } from "../../engine/services";
import { forbidden, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { claimIdempotencyKey, hashRequest, sendReplay } from "../../lib/idempotency";
import { publishAfterCommit } from "../../live/eventBus";
import { GatewayRefusal } from "../../payments/gateway";
import { errorResponses, problemSchema } from "../../routes/common";
import { gatewayFor } from "../../payments/gatewayFor";
import { topUpPaymentOf } from "#resources/topUps";
import { makeDefault, toPaymentMethod } from "./records";

/** The most cards one subscriber may keep. */
export const MAX_PAYMENT_METHODS = 10;

/**
 * `POST /payment-methods`: saves a card the browser tokenized at the gateway. The record API cannot
 * express it: the token is exchanged at the gateway for a saved card first (outside any
 * transaction); only its brand, last 4, expiry and the gateway's reference are kept. The first card
 * becomes the default, as does one added with `makeDefault`.
 */
export const paymentMethodRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db, events } = services;
    app.post(
      "/payment-methods",
      {
        schema: {
          tags: ["payment-methods"],
          operationId: "createPaymentMethods",
          summary: "Save a card or a US bank account from a one-time gateway token",
          description:
            'Subscribers only, for themselves. `cardToken` or `bankAccountToken` (from the bill-payment gateway\'s bank tokenizer; bank accounts pay bills only). A card is saved at the bill-payment gateway with `for: "bills"` or when the operator takes no card top-ups, else at the top-up gateway. 422 when nothing is taken or the gateway refuses the token. Audited.',
          headers: writeHeadersSchema,
          body: newPaymentMethodSchema,
          response: {
            201: paymentMethodSchema,
            ...errorResponses,
            409: problemSchema,
            422: problemSchema,
            503: problemSchema,
          },
        },
      },
      async (request, reply) => {
        const { principal } = request;
        if (!accessScope(principal, paymentMethodsResource, "create"))
          throw forbidden(words("payments.methods.roleMayNotAdd", { role: principal.role }));
        const { cardToken, bankAccountToken } = request.body;
        const field = bankAccountToken ? "bankAccountToken" : "cardToken";
        // Bank accounts are for bills only: the bill-payment gateway. A card goes there too when asked
        // for bills or when the operator takes no card top-ups (ATT); otherwise where top-ups take cards.
        const topUpName = topUpPaymentOf(await services.operators.settings(principal.operator));
        const forBills = Boolean(bankAccountToken) || request.body.for === "bills" || topUpName === "";
        const gateway = await gatewayFor(services, principal.operator, forBills ? "bill" : "top-up").catch(
          (error: unknown) => {
            if (error instanceof Error && "status" in error && error.status === 422)
              throw unprocessable(words("payments.methods.nothingToSave"), [
                { path: field, message: words("payments.methods.nothingToSaveField") },
              ]);
            throw error;
          },
        );
        if (bankAccountToken && !gateway.saveBankAccount)
          throw unprocessable(words("payments.methods.noBankAccounts"), [
            { path: "bankAccountToken", message: words("payments.methods.noBankAccountsField") },
          ]);
        const holder = and(
          eq(paymentMethods.operatorCode, principal.operator),
          eq(paymentMethods.ownerUid, principal.uid),
        );
        const [{ n }] = (await db.select({ n: count() }).from(paymentMethods).where(holder)) as [{ n: number }];
        if (Number(n) >= MAX_PAYMENT_METHODS)
          throw unprocessable(words("payments.methods.tooMany", { max: MAX_PAYMENT_METHODS }), [
            { path: field, message: words("payments.methods.tooManyField", { max: MAX_PAYMENT_METHODS }) },
          ]);
        const key = request.headers["idempotency-key"];
        const idempotency = key
          ? {
              actorUid: principal.uid,
              key,
              route: "POST /api/v1/payment-methods",
              requestHash: hashRequest({ body: request.body, operator: principal.operator }),
            }
          : undefined;
        if (idempotency) {
          // A retry of a saved card replays it without asking the gateway (the token was used up).
          const replay = await db
            .transaction(async (tx) => {
              const claim = await claimIdempotencyKey(tx, idempotency);
              if (claim.kind === "replay") return claim;
              throw new NotYet();
            })
            .catch((error: unknown) => {
              if (error instanceof NotYet) return null;
              throw error;
            });
          if (replay) return sendReplay(reply, replay);
        }

        let method: Omit<typeof paymentMethods.$inferInsert, "operatorCode" | "ownerUid" | "gateway"> & {
          gatewayMethodId: string;
          last4: string;
        };
        try {
          if (bankAccountToken) {
            const account = await gateway.saveBankAccount!(bankAccountToken);
            method = {
              type: "bank_account",
              gatewayMethodId: account.gatewayMethodId,
              bankName: account.bankName,
              last4: account.last4,
              accountHolderType: account.accountHolderType,
            };
          } else {
            const card = await gateway.saveCard(cardToken!);
            method = {
              type: "card",
              gatewayMethodId: card.gatewayMethodId,
              brand: card.brand,
              last4: card.last4,
              expMonth: card.expMonth,
              expYear: card.expYear,
            };
          }
        } catch (error) {
          if (error instanceof GatewayRefusal)
            // The gateway's own words say why (its message, as it wrote it).
            throw unprocessable(
              words(bankAccountToken ? "payments.methods.bankTokenRefused" : "payments.methods.cardTokenRefused", {
                why: error.message,
              }),
              [{ path: field, message: words("payments.methods.tokenRefusedField") }],
            );
          throw error;
        }
        const record = await db.transaction(async (tx) => {
          const claim = idempotency ? await claimIdempotencyKey(tx, idempotency) : undefined;
          if (claim?.kind === "replay") return claim.response as ReturnType<typeof toPaymentMethod>;
          const [hasDefault] = await tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(and(holder, eq(paymentMethods.isDefault, true)))
            .limit(1);
          const [row] = await tx
            .insert(paymentMethods)
            .values({ operatorCode: principal.operator, ownerUid: principal.uid, gateway: gateway.name, ...method })
            .returning();
          if (!hasDefault || request.body.makeDefault) await makeDefault(tx, row!);
          const [saved] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row!.id));
          const result = toPaymentMethod(saved!);
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "payment-methods.create",
            targetType: "payment-methods",
            targetId: result.id,
            before: null,
            after: result,
            reason: null,
            requestId: request.id,
          });
          if (claim) await claim.complete(201, result);
          return result;
        });
        await publishAfterCommit(events, request.log, {
          operator: principal.operator,
          resource: "payment-methods",
          type: "created",
          ids: [record.id],
          ownerUids: [principal.uid],
          at: new Date().toISOString(),
        });
        return reply.code(201).send(record);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };

class NotYet extends Error {}
