import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idSchema, isoDateTime, moneySchema } from "../../src/resources/common";
import { accountsResource } from "../../src/resources/accounts";
import { accountsModule } from "../domain/accounts/module";
import { findRecordRow } from "../engine/records";
import { writeHeadersSchema } from "../engine/routeParts";
import type { EngineServices } from "../engine/services";
import { notFound, unavailable, unprocessable } from "../errors";
import { errorResponses, problemSchema } from "../routes/common";

/** The largest single card top-up (minor units). */
export const MAX_TOP_UP_AMOUNT = 50_000;

/**
 * What `POST /top-ups` takes: the prepaid account, the amount, and how to pay — a saved payment
 * method or a one-time card token from the gateway's tokenizer (never a card number).
 */
export const newTopUpSchema = z
  .object({
    accountId: idSchema,
    amount: moneySchema.extend({
      amount: z.number().int("whole minor units (cents)").positive("more than zero").max(MAX_TOP_UP_AMOUNT, "at most $500.00"),
    }),
    paymentMethodId: idSchema.optional(),
    cardToken: z.string().min(8, "a token from the payment gateway's tokenizer").max(200, "too long for a token").regex(/^[A-Za-z0-9_-]+$/, "a token from the payment gateway's tokenizer").optional(),
  })
  .strict()
  .refine((body) => (body.paymentMethodId === undefined) !== (body.cardToken === undefined), { path: ["paymentMethodId"], message: "give either paymentMethodId or cardToken" });

/** A card top-up as the subscriber sees it: its state and the time of its last change. */
export const topUpSchema = z.object({
  id: idSchema,
  accountId: idSchema,
  amount: moneySchema,
  status: z.enum(["created", "completed", "failed", "cancelled"]),
  updatedAt: isoDateTime,
});

/** The operator's top-up payment setting (operators.settings.topUpPayment): "" = no card top-ups. */
export const topUpPaymentOf = (settings: Record<string, unknown> | null | undefined): string =>
  typeof settings?.topUpPayment === "string" ? settings.topUpPayment : "";

/**
 * `POST /top-ups`: a card top-up of a prepaid account. Card top-ups exist only when the operator's
 * top-up payment setting names a gateway; when it is empty (ATT) the answer is 422 saying card
 * top-up is unavailable and vouchers are the way to add credit. Nothing is written in either refusal.
 */
export const topUpRoutes = (services: Pick<EngineServices, "db" | "operators">): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, operators } = services;
    app.post(
      "/top-ups",
      {
        schema: {
          tags: ["top-ups"],
          operationId: "createTopUps",
          summary: "Top up a prepaid account by card (only where the operator has a card gateway)",
          description:
            "Takes a saved payment method or a one-time card token from the gateway's tokenizer; card numbers never reach this API. 422 when the operator takes no card top-ups (vouchers are offered instead), when the account is not prepaid or the currency differs. 404 when the account is not yours.",
          headers: writeHeadersSchema,
          body: newTopUpSchema,
          response: { 201: topUpSchema, ...errorResponses, 422: problemSchema, 503: problemSchema },
        },
      },
      async (request) => {
        const { principal } = request;
        const { accountId, amount } = request.body;
        const account = await findRecordRow(db, accountsResource, accountsModule, principal, "show", accountId);
        if (!account) throw notFound("No such accounts record.");
        if (account.type !== "prepaid") throw unprocessable("Only prepaid accounts are topped up; postpaid accounts pay their bills.", [{ path: "accountId", message: "must be a prepaid account" }]);
        if (amount.currency !== account.currency) throw unprocessable(`This account is kept in ${account.currency}.`, [{ path: "amount.currency", message: `must be ${account.currency}` }]);
        const gateway = topUpPaymentOf(await operators.settings(principal.operator));
        if (gateway === "") {
          throw unprocessable("Card top-up is unavailable for this operator: add credit with a voucher instead (POST /api/v1/accounts/{id}/actions/redeem-voucher).", [
            { path: "paymentMethodId", message: "card top-up is unavailable; use a voucher" },
          ]);
        }
        // A named gateway (e.g. "sandbox") is not wired into this build yet: say so rather than pretend.
        throw unavailable(`Card top-up through the "${gateway}" gateway is not available on this server yet; add credit with a voucher instead.`);
      },
    );
  };
