import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { EngineServices } from "../../engine/services";
import { notFound } from "../../errors";
import { words } from "../../i18n/words";
import { publishAfterCommit } from "../../live/eventBus";
import { readSignedEvent } from "../../payments/signedEvent";
import { EXCHANGE_SIGNATURE_HEADER, exchangeEventSchema } from "../../portingExchange/protocol";
import { errorResponses } from "../../routes/common";
import { applyPortInAnswer } from "./answer";

/**
 * `POST /api/v1/porting-webhooks`: the number portability exchange answers a port request. No
 * person's token: the HMAC-SHA256 signature over "<timestamp>.<raw body>" with the shared secret
 * (PORTING_WEBHOOK_SECRET) is the authentication (401 when missing, malformed, too old or wrong).
 * A second answer for the same request is acknowledged (`duplicate: true`) and changes nothing.
 */
export const portingWebhookRoutes =
  (services: Pick<EngineServices, "db" | "events" | "portingExchange">): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    // The signature covers the exact bytes sent: keep them (this scope only).
    app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 65_536 }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      "/porting-webhooks",
      {
        schema: {
          tags: ["orders"],
          operationId: "receivePortingWebhook",
          summary: "The number portability exchange's signed answer to a port request (no user token)",
          description: `Signed in \`${EXCHANGE_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">\`. A second answer for the same request is acknowledged (200, duplicate: true) and changes nothing.`,
          security: [{ gatewaySignature: [] }],
          response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }), ...errorResponses },
        },
      },
      async (request) => {
        const exchange = services.portingExchange;
        // A backend that talks to no exchange expects no answer from one: nothing here to post to.
        if (!exchange) throw notFound(words("porting.webhook.notConfigured"));
        const answer = readSignedEvent(exchangeEventSchema, request, {
          secret: exchange.webhookSecret,
          header: EXCHANGE_SIGNATURE_HEADER,
          notAnEvent: "porting.webhook.notAnswer",
        });
        const { duplicate, events } = await applyPortInAnswer(services.db, answer);
        for (const event of events) await publishAfterCommit(services.events, request.log, event);
        return { received: true as const, duplicate };
      },
    );
    done();
  };
