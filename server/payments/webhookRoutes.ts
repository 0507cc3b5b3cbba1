import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { eq } from "drizzle-orm";
import { invoicePayments, paymentWebhookEvents, topUps } from "../db/schema";
import { returnInvoicePayment, settleInvoicePayment } from "../domain/invoicePayments/settle";
import { settleTopUp } from "../domain/topUps/settle";
import type { EngineServices } from "../engine/services";
import { notFound } from "../errors";
import { words, type WordsKey } from "../i18n/words";
import { publishAfterCommit } from "../live/eventBus";
import { errorResponses } from "../routes/common";
import { readSignedEvent } from "./signedEvent";
import { SIGNATURE_HEADER } from "./webhookSignature";

/** A gateway's charge event, as the sandbox (and gateways like it) send it. */
const chargeEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(["charge.succeeded", "charge.failed", "charge.returned"]),
  created: z.number().int(),
  data: z.object({
    chargeId: z.string().min(1).max(200),
    reference: z.uuid(),
    amount: z.number().int().positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    failureCode: z.string().max(100).optional(),
  }),
});

/** A gateway's name in the path; a key of the server's words, so a refusal is worded for its reader. */
const GATEWAY_NAME: WordsKey = "payments.webhook.gatewayName";

/**
 * `POST /api/v1/payment-webhooks/{gateway}`: a card gateway tells how a charge ended. No person's
 * token: the HMAC-SHA256 signature over "<timestamp>.<raw body>" with the gateway's shared secret is
 * the authentication (401 when missing, malformed, too old or wrong). An event id seen before is
 * acknowledged and ignored; settling is idempotent anyway (./../domain/topUps/settle.ts), so an
 * answer and a webhook, or two webhooks, credit the balance once.
 */
export const paymentWebhookRoutes =
  (services: Pick<EngineServices, "db" | "events" | "payments">): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    // The signature covers the exact bytes sent: keep them (this scope only).
    app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 65_536 }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      "/payment-webhooks/:gateway",
      {
        schema: {
          tags: ["top-ups"],
          operationId: "receivePaymentWebhook",
          summary: "A card gateway's signed charge event (signature authentication, no user token)",
          description: `Signed in \`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">\`. Replays of an event id are acknowledged (200, duplicate: true) and ignored.`,
          security: [{ gatewaySignature: [] }],
          params: z.object({ gateway: z.string().regex(/^[a-z0-9_-]{1,40}$/, GATEWAY_NAME) }),
          response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }), ...errorResponses },
        },
      },
      async (request) => {
        const gateway = services.payments?.[request.params.gateway];
        if (!gateway) throw notFound(words("payments.webhook.noGateway", { gateway: request.params.gateway }));
        const event = readSignedEvent(chargeEventSchema, request, {
          secret: gateway.webhookSecret,
          header: SIGNATURE_HEADER,
          notAnEvent: "payments.webhook.notChargeEvent",
        });
        const done = await services.db.transaction(async (tx) => {
          const [first] = await tx
            .insert(paymentWebhookEvents)
            .values({ gateway: gateway.name, eventId: event.id, type: event.type })
            .onConflictDoNothing()
            .returning({ eventId: paymentWebhookEvents.eventId });
          if (!first) return { duplicate: true, events: [] };
          // An event must be about the amount we asked for: one that is not is kept as seen and changes nothing.
          const [asked] = await tx
            .select({ amount: topUps.amount, currency: topUps.currency })
            .from(topUps)
            .where(eq(topUps.id, event.data.reference));
          const outcome =
            event.type === "charge.succeeded"
              ? { outcome: "succeeded" as const, chargeId: event.data.chargeId }
              : {
                  outcome: "failed" as const,
                  chargeId: event.data.chargeId,
                  failureCode: event.data.failureCode ?? "failed",
                };
          if (!asked) {
            // Not a top-up: a bill payment's charge (../domain/invoicePayments/settle.ts), settled once the same way.
            const [bill] = await tx
              .select({ amount: invoicePayments.amount, currency: invoicePayments.currency })
              .from(invoicePayments)
              .where(eq(invoicePayments.id, event.data.reference));
            if (bill) {
              if (bill.amount !== event.data.amount || bill.currency !== event.data.currency) {
                request.log.warn(
                  { eventId: event.id, reference: event.data.reference },
                  "payment webhook for another amount than the bill payment's: ignored",
                );
                return { duplicate: false, events: [] };
              }
              // A bank payment that settled and came back (ACH return): the bill is owed again (settle.ts).
              if (event.type === "charge.returned") {
                const back = await returnInvoicePayment(
                  tx,
                  event.data.reference,
                  { failureCode: event.data.failureCode ?? "returned" },
                  { requestId: request.id },
                );
                return { duplicate: false, events: back?.events ?? [] };
              }
              const paid = await settleInvoicePayment(tx, event.data.reference, outcome, {
                via: "webhook",
                requestId: request.id,
              });
              return { duplicate: false, events: paid?.events ?? [] };
            }
          }
          if (event.type === "charge.returned") {
            // Top-ups take cards only: a return is about a bill payment, or nothing we know.
            request.log.warn(
              { eventId: event.id, reference: event.data.reference },
              "payment return for no bank payment of a bill: ignored",
            );
            return { duplicate: false, events: [] };
          }
          if (asked && (asked.amount !== event.data.amount || asked.currency !== event.data.currency)) {
            request.log.warn(
              { eventId: event.id, reference: event.data.reference },
              "payment webhook for another amount than the top-up's: ignored",
            );
            return { duplicate: false, events: [] };
          }
          const settled = await settleTopUp(
            tx,
            event.data.reference,
            event.type === "charge.succeeded"
              ? { outcome: "succeeded", chargeId: event.data.chargeId }
              : { outcome: "failed", chargeId: event.data.chargeId, failureCode: event.data.failureCode ?? "failed" },
            { via: "webhook", requestId: request.id },
          );
          // An event about a top-up we do not know is acknowledged (the gateway would retry forever) and logged.
          if (!settled)
            request.log.warn(
              { eventId: event.id, reference: event.data.reference },
              "payment webhook for an unknown top-up",
            );
          return { duplicate: false, events: settled?.events ?? [] };
        });
        const at = new Date().toISOString();
        for (const item of done.events) await publishAfterCommit(services.events, request.log, { ...item, at });
        return { received: true as const, duplicate: done.duplicate };
      },
    );
    done();
  };
