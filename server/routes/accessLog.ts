import type { FastifyRequest } from "fastify";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { accessLogEntrySchema, accessLogQuerySchema, ACCESS_LOG_WINDOW_MINUTES } from "#resources/accessLog";
import { listResponse } from "#resources/api";
import { accessLogOf } from "../domain/accessLog/accessLog";
import { forbidden } from "../errors";
import { words } from "../i18n/words";
import type { EngineServices } from "../engine/services";
import { routeSchema } from "../openapi/routeDoc";
import { apiHeadersSchema } from "./common";

/**
 * "Who looked at my account" (issue 27 item 3): the signed-in subscriber's own access log, newest
 * first. Each visit names the staff member by first name and initial and their team, never their
 * email or uid. Only subscribers: staff get 403 (admins read the log in the audit viewer).
 */
export const accessLogRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db } = services;

    const subscribersOnly = (request: FastifyRequest): Promise<void> =>
      request.principal.role === "subscriber"
        ? Promise.resolve()
        : Promise.reject(forbidden(words("accessLog.subscribersOnly")));

    app.get(
      "/me/access-log",
      {
        preValidation: subscribersOnly,
        schema: routeSchema(
          {
            operationId: "getAccessLog",
            summary: "Who of the operator's staff read the caller's data, what and when, newest first",
            description:
              `One entry per staff member, section and ${ACCESS_LOG_WINDOW_MINUTES} minutes; the staff member by first ` +
              "name and initial and team, never their email. Only subscribers (staff get 403).",
            tag: "identity",
          },
          {
            headers: apiHeadersSchema,
            querystring: accessLogQuerySchema,
            response: { 200: listResponse(accessLogEntrySchema) },
          },
        ),
      },
      async (request) =>
        accessLogOf(db, { operator: request.principal.operator, uid: request.principal.uid }, request.query),
    );
    done();
  };
