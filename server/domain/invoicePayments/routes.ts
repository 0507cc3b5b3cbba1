import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { accessScope } from "#resources/access";
import { invoicesResource, payInvoiceSchema, invoicePaymentResultSchema } from "#resources/invoices";
import { recordAudit } from "../../audit";
import { accounts, invoices } from "../../db/schema";
import { findRecordRow } from "../../engine/records";
import { writeHeadersSchema } from "../../engine/routeParts";
import { selectRecords } from "../../engine/recordQuery";
import type { EngineServices } from "../../engine/services";
import { badRequest, forbidden, notFound, ProblemError } from "../../errors";
import { localeOf } from "../../i18n/requestLocale";
import { textIn, words } from "../../i18n/words";
import { hashRequest, reserveIdempotencyKey, sendReplay } from "../../lib/idempotency";
import { publishAfterCommit } from "../../live/eventBus";
import { gatewayFor } from "../../payments/gatewayFor";
import { errorResponses, idParamsSchema, problemSchema } from "../../routes/common";
import { invoiceRecords, toInvoice } from "../invoices/records";
import { payInvoice } from "./payInvoice";

/**
 * `POST /invoices/{id}/actions/pay` `{paymentMethodId, reason?}`: pays an issued or overdue bill with
 * a saved card of its holder (the holder; staff on their behalf, with a reason). It calls the gateway
 * between two transactions (./payInvoice.ts), which the declared-action route cannot do, so the
 * module serves it under the action's path; the access rule is the resource's `pay`. Answers 200 with
 * the paid bill, 202 with the bill still open while the gateway has not answered (its webhook settles
 * it), 422 naming the card when it is declined (the bill unchanged) or when the operator takes no
 * cards. An Idempotency-Key replays the first answer and never charges twice: the key is also
 * stored on the payment, so a retry after a first try that died past its charge answers or re-drives
 * that payment (./payInvoice.ts) instead of writing a second one.
 */
export const invoicePaymentRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db, events } = services;
    app.post(
      "/invoices/:id/actions/pay",
      {
        schema: {
          tags: ["invoices"],
          operationId: "payInvoices",
          summary: "Pay one bill, or part of it, with a saved card or US bank account",
          description:
            "Through the bill-payment gateway (BILL_PAYMENT_GATEWAY), whatever the operator's top-up setting. Allowed while status is issued or overdue (else 409). `amount` (integer minor units, > 0, at most `amountDue`, else 400 at amount) pays part; without it, all that is due. Staff must give a reason. 200: settled (one `payment` ledger entry; the bill paid once nothing is left, lines suspended for non_payment restored); 202: pending — a bank payment (ACH) settles in 1–3 days by the gateway's webhook, and a card charge that did not answer in time; 409 when a payment on its way already covers what is due; 422: declined (the bill unchanged) or no bill-payment gateway. Audited. An Idempotency-Key replays the first answer.",
          headers: writeHeadersSchema,
          params: idParamsSchema,
          body: payInvoiceSchema,
          response: {
            200: invoicePaymentResultSchema,
            202: invoicePaymentResultSchema,
            ...errorResponses,
            409: problemSchema,
            422: problemSchema,
            503: problemSchema,
          },
        },
      },
      async (request, reply) => {
        const { principal } = request;
        if (!accessScope(principal, invoicesResource, "pay"))
          throw forbidden(words("invoices.roleMayNotPay", { role: principal.role }));
        const { paymentMethodId, reason, amount } = request.body;
        if (principal.role !== "subscriber" && !reason)
          throw badRequest(words("invoices.reasonRequired"), [{ path: "reason", message: words("invoices.required") }]);
        const found = await findRecordRow(db, invoicesResource, invoiceRecords, principal, "pay", request.params.id);
        if (!found) throw notFound(words("invoices.noSuchInvoice"));
        const gateway = await gatewayFor(services, principal.operator, "bill");

        const key = request.headers["idempotency-key"];
        const route = `POST /api/v1/invoices/${request.params.id}/actions/pay`;
        const reservation = key
          ? await reserveIdempotencyKey(db, {
              actorUid: principal.uid,
              key,
              route,
              requestHash: hashRequest({ body: request.body, operator: principal.operator }),
            })
          : undefined;
        if (reservation?.kind === "replay") {
          return sendReplay(reply, reservation);
        }

        let paid: Awaited<ReturnType<typeof payInvoice>>;
        try {
          paid = await payInvoice(db, gateway, {
            invoiceId: found.invoice.id,
            ownerUid: found.ownerUid,
            paymentMethodId,
            amount,
            via: "manual",
            actorUid: principal.uid,
            requestId: request.id,
            idempotencyKey: key,
            log: request.log,
          });
        } catch (error) {
          await reservation?.release();
          throw error;
        }
        const { payment } = paid;
        const declined = payment.status === "failed";
        const bank = paid.methodType === "bank_account";
        const which = { last4: paid.last4 };
        const detail = words(bank ? "invoices.bankAccountDeclined" : "invoices.cardDeclined", which);
        const errors = [
          {
            path: "paymentMethodId",
            message: words(bank ? "invoices.bankAccountDeclinedField" : "invoices.cardDeclinedField", which),
          },
        ];
        // The key's replay answers what this request is answered, in the language it asked for.
        const locale = localeOf(request.headers);
        const problem = {
          type: "about:blank",
          title: textIn(locale, words("http.title.422")),
          status: 422,
          detail: textIn(locale, detail),
          errors: errors.map((e) => ({ path: e.path, message: textIn(locale, e.message) })),
        };
        const status = declined ? 422 : payment.status === "created" ? 202 : 200;

        const response = await db.transaction(async (tx) => {
          const [row] = await selectRecords(invoiceRecords.source, tx)
            .where(eq(invoices.id, found.invoice.id))
            .limit(1);
          const record = {
            ...toInvoice(row!),
            payment: {
              id: payment.id,
              status: payment.status,
              failureReason: payment.failureReason,
              amount: { amount: payment.amount, currency: payment.currency },
              methodType: payment.methodType,
            },
          };
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "invoices.pay",
            targetType: "invoices",
            targetId: found.invoice.id,
            before: toInvoice(found),
            after: record,
            reason: reason ?? null,
            requestId: request.id,
          });
          if (reservation?.kind === "new") await reservation.complete(tx, status, declined ? problem : record);
          return record;
        });
        const at = new Date().toISOString();
        for (const event of paid.events) await publishAfterCommit(events, request.log, { ...event, at });
        if (declined) throw new ProblemError(422, detail, errors);
        return reply.code(status).send(response);
      },
    );
    // Routes register synchronously; Fastify's plugin contract is a promise.
    return Promise.resolve();
  };

/** The account's holder, for an autopay charge (no principal). */
export const holderOf = async (services: EngineServices, accountId: string) =>
  (await services.db.select({ ownerUid: accounts.ownerUid }).from(accounts).where(eq(accounts.id, accountId)))[0]
    ?.ownerUid ?? null;
