import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { ALERT_LINK_DAYS, thisWasntMeBodySchema, thisWasntMeResultSchema } from "#resources/accountAlerts";
import type { EngineServices } from "../../engine/services";
import { words } from "../../i18n/words";
import { publishAfterCommit } from "../../live/eventBus";
import { declareScopeProblems } from "../../openapi/problems";
import { routeSchema } from "../../openapi/routeDoc";
import { useThisWasntMeLink } from "./thisWasntMe";

/**
 * `POST /api/v1/public/this-wasnt-me` `{token}`: the button of the page an account alert links to
 * (issue 27). No sign-in: the token of the link is the proof, and the person pressing it may have
 * been signed out by the thief. Rate limited per client address, every request counted (a bad token
 * as much as a good one), before the body is even read.
 */
export const thisWasntMeRoutes =
  (services: Pick<EngineServices, "db" | "auth" | "invalidation" | "limiter" | "events">): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.addHook("onRoute", declareScopeProblems(400, 429));
    app.addHook("onRequest", async (request) => {
      await services.limiter.enforce([
        { limit: "thisWasntMePerIp", key: request.ip, detail: words("accountAlerts.tooManyTries") },
      ]);
    });
    app.post(
      "/public/this-wasnt-me",
      {
        schema: {
          ...routeSchema(
            {
              operationId: "thisWasntMe",
              summary:
                "The holder says an alerted change was not theirs: lock their numbers, sign out every session, open an urgent fraud ticket",
              description:
                `No sign-in: the token of the alert's link (43 base64url characters; 400 at \`token\` otherwise). ` +
                `A token we never issued: 404. A link works once and for ${ALERT_LINK_DAYS} days: 410 after that. ` +
                "Every line of every account the person holds is locked against transfer, every refresh token revoked " +
                "and every backend instance told to drop its cached sessions, and care gets an urgent fraud ticket. " +
                "Rate limited per client address (429).",
              tag: "account-alerts",
              problems: [404, 410, 503],
            },
            { body: thisWasntMeBodySchema, response: { 200: thisWasntMeResultSchema } },
          ),
          security: [],
        },
      },
      async (request) => {
        const { result, events } = await useThisWasntMeLink(services, request.body.token, request.id);
        const at = new Date().toISOString();
        for (const event of events) await publishAfterCommit(services.events, request.log, { ...event, at });
        return result;
      },
    );
    done();
  };
